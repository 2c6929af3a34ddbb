import fc from 'fast-check'
import { deflateRaw, fromBase64Url, inflateRaw, toBase64Url } from './bytes'

const utf8 = (text: string) => new TextEncoder().encode(text)

test('base64url round-trips every byte value, without padding or + and /', () => {
  const all = Uint8Array.from({ length: 256 }, (_, index) => index)
  const text = toBase64Url(all)
  expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
  expect(Array.from(fromBase64Url(text)!)).toEqual(Array.from(all))
})

test('base64url agrees with Node’s encoder on any bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
    }),
  )
})

test.each([
  ['a letter outside base64url', 'ab+c'],
  ['padding', 'YQ=='],
  ['an impossible length', 'abcde'],
  ['a space', 'ab cd'],
])('fromBase64Url refuses %s', (_name, text) => {
  expect(fromBase64Url(text)).toBeNull()
})

test('deflate then inflate gives the bytes back, smaller in between', async () => {
  const text = JSON.stringify({
    items: Array.from({ length: 50 }, (_, index) => ({ id: `li-${index}`, title: 'Classic Tee', price: '25.00' })),
  })
  const deflated = await deflateRaw(utf8(text))
  expect(deflated.length).toBeLessThan(text.length / 4)
  expect(new TextDecoder().decode((await inflateRaw(deflated, 1_000_000))!)).toBe(text)
})

test('inflating stops at the limit and gives null', async () => {
  const deflated = await deflateRaw(new Uint8Array(1_000_000))
  expect(await inflateRaw(deflated, 999_999)).toBeNull()
  expect((await inflateRaw(deflated, 1_000_000))!.length).toBe(1_000_000)
})

test('inflating bytes that are not raw deflate rejects', async () => {
  await expect(inflateRaw(utf8('not deflate at all'), 1_000)).rejects.toBeDefined()
})
