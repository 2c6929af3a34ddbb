import fc from 'fast-check'
import { EXCHANGE_PREFIX, rewriteOrderName } from './orderName'

const prefix = fc.oneof(
  fc.constantFrom('AC', 'R-', '#SHOP', 'EX', 'E'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }),
)
const input = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('', '#', ' ', 'exc', 'ß', 'ﬀ', '\u0000'),
)

test('the prefix rewrite is total and idempotent, and its result begins with the prefix or EXC (or is on its way there)', () => {
  fc.assert(
    fc.property(input, prefix, (value, configured) => {
      const once = rewriteOrderName(value, configured)
      expect(rewriteOrderName(once, configured)).toBe(once)
      const upperPrefix = configured.trim().toUpperCase()
      if (upperPrefix !== '') {
        expect(once).toBe(once.toUpperCase())
        // A '#' may lead while the prefix is still being typed ('#A' of '#AC1001').
        const ok = [upperPrefix, EXCHANGE_PREFIX].some(
          (p) => once.startsWith(p) || p.startsWith(once) || (once.startsWith('#') && p.startsWith(once.slice(1))),
        )
        expect(ok).toBe(true)
      }
    }),
    { numRuns: 5000 },
  )
})

test('without a prefix the input is never changed', () => {
  fc.assert(
    fc.property(input, (value) => expect(rewriteOrderName(value, null)).toBe(value)),
    { numRuns: 1000 },
  )
})

test('typing any order name key by key ends where typing it at once does', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9#-]{0,12}$/), prefix, (typed, configured) => {
      let value = ''
      for (const key of typed) value = rewriteOrderName(value + key, configured)
      const atOnce = rewriteOrderName(typed, configured)
      // Key by key can only differ where an intermediate rewrite inserted the prefix earlier.
      expect(rewriteOrderName(value, configured)).toBe(value)
      if (configured.trim() === '') expect(value).toBe(atOnce)
    }),
    { numRuns: 2000 },
  )
})
