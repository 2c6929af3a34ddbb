import { newStoreCreditCode, STORE_CREDIT_CODE } from './storeCredit'

test('newStoreCreditCode: sixteen characters of Crockford base32 in four groups, never twice the same', () => {
  const codes = new Set(Array.from({ length: 2000 }, () => newStoreCreditCode()))
  expect(codes.size).toBe(2000)
  for (const code of codes) expect(code).toMatch(STORE_CREDIT_CODE)
})

test('newStoreCreditCode: every character of the alphabet can come, and nothing else', () => {
  const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 2 + 1)
  expect(newStoreCreditCode(() => bytes)).toBe('GC-1357-9BDF-HKNQ-SVXZ')
  expect(newStoreCreditCode(() => new Uint8Array(16).fill(255))).toBe('GC-ZZZZ-ZZZZ-ZZZZ-ZZZZ')
  expect(newStoreCreditCode(() => new Uint8Array(16).fill(32))).toBe('GC-0000-0000-0000-0000')
})
