import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import type { ApiError, ReturnInstructions, ReturnOrder, ReturnRequest, VerifiedOrder } from '../../contract/api'
import { buildApp } from '../src/app'
import { buildLine, buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { NOW, bearer, engines, startApi, verified, type TestApi } from './harness'
import { databaseDigest } from './hostile'
import { stringContaining } from './matchers'

/**
 * What a verify token reaches: its own order, until it expires. Every call after verify is tried
 * with another order's token, an expired one, a forged one and none; the label link is tried for
 * another return and after it expires.
 */

const SECRET = Buffer.from('test-secret')
const HOUR = 60 * 60 * 1000
const ADMIN_TOKEN = 'admin-token-for-access-tests'

/** #1001 with a tee and a mug; #1005 with one item; another shop's order. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'li-1001-001' }), buildLine({ id: 'li-1001-002' })],
})
const solo = buildOrder({ name: '#1005', email: 'solo@example.com' })
const SHOP = buildShop({ shop: 'north', orders: [jane, solo] })
const adaOrder = buildOrder({ name: 'AC1001', email: 'ada@example.com' })
const OTHER = buildShop({ shop: 'south', orders: [adaOrder] })

describe.each(engines())('access on %s', (engine) => {
  let api: TestApi
  let janeSession: VerifiedOrder
  let adaSession: VerifiedOrder
  let janesReturn: ReturnOrder
  let instructions: ReturnInstructions
  beforeAll(async () => {
    api = await startApi(engine, [SHOP, OTHER], { adminToken: ADMIN_TOKEN })
    janeSession = await verified(api.app, SHOP, jane)
    adaSession = await verified(api.app, OTHER, adaOrder)
    const made = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(janeSession.token), 'idempotency-key': 'access-0001' },
      payload: mug(),
    })
    janesReturn = made.json<ReturnOrder>()
    const read = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${janesReturn.id}/instructions`,
      headers: bearer(janeSession.token),
    })
    instructions = read.json<ReturnInstructions>()
  })
  afterAll(() => api.close())

  /** #1001's tee: still returnable after the mug's return. */
  const tee = (): ReturnRequest => buildReturn([returnItem('li-1001-001')])
  const mug = (): ReturnRequest => buildReturn([returnItem('li-1001-002')])

  /** Every call a token authorises, each aimed at #1001 (its items, its return). */
  const calls = (): [string, (headers: Record<string, string>) => InjectOptions][] => [
    ['quote', (headers) => ({ method: 'POST', url: '/portal-registration/returns/quote', headers, payload: tee() })],
    [
      'submit',
      (headers) => ({
        method: 'POST',
        url: '/portal-registration/returns',
        headers: { ...headers, 'idempotency-key': `access-${Math.random().toString(36).slice(2)}` },
        payload: tee(),
      }),
    ],
    [
      'instructions',
      (headers) => ({ method: 'GET', url: `/portal-registration/returns/${janesReturn.id}/instructions`, headers }),
    ],
    ['catalogue', (headers) => ({ method: 'GET', url: '/portal-registration/catalogue', headers })],
  ]

  test('the first submit made one return with a label link (the ground the other tests stand on)', () => {
    expect(janesReturn.name).toBe('#1001-R1')
    expect(instructions.label_url).toContain('/label.pdf?expires=')
  })

  test("another order's token reaches none of #1001: its items are unknown, its return absent, nothing is stored", async () => {
    const before = await databaseDigest(api.db)
    const [quote, submit, read] = await Promise.all(
      calls()
        .slice(0, 3)
        .map(([, call]) => api.app.inject(call(bearer(adaSession.token)))),
    )
    expect([quote!.statusCode, quote!.json<ApiError>().message]).toEqual([
      422,
      stringContaining('no such item in this order'),
    ])
    expect([submit!.statusCode, submit!.json<ApiError>().message]).toEqual([
      422,
      stringContaining('no such item in this order'),
    ])
    expect(read!.statusCode).toBe(404)
    expect(await databaseDigest(api.db)).toBe(before)
  })

  test('a token past its expiry (2 hours) is refused by every call with 401 session_expired', async () => {
    expect(Date.parse(janeSession.token_expires_at)).toBe(NOW.getTime() + 2 * HOUR)
    const later = await buildApp({
      db: api.db,
      secret: SECRET,
      now: () => new Date(Date.parse(janeSession.token_expires_at) + 1000),
    })
    const justBefore = await buildApp({
      db: api.db,
      secret: SECRET,
      now: () => new Date(Date.parse(janeSession.token_expires_at) - 1000),
    })
    try {
      for (const [name, call] of calls()) {
        const refused = await later.inject(call(bearer(janeSession.token)))
        expect([name, refused.statusCode, refused.json<ApiError>().error]).toEqual([name, 401, 'session_expired'])
      }
      // The same token a second earlier still reads the instructions: it is the clock that refused.
      expect((await justBefore.inject(calls()[2]![1](bearer(janeSession.token)))).statusCode).toBe(200)
    } finally {
      await later.close()
      await justBefore.close()
    }
  })

  test('any Authorization header but a signed token is a 401 on every call, never a 5xx, and stores nothing', async () => {
    const before = await databaseDigest(api.db)
    const [payload, signature] = janeSession.token.split('.') as [string, string]
    const forged = fc.oneof(
      fc.string({ maxLength: 200 }).map((text) => `Bearer ${text}`),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.base64String({ maxLength: 100 }).map((text) => `Bearer ${text.replace(/=/g, '')}.${signature}`),
      fc.base64String({ maxLength: 100 }).map((text) => `Bearer ${payload}.${text.replace(/[=+/]/g, '')}`),
      // Well-formed claims for #1001 itself, signed with another secret.
      fc.string({ minLength: 1, maxLength: 20 }).map((other) => {
        const claims = Buffer.from(JSON.stringify({ o: janeSession.order_id, s: 'north', e: 9_999_999_999 })).toString(
          'base64url',
        )
        return `Bearer ${claims}.${createHmac('sha256', `x${other}`).update(claims).digest('base64url')}`
      }),
      fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Basic amFuZTpzZWNyZXQ=',
        `bearer ${janeSession.token}`,
        `Bearer ${janeSession.token}.x`,
        `Bearer ${janeSession.token} `,
      ),
    )
    await fc.assert(
      fc.asyncProperty(forged, fc.constantFrom(...calls()), async (authorization, [name, call]) => {
        const headers: Record<string, string> = authorization === '' ? {} : { authorization }
        const response = await api.app.inject(call(headers))
        expect([name, authorization, response.statusCode]).toEqual([name, authorization, 401])
      }),
      { numRuns: 400 },
    )
    expect(await databaseDigest(api.db)).toBe(before)
  })

  test('without a token, a malformed body is a 401 too: nothing about the body is answered before the token', async () => {
    for (const url of ['/portal-registration/returns/quote', '/portal-registration/returns']) {
      const response = await api.app.inject({
        method: 'POST',
        url,
        headers: { 'idempotency-key': 'access-none-0001' },
        payload: { items: 'nope', extra: true },
      })
      expect([url, response.statusCode, response.json<ApiError>().error]).toEqual([url, 401, 'session_expired'])
    }
    // And a read-only (support) token is refused for submit before its body is looked at.
    const support = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/support-token',
      headers: bearer(janeSession.token),
    })
    const refused = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(support.json<{ token: string }>().token), 'idempotency-key': 'access-none-0002' },
      payload: { items: 'nope' },
    })
    expect([refused.statusCode, refused.json<ApiError>().error]).toEqual([403, 'read_only_session'])
  })

  test("a label link opens its own return's label only, and only until it expires (30 days)", async () => {
    expect((await api.app.inject({ method: 'GET', url: instructions.label_url })).statusCode).toBe(200)
    // The link's expiry and signature on another return's id (#1005's, made for this test).
    const soloSession = await verified(api.app, SHOP, solo)
    const other = (
      await api.app.inject({
        method: 'POST',
        url: '/portal-registration/returns',
        headers: { ...bearer(soloSession.token), 'idempotency-key': 'access-solo-0001' },
        payload: buildReturn([returnItem(soloSession.line_items[0]!.id)]),
      })
    ).json<ReturnOrder>()
    const borrowed = instructions.label_url.replace(janesReturn.id!, other.id!)
    expect((await api.app.inject({ method: 'GET', url: borrowed })).statusCode).toBe(404)

    const expires = Number(new URL(instructions.label_url, 'http://x').searchParams.get('expires'))
    expect(expires * 1000).toBe(NOW.getTime() + 30 * 24 * HOUR)
    const later: FastifyInstance = await buildApp({
      db: api.db,
      secret: SECRET,
      now: () => new Date(expires * 1000 + 1000),
    })
    try {
      const expired = await later.inject({ method: 'GET', url: instructions.label_url })
      expect(expired.statusCode).toBe(404)
    } finally {
      await later.close()
    }
  })

  test('the admin import checks its token before reading the body: a 30 MB body without it is a 401, not a 413', async () => {
    const huge = `{"shop":"${'x'.repeat(30 * 1024 * 1024)}"}`
    const without = await api.app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
      payload: huge,
    })
    expect([without.statusCode, without.json<ApiError>().error]).toEqual([401, 'unauthorised'])
    const withToken = await api.app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: { 'content-type': 'application/json', ...bearer(ADMIN_TOKEN) },
      payload: huge,
    })
    expect(withToken.statusCode).toBe(413)
  })
})
