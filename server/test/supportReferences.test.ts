import { deflateRawSync } from 'node:zlib'
import type { SupportReference, SupportToken, VerifiedOrder } from '../../contract/api'
import { SUPPORT_REFERENCE_PATTERN } from '../../contract/constants'
import type { SupportSession } from '../../contract/staff'
import { hashPassword } from '../src/domain/passwords'
import { newSupportReference, readSupportReference } from '../src/domain/supportReference'
import { issueToken } from '../src/domain/token'
import { addStaff } from '../src/storage/staff'
import { buildOrder, buildShop } from './builders'
import { bearer, engines, loadShops, NOW, startApi, type TestApi, verified } from './harness'

const jane = buildOrder({ name: '#1001', email: 'jane@example.com' })
const DEMO = buildShop({ shop: 'demo', orders: [jane] })
const ACME = buildShop({ shop: 'acme', orders: [buildOrder({ name: '#1001', email: 'ada@example.com' })] })
const PASSWORD = 'correct horse battery'
const DAY = 86_400_000

/** A support code as the portal makes one: RB1. + base64url(raw deflate(JSON)). */
const codeOf = (payload: unknown) => `RB1.${deflateRawSync(Buffer.from(JSON.stringify(payload))).toString('base64url')}`

/** The portal's payload for a session on /products with nothing chosen yet, carrying `token`. */
const payloadOf = (order: VerifiedOrder, token: string, shop = 'demo') => ({
  v: 1,
  shop,
  path: '/products',
  flow: {
    launch: { lang: null, testMode: false, configOverride: null },
    order: { ...order, email: 'j***@example.com', token },
    items: [],
    upsell: null,
    refundMethod: null,
    quote: null,
    idempotencyKey: null,
    submitted: null,
    readOnly: false,
  },
})

test('references are eight Crockford base32 characters in two groups, read back as heard', () => {
  const seen = new Set<string>()
  for (let i = 0; i < 2000; i++) {
    const reference = newSupportReference()
    expect(reference).toMatch(SUPPORT_REFERENCE_PATTERN)
    seen.add(reference)
  }
  expect(seen.size).toBe(2000)
  expect(readSupportReference('7kq2 9xhd')).toBe('7KQ2-9XHD')
  expect(readSupportReference('7KQ29XHD')).toBe('7KQ2-9XHD')
  // Crockford's reading: I and L are 1, O is 0.
  expect(readSupportReference('IL0O-ABCD')).toBe('1100-ABCD')
  for (const bad of ['7KQ2-9XH', '7KQ2-9XHDD', 'UUUU-UUUU', '', '7KQ2_9XHD'])
    expect(readSupportReference(bad)).toBeNull()
})

describe.each(engines())('support references on %s', (engine) => {
  let api: TestApi
  let clock: Date
  let order: VerifiedOrder
  beforeAll(async () => {
    api = await startApi(engine, [], { now: () => clock })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    clock = NOW
    await api.db.exec('DELETE FROM staff; DELETE FROM support_references; DELETE FROM rate_limits')
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'staff@acme.example', await hashPassword(PASSWORD), NOW)
    order = await verified(api.app, DEMO, jane)
  })

  const readOnlyToken = async (token = order.token) => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/support-token',
      headers: bearer(token),
    })
    return response.json<SupportToken>().token
  }
  const keep = (code: string, token = order.token) =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/support-references',
      headers: bearer(token),
      payload: { code },
    })
  const staffCookie = async (shop: 'demo' | 'acme') => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { host: `${shop}.localhost`, origin: `http://${shop}.localhost` },
      payload: { email: `staff@${shop}.example`, password: PASSWORD },
    })
    return `rebound_staff=${response.cookies[0]!.value}`
  }
  const open = async (reference: string, shop: 'demo' | 'acme' = 'demo', cookie?: string) =>
    api.app.inject({
      method: 'GET',
      url: `/admin/api/support/${encodeURIComponent(reference)}`,
      headers: { host: `${shop}.localhost`, cookie: cookie ?? (await staffCookie(shop)) },
    })

  test("a shopper's code is kept under a short reference for 7 days; the shop's staff open it, typed any way", async () => {
    const code = codeOf(payloadOf(order, await readOnlyToken()))
    const kept = await keep(code)
    expect(kept.statusCode).toBe(201)
    const { reference, expires_at } = kept.json<SupportReference>()
    expect(reference).toMatch(SUPPORT_REFERENCE_PATTERN)
    expect(expires_at).toBe(new Date(NOW.getTime() + 7 * DAY).toISOString())

    for (const typed of [reference, reference.toLowerCase(), reference.replace('-', ''), ` ${reference} `]) {
      const opened = await open(typed)
      expect({ typed, status: opened.statusCode }).toEqual({ typed, status: 200 })
      expect(opened.json<SupportSession>()).toEqual({
        reference,
        code,
        created_at: NOW.toISOString(),
        expires_at,
      })
    }
    clock = new Date(NOW.getTime() + 7 * DAY - 1000)
    expect((await open(reference)).statusCode).toBe(200)
    clock = new Date(NOW.getTime() + 7 * DAY)
    const expired = await open(reference)
    expect(expired.statusCode).toBe(404)
    expect(expired.json<{ message: string }>().message).toContain('References last 7 days')
  })

  test("another shop's staff, and anyone without a session, cannot open it", async () => {
    const { reference } = (await keep(codeOf(payloadOf(order, await readOnlyToken())))).json<SupportReference>()
    expect((await open(reference, 'acme')).statusCode).toBe(404)
    expect((await open(reference, 'demo', 'rebound_staff=forged')).statusCode).toBe(401)
    // Demo's staff on acme's host are not acme's staff.
    expect((await open(reference, 'acme', await staffCookie('demo'))).statusCode).toBe(403)
    expect((await open('ZZZZ-ZZZZ')).statusCode).toBe(404)
    expect((await open('not a reference')).statusCode).toBe(404)
  })

  test('only a code the portal made for this session is kept: its shop, and a read-only token of its order', async () => {
    const readOnly = await readOnlyToken()
    const cases: [string, string][] = [
      ['RB1.not-deflate', 'code: not a support code'],
      [
        codeOf({ v: 1, shop: 'demo', path: '/products', flow: { hello: 'world' } }),
        'not a support code of this portal',
      ],
      [codeOf(payloadOf(order, readOnly, 'acme')), "made for another shop's portal"],
      // The shopper's own token would let whoever opens the code submit a return.
      [codeOf(payloadOf(order, order.token)), 'is not a read-only token'],
      // A read-only token of another order (acme's #1001) in demo's session.
      [
        codeOf(
          payloadOf(
            order,
            issueToken(Buffer.from('test-secret'), {
              orderId: 'another-order',
              shopId: 'demo',
              expires: NOW.getTime() / 1000 + 3600,
              readOnly: true,
            }),
          ),
        ),
        'is not a read-only token',
      ],
      // A zip bomb: 3 MB of spaces inflated from a few KB.
      [`RB1.${deflateRawSync(Buffer.alloc(3 * 1024 * 1024, 32)).toString('base64url')}`, 'not a support code'],
    ]
    for (const [code, message] of cases) {
      const response = await keep(code)
      expect({ message, status: response.statusCode }).toEqual({ message, status: 400 })
      expect(response.json<{ message: string }>().message).toContain(message)
    }
    for (const code of ['', 'RB2.abc', 'RB1.has spaces', 'x'.repeat(70_000)])
      expect((await keep(code)).statusCode).toBe(400)
    expect(await api.db.query('SELECT 1 FROM support_references')).toEqual([])
  })

  test("one client's 31st reference within a minute is a 429; another client is not held back", async () => {
    const code = codeOf(payloadOf(order, await readOnlyToken()))
    const from = (remoteAddress: string) =>
      api.app.inject({
        method: 'POST',
        url: '/portal-registration/support-references',
        headers: bearer(order.token),
        remoteAddress,
        payload: { code },
      })
    for (let i = 0; i < 30; i++) expect((await from('127.0.20.1')).statusCode).toBe(201)
    const refused = await from('127.0.20.1')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect((await from('127.0.20.2')).statusCode).toBe(201)
  })

  test("a replay's read-only token cannot keep a code; without a token nothing is kept", async () => {
    const readOnly = await readOnlyToken()
    const code = codeOf(payloadOf(order, readOnly))
    expect((await keep(code, readOnly)).statusCode).toBe(403)
    const anonymous = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/support-references',
      payload: { code },
    })
    expect(anonymous.statusCode).toBe(401)
  })
})
