import type { InjectOptions } from 'fastify'
import type {
  ApiError,
  Catalogue,
  ReturnInstructions,
  ReturnOrder,
  ReturnRequest,
  SupportToken,
  VerifiedOrder,
} from '../../contract/api'
import { issueToken } from '../src/domain/token'
import { buildLine, buildOrder, buildProduct, buildShop } from './builders'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'
import { anyString, stringContaining, stringMatching } from './matchers'

/** #1001 with a tee and a 14.00 mug, in a shop with a 3.95 fee, 10 % more as store credit and upsells. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'li-tee', variant_id: 'tee-m' }),
    buildLine({ id: 'li-mug', variant_id: 'mug-default', price: '14.00' }),
  ],
})
const SHOP = buildShop({
  shop: 'north',
  settings: { return_fee: '3.95', upsell_enabled: true },
  config: { gift_card_value_multiplier: 1.1 },
  catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' })],
  orders: [jane],
})
const ada = buildOrder({ name: 'AC1001', email: 'ada@example.com' })
const OTHER = buildShop({ shop: 'south', orders: [ada] })

describe.each(engines())('support token on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, [SHOP, OTHER], [SHOP, jane], (ready) => ({ api, order } = ready))

  const supportToken = (token: string, extra: Partial<InjectOptions> = {}) =>
    api.app.inject({ method: 'POST', url: '/portal-registration/support-token', headers: bearer(token), ...extra })
  const readOnlyToken = async (token = order.token) => {
    const response = await supportToken(token)
    expect(response.statusCode).toBe(200)
    return response.json<SupportToken>()
  }
  const quote = (body: ReturnRequest, token: string) =>
    api.app.inject({ method: 'POST', url: '/portal-registration/returns/quote', headers: bearer(token), payload: body })
  const submit = (body: ReturnRequest, token: string, key = 'support-key-0001') =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': key },
      payload: body,
    })
  const countReturns = async () =>
    Number(
      (
        await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM returns WHERE order_id = $1', [
          order.order_id,
        ])
      )[0]!.n,
    )

  /** The mug refunded as store credit: a return #1001 can make. */
  const mugReturn = (): ReturnRequest => ({
    items: [{ line_item_id: order.line_items[1]!.id, quantity: 1, reason_id: 'changed_mind' }],
    refund_method: 'store_credit',
  })

  test('a shopper token gets a different, read-only token ending exactly when it ends', async () => {
    const response = await supportToken(order.token)
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const answer = response.json<SupportToken>()
    expect(answer).toEqual({
      token: stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      token_expires_at: order.token_expires_at,
    })
    expect(answer.token).not.toBe(order.token)
  })

  test('{} as the body is accepted like no body', async () => {
    const response = await supportToken(order.token, { payload: {} })
    expect(response.statusCode).toBe(200)
  })

  test.each<[string, Partial<InjectOptions>]>([
    ['a JSON object with a field', { payload: { order_id: 'someone-else' } }],
    ['a JSON array', { payload: '[]', headers: { 'content-type': 'application/json' } }],
    ['JSON null', { payload: 'null', headers: { 'content-type': 'application/json' } }],
    ['an empty JSON body', { payload: '', headers: { 'content-type': 'application/json' } }],
    ['text', { payload: 'please', headers: { 'content-type': 'text/plain' } }],
    ['bytes', { payload: Buffer.from([1, 2, 3]), headers: { 'content-type': 'application/octet-stream' } }],
  ])('any other body (%s) is a 400', async (_name, extra) => {
    const response = await supportToken(order.token, {
      ...extra,
      headers: { ...extra.headers, ...bearer(order.token) },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'invalid_request', message: anyString() })
  })

  test('without a token, with a forged or an expired one: 401 session_expired and no token', async () => {
    const none = await api.app.inject({ method: 'POST', url: '/portal-registration/support-token' })
    const [payload, signature] = order.token.split('.')
    const forged = await supportToken(`${payload}.${signature}x`)
    const expired = await supportToken(
      issueToken(Buffer.from('test-secret'), {
        orderId: order.order_id,
        shopId: 'north',
        expires: Math.floor(NOW.getTime() / 1000) - 1,
        readOnly: false,
      }),
    )
    for (const response of [none, forged, expired]) {
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ error: 'session_expired', message: anyString() })
    }
  })

  test('a token about to expire gives a read-only token that expires with it, never later', async () => {
    const expires = Math.floor(NOW.getTime() / 1000) + 90
    const shortLived = issueToken(Buffer.from('test-secret'), {
      orderId: order.order_id,
      shopId: 'north',
      expires,
      readOnly: false,
    })
    expect((await readOnlyToken(shortLived)).token_expires_at).toBe(new Date(expires * 1000).toISOString())
  })

  test('a read-only token quotes exactly what the shopper’s token quotes', async () => {
    const { token } = await readOnlyToken()
    const asSupport = await quote(mugReturn(), token)
    expect(asSupport.statusCode).toBe(200)
    expect(asSupport.json<ReturnOrder>()).toEqual((await quote(mugReturn(), order.token)).json<ReturnOrder>())
    expect(asSupport.json<ReturnOrder>().breakdown.total.presentment_money.amount).toBe('11.06')
  })

  test('a read-only token reads the catalogue, the instructions of the order’s return, and its label opens', async () => {
    const created = (await submit(mugReturn(), order.token)).json<ReturnOrder>()
    const { token } = await readOnlyToken()
    const catalogue = await api.app.inject({
      method: 'GET',
      url: '/portal-registration/catalogue',
      headers: bearer(token),
    })
    expect(catalogue.statusCode).toBe(200)
    expect(catalogue.json<Catalogue>().products.map((product) => product.id)).toEqual(['tee', 'mug'])
    const instructions = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/instructions`,
      headers: bearer(token),
    })
    expect(instructions.statusCode).toBe(200)
    const { return_name, label_url } = instructions.json<ReturnInstructions>()
    expect(return_name).toBe('#1001-R1')
    const label = await api.app.inject({ method: 'GET', url: label_url })
    expect(label.statusCode).toBe(200)
    expect(label.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
  })

  test('a read-only token cannot submit: 403 read_only_session, no database work, no return', async () => {
    const { token } = await readOnlyToken()
    const query = jest.spyOn(api.db, 'query')
    const transaction = jest.spyOn(api.db, 'transaction')
    let databaseCalls: unknown[][] = []
    const response = await submit(mugReturn(), token).finally(() => {
      // Read before restoring: mockRestore also forgets the calls.
      databaseCalls = [...query.mock.calls, ...transaction.mock.calls]
      query.mockRestore()
      transaction.mockRestore()
    })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'read_only_session', message: stringContaining('read-only') })
    expect(databaseCalls).toEqual([])
    expect(await countReturns()).toBe(0)
  })

  test('a read-only token cannot be upgraded: asking with it gives another read-only token, same expiry', async () => {
    const first = await readOnlyToken()
    const second = await readOnlyToken(first.token)
    expect(second.token_expires_at).toBe(order.token_expires_at)
    expect((await submit(mugReturn(), second.token)).statusCode).toBe(403)
    // Cutting the read-only mark out of the payload breaks the signature.
    const [payload, signature] = first.token.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>
    delete claims.r
    const stripped = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
    expect((await submit(mugReturn(), stripped)).json()).toEqual({
      error: 'session_expired',
      message: anyString(),
    })
    expect(await countReturns()).toBe(0)
  })

  test('after a read-only token was made, the shopper’s own token still submits', async () => {
    const { token } = await readOnlyToken()
    expect((await submit(mugReturn(), token)).statusCode).toBe(403)
    const response = await submit(mugReturn(), order.token)
    expect(response.statusCode).toBe(201)
    expect(response.json<ReturnOrder>()).toMatchObject({ status: 'requested', name: '#1001-R1' })
    expect(await countReturns()).toBe(1)
  })

  test('a read-only token reaches only its own order: another shop’s cannot quote this order’s items', async () => {
    const theirs = await verified(api.app, OTHER, ada)
    const { token } = await readOnlyToken(theirs.token)
    const response = await quote(mugReturn(), token)
    expect(response.statusCode).toBe(422)
    expect(response.json<ApiError>().message).toContain('no such item in this order')
  })
})
