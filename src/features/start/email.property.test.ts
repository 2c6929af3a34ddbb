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

test('isValidEmail is total and quick on any text, ignores surrounding spaces, and refuses control characters and over 254 characters', () => {
  fc.assert(
    fc.property(anyText, (email) => {
      const started = performance.now()
      const valid = isValidEmail(email)
      // Not a speed figure (benchmarks measure speed): catastrophic backtracking takes seconds.
      expect(performance.now() - started).toBeLessThan(500)
      expect(isValidEmail(` ${email}\t`)).toBe(valid)
      // eslint-disable-next-line no-control-regex -- an address with a control character is never valid
      if (/[\u0000-\u001f\u007f]/.test(email.trim()) || email.trim().length > 254) expect(valid).toBe(false)
    }),
    { numRuns: 5000 },
  )
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
