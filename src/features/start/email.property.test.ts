import fc from 'fast-check'
import { canStartReturn, isValidEmail } from './email'

const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.emailAddress(),
  fc.emailAddress().map((email) => `${email}\u0000`),
  // Shapes that make a backtracking pattern slow: long labels, many dots, a bad end.
  fc.integer({ min: 1, max: 400 }).map((n) => `${'a'.repeat(n)}@${'a-'.repeat(n)}.${'a'.repeat(n)}!`),
  fc.integer({ min: 1, max: 120 }).map((n) => `a@${'a.'.repeat(n)}-`),
)

test('isValidEmail is total on any text, ignores surrounding spaces, and refuses control characters and over 254 characters', () => {
  fc.assert(
    fc.property(anyText, (email) => {
      const valid = isValidEmail(email)
      expect(isValidEmail(` ${email}\t`)).toBe(valid)
      // eslint-disable-next-line no-control-regex -- an address with a control character is never valid
      if (/[\u0000-\u001f\u007f]/.test(email.trim()) || email.trim().length > 254) expect(valid).toBe(false)
    }),
    { numRuns: 5000 },
  )
})

/**
 * The least time, in milliseconds, each of `runs` took over all the texts in any of the rounds,
 * the runs taking turns so that a busy spell of the machine falls on both alike.
 */
function leastTimes(texts: string[], runs: ((text: string) => unknown)[], rounds = 7): number[] {
  const least = runs.map(() => Infinity)
  for (let round = 0; round < rounds; round += 1)
    runs.forEach((run, index) => {
      const started = performance.now()
      for (const text of texts) run(text)
      least[index] = Math.min(least[index]!, performance.now() - started)
    })
  return least
}

/** One look at each character, as a pattern without backtracking takes. */
function countAts(text: string): number {
  const trimmed = text.trim()
  let count = 0
  for (let index = 0; index < trimmed.length; index += 1) if (trimmed.charCodeAt(index) === 64) count += 1
  return count
}

test('isValidEmail is quick on any text: within a small multiple of one pass over the same texts', () => {
  const texts = fc.sample(anyText, { numRuns: 5000, seed: 29 })
  // A ratio on this machine, as busy as it is, not a speed figure (benchmarks measure speed). The
  // pattern takes about a third of the pass; a quadratic one takes 30 to 80 times it, and
  // catastrophic backtracking takes seconds on a single text.
  const [pattern, pass] = leastTimes(texts, [isValidEmail, countAts])
  expect(pattern! / Math.max(pass!, 0.01)).toBeLessThan(10)
})

test('every address fast-check considers valid (RFC 5322, without quoted parts) and under 255 characters is accepted', () => {
  fc.assert(
    fc.property(
      fc.emailAddress().filter((email) => email.length <= 254 && /\.[^.]+$/.test(email.split('@')[1]!)),
      (email) => {
        expect(isValidEmail(email)).toBe(true)
        expect(canStartReturn('#1001', email, false, null)).toBe(true)
      },
    ),
    { numRuns: 2000 },
  )
})
