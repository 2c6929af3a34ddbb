import { createHmac } from 'node:crypto'
import { issueToken, readToken, type TokenClaims } from './token'

const secret = Buffer.from('unit-secret')
const now = new Date('2026-11-20T12:00:00.000Z')
const inAnHour = Math.floor(now.getTime() / 1000) + 3600
const claims = (overrides: Partial<TokenClaims> = {}): TokenClaims => ({
  orderId: 'order-1',
  shopId: 'demo',
  expires: inAnHour,
  readOnly: false,
  ...overrides,
})

/** A token signed with the right secret around any payload: what only a leaked secret could make. */
const signedAround = (body: object) => {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url')
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`
}

test.each([
  ['a shopper token', claims()],
  ['a read-only token', claims({ readOnly: true })],
])('readToken gives back the claims of %s', (_name, issued) => {
  expect(readToken(secret, issueToken(secret, issued), now)).toEqual(issued)
})

test('a shopper token carries no read-only mark, so tokens issued before it existed read as they did', () => {
  const [payload] = issueToken(secret, claims()).split('.')
  expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({ o: 'order-1', s: 'demo', e: inAnHour })
})

test('removing the read-only mark breaks the signature: the token is refused, not upgraded', () => {
  const [, signature] = issueToken(secret, claims({ readOnly: true })).split('.')
  const stripped = Buffer.from(JSON.stringify({ o: 'order-1', s: 'demo', e: inAnHour })).toString('base64url')
  expect(readToken(secret, `${stripped}.${signature}`, now)).toBeNull()
})

test.each([
  ['r: 0', { r: 0 }],
  ['r: true', { r: true }],
  ['r: "1"', { r: '1' }],
  ['r: null', { r: null }],
])('a signed payload with a read-only mark issueToken never writes (%s) is refused', (_name, mark) => {
  expect(readToken(secret, signedAround({ o: 'order-1', s: 'demo', e: inAnHour, ...mark }), now)).toBeNull()
})

test('an expired read-only token is refused like any other', () => {
  expect(readToken(secret, issueToken(secret, claims({ readOnly: true, expires: inAnHour - 7200 })), now)).toBeNull()
})
