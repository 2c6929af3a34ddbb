import fc from 'fast-check'
import { emailKey, orderNameKey } from './normalize'

// Any Unicode text, long runs, control characters, the characters whose case mapping changes length.
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  // eslint-disable-next-line no-control-regex -- control characters are what this part generates
  fc.stringMatching(/^[\u0000-\u001f\u007f\u2028\u2029\u00a0\ufeff #ßﬀİı]{0,30}$/),
  fc.integer({ min: 0, max: 5000 }).map((length) => `#${'ß'.repeat(length)}`),
)

test('orderNameKey is total and idempotent: a name matched once matches as its own key', () => {
  fc.assert(
    fc.property(anyText, (name) => {
      const key = orderNameKey(name)
      expect(orderNameKey(key)).toBe(key)
      expect(key).toBe(key.trim())
      expect(key.startsWith('#')).toBe(false)
    }),
    { numRuns: 5000 },
  )
})

test('orderNameKey ignores leading # and spaces in any mix, trailing spaces, and upper or lower case as typed', () => {
  fc.assert(
    fc.property(anyText, fc.stringMatching(/^[ #\t]{0,4}$/), fc.constantFrom('', ' ', '\t'), (name, lead, trail) => {
      const key = orderNameKey(name)
      expect(orderNameKey(`${lead}${name}${trail}`)).toBe(key)
      expect(orderNameKey(name.toUpperCase())).toBe(key)
    }),
    { numRuns: 3000 },
  )
})

test('emailKey is total and idempotent', () => {
  fc.assert(
    fc.property(anyText, (email) => {
      const key = emailKey(email)
      expect(emailKey(key)).toBe(key)
    }),
    { numRuns: 5000 },
  )
})
