import type { VerifiedOrder } from '../../contract/api'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop, portalOf, returnedUnit } from './builders'
import { engines, startApi, verified, verify, type TestApi } from './harness'
import { anyString, stringContaining } from './matchers'

/** A tee in four sizes (XL out of stock), a mug with no other variant, a final-sale shirt. */
const CATALOGUE = [
  buildProduct({ id: 'tee', title: 'Classic Tee', sizes: ['S', 'M', 'L', 'XL'], outOfStock: ['XL'] }),
  buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00', exchangeable: false }),
  buildProduct({ id: 'shirt', title: 'Linen Shirt', price: '49.00' }),
]
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'tee-line', variant_id: 'tee-m', quantity: 2 }),
    buildLine({ id: 'mug-line', variant_id: 'mug-default', price: '14.00' }),
    buildLine({ id: 'shirt-line', variant_id: 'shirt-m', price: '49.00', final_sale: true }),
  ],
})
const solo = buildOrder({
  name: '#1005',
  email: 'solo@example.com',
  line_items: [buildLine({ variant_id: 'mug-default' })],
})
const unfulfilled = buildOrder({ name: '#1002', email: 'sam@example.com', processed_at: 'now-1d', fulfilled_at: null })
// Fulfilled 65 days ago, past the 30-day window.
const tooOld = buildOrder({ name: '#1003', email: 'old@example.com', processed_at: 'now-70d', fulfilled_at: 'now-65d' })
const returned = buildOrder({
  name: '#1004',
  email: 'repeat@example.com',
  line_items: [buildLine({ id: 'returned-line' })],
  returns: [[returnedUnit('returned-line')]],
})
const SHOP = buildShop({
  shop: 'north',
  settings: { return_window_days: 30, upsell_enabled: true },
  return_reasons: [
    buildReason('too_small', { label: 'Too small', fit: 'too_small' }),
    buildReason('too_large', { label: 'Too large', fit: 'too_large' }),
    buildReason('changed_mind', { label: 'Changed my mind' }),
    buildReason('other', { label: 'Other reason', comment_required: true }),
  ],
  return_reason_variants: {
    de: { too_small: 'Zu klein', too_large: 'Zu groß', changed_mind: 'Ich habe es mir anders überlegt' },
  },
  catalogue: CATALOGUE,
  orders: [jane, solo, unfulfilled, tooOld, returned],
})
const NORTH = portalOf(SHOP)
/** Another shop, whose reasons have no fit markers; its order is no order of SHOP. */
const ada = buildOrder({ name: 'AC1001', email: 'ada@example.com' })
const OTHER = buildShop({ shop: 'south', orders: [ada] })

describe.each(engines())('verify on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine, [SHOP, OTHER])
  })
  afterAll(() => api.close())

  test('an order gives its items, eligibility, exchanges, reasons and a token', async () => {
    const order = await verified(api.app, SHOP, jane)
    expect(order.order_name).toBe('#1001')
    expect(order.currency_code).toBe('EUR')
    const [tee, mug, shirt] = order.line_items
    expect(tee).toMatchObject({
      title: 'Classic Tee',
      variant_title: 'M',
      quantity: 2,
      returnable_quantity: 2,
      ineligible_reason: null,
    })
    expect(tee!.price.presentment_money).toEqual({ amount: '25.00', currency_code: 'EUR' })
    expect(mug).toMatchObject({ title: 'Ceramic Mug', returnable_quantity: 1, ineligible_reason: null })
    // The bought variant's options, so the portal offers fit reasons only to an item with a size.
    expect(tee!.options).toEqual([{ name: 'Size', value: 'M' }])
    expect(mug!.options).toEqual([])
    expect(shirt).toMatchObject({ title: 'Linen Shirt', returnable_quantity: 0, ineligible_reason: 'final_sale' })
    // The tee may go to S, L and XL (XL out of stock); the mug has no exchange options.
    const options = order.exchange_data!.options[tee!.variant_id!]!
    expect(options.map((id) => order.exchange_data!.variants[id]!.title)).toEqual(['S', 'M', 'L', 'XL'])
    const xl = options.map((id) => order.exchange_data!.variants[id]!).find((variant) => variant.title === 'XL')
    expect(xl!.available).toBe(false)
    expect(order.exchange_data!.options[mug!.variant_id ?? 'none']).toBeUndefined()
    expect(order.exchange_data!.upsell_enabled).toBe(true)
    expect(order.return_reasons.map((reason) => reason.id)).toEqual(['too_small', 'too_large', 'changed_mind', 'other'])
    expect(order.token).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(new Date(order.token_expires_at).getTime()).toBeGreaterThan(Date.parse('2026-11-20T12:00:00Z'))
  })

  test.each([
    ['1001', 'jane@example.com'],
    ['  #1001 ', ' Jane@Example.COM '],
  ])('order names match ignoring a leading #, case and spaces; e-mails ignoring case: %j %j', async (name, email) => {
    expect((await verify(api.app, { order_name: name, email, ...NORTH })).statusCode).toBe(200)
  })

  test.each([
    ['#1002', 'sam@example.com', 'order_not_fulfilled'],
    ['#1003', 'old@example.com', 'order_too_old'],
    ['#1004', 'repeat@example.com', 'order_already_has_return'],
    ['#9999', 'nobody@example.com', 'invalid_order'],
    ['#1001', 'wrong@example.com', 'invalid_order'],
    ['AC1001', 'ada@example.com', 'invalid_order'],
  ])('%s / %s answers 400 %s', async (order_name, email, code) => {
    const response = await verify(api.app, { order_name, email, ...NORTH })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: code })
  })

  test('a wrong portal_id for the shop is an unknown order, never a hint', async () => {
    const response = await verify(api.app, {
      order_name: '#1001',
      email: 'jane@example.com',
      shop: SHOP.shop,
      portal_id: OTHER.config.portal_id,
    })
    expect(response.json()).toEqual({ error: 'invalid_order' })
  })

  test('an item of a product with no other variant has no exchange options', async () => {
    const order = await verified(api.app, SHOP, solo)
    expect(order.line_items).toHaveLength(1)
    const line = order.line_items[0]!
    expect(order.exchange_data!.options[line.variant_id!] ?? [line.variant_id]).toEqual([line.variant_id])
  })

  test('Accept-Language de gives the reasons in the shop’s German labels, the ones it has', async () => {
    const english = await verified(api.app, SHOP, jane)
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      headers: { 'accept-language': 'de' },
      payload: { order_name: '#1001', email: 'jane@example.com', ...NORTH },
    })
    const german = response.json<VerifiedOrder>()
    expect(german.return_reasons.map((reason) => reason.id)).toEqual(english.return_reasons.map((reason) => reason.id))
    expect(german.return_reasons.map((reason) => reason.label)).toEqual([
      'Zu klein',
      'Zu groß',
      'Ich habe es mir anders überlegt',
      'Other reason',
    ])
  })

  test('the fit markers go with too_small and too_large only, in any language', async () => {
    for (const lang of ['en', 'de']) {
      const response = await api.app.inject({
        method: 'POST',
        url: '/portal-registration/verify',
        headers: { 'accept-language': lang },
        payload: { order_name: '#1001', email: 'jane@example.com', ...NORTH },
      })
      const order = response.json<VerifiedOrder>()
      expect(order.return_reasons.map((reason) => [reason.id, reason.fit ?? null])).toEqual([
        ['too_small', 'too_small'],
        ['too_large', 'too_large'],
        ['changed_mind', null],
        ['other', null],
      ])
    }
  })

  test('a shop without fit markers answers its reasons without a fit field at all', async () => {
    const order = await verified(api.app, OTHER, ada)
    expect(order.return_reasons.length).toBeGreaterThan(0)
    for (const reason of order.return_reasons)
      expect(Object.keys(reason).sort()).toEqual(['comment_required', 'id', 'label'])
  })

  test.each([
    [{}, 'order_name: is required'],
    [{ order_name: '#1001', email: 'jane@example.com', shop: 'north' }, 'portal_id: is required'],
    [{ order_name: 1001, email: 'jane@example.com', ...NORTH }, 'order_name: must be string'],
    [{ order_name: '', email: 'jane@example.com', ...NORTH }, 'order_name: must NOT have fewer than 1 characters'],
    [{ order_name: '#1001', email: 'x'.repeat(400), ...NORTH }, 'email: must NOT have more than 320 characters'],
    [{ order_name: '#1001', email: 'jane@example.com', ...NORTH, admin: true }, 'admin: is not a known field'],
  ])('a malformed body is a 400 naming the field: %j', async (body, message) => {
    const response = await verify(api.app, body)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'invalid_request', message: stringContaining(message) })
  })

  test('a body that is not JSON is a 400, never a 500', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      headers: { 'content-type': 'application/json' },
      payload: '{"order_name":',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json<{ error: string }>().error).toBe('invalid_request')
  })
})

describe('verify limits (PGlite)', () => {
  test('per order name: the 4th attempt on one order within a minute is 429, from any client', async () => {
    const api = await startApi('pglite', [SHOP], {
      limits: { verifyPerClient: 100, verifyPerOrder: 3, verifyFailureFloorMs: 0 },
    })
    try {
      const statuses: number[] = []
      for (const [index, email] of ['a@example.com', 'b@example.com', 'c@example.com', 'jane@example.com'].entries()) {
        const response = await api.app.inject({
          method: 'POST',
          url: '/portal-registration/verify',
          remoteAddress: `10.0.0.${index + 1}`,
          payload: { order_name: '#1001', email, ...NORTH },
        })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([400, 400, 400, 429])
      // Another order is not held back by it.
      expect((await verify(api.app, { order_name: '#1005', email: 'solo@example.com', ...NORTH })).statusCode).toBe(200)
    } finally {
      await api.close()
    }
  })

  test('per client: a burst of 40 guesses from one address gets 429 after the limit', async () => {
    const api = await startApi('pglite', [SHOP], {
      limits: { verifyPerClient: 10, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    try {
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          verify(api.app, { order_name: `#${2000 + index}`, email: 'guess@example.com', ...NORTH }),
        ),
      )
      const statuses = responses.map((response) => response.statusCode)
      expect(statuses.filter((status) => status === 400)).toHaveLength(10)
      expect(statuses.filter((status) => status === 429)).toHaveLength(30)
      expect(responses.find((response) => response.statusCode === 429)!.json()).toEqual({
        error: 'too_many_attempts',
        message: anyString(),
      })
    } finally {
      await api.close()
    }
  })

  test('behind a trusted proxy the client is the address the proxy saw: a forged X-Forwarded-For does not step around the per-client limit', async () => {
    const api = await startApi('pglite', [SHOP], {
      trustProxy: ['10.0.0.0/8'],
      limits: { verifyPerClient: 3, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    try {
      // The load balancer (10.0.0.2) appends the address it saw; whatever the client wrote is to its left.
      const through = (client: string, forged: string, index: number) =>
        api.app.inject({
          method: 'POST',
          url: '/portal-registration/verify',
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': `${forged}, ${client}` },
          payload: { order_name: `#${3000 + index}`, email: 'guess@example.com', ...NORTH },
        })
      const statuses: number[] = []
      for (let index = 0; index < 5; index++)
        statuses.push((await through('203.0.113.7', `198.51.100.${index}`, index)).statusCode)
      expect(statuses).toEqual([400, 400, 400, 429, 429])
      // Another shopper behind the same load balancer is not held back.
      expect((await through('203.0.113.8', '198.51.100.9', 9)).statusCode).toBe(400)
      // A client that talks to the API directly cannot claim another address either.
      const direct = await api.app.inject({
        method: 'POST',
        url: '/portal-registration/verify',
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': '198.51.100.77' },
        payload: { order_name: '#3100', email: 'guess@example.com', ...NORTH },
      })
      expect(direct.statusCode).toBe(429)
    } finally {
      await api.close()
    }
  })

  test('every failure takes at least the floor, so an unknown order and a wrong e-mail cannot be told apart by time', async () => {
    const api = await startApi('pglite', [SHOP], {
      limits: { verifyPerClient: 100, verifyPerOrder: 100, verifyFailureFloorMs: 120 },
    })
    try {
      const times: Record<string, number[]> = { '#9999': [], '#1001': [] }
      // The first round compiles the route: not a failure's time. Then both take turns, so that a
      // busy machine slows both alike, and their medians are compared as a ratio, not to a clock.
      for (let round = 0; round < 6; round++)
        for (const [order_name, email] of [
          ['#9999', 'nobody@example.com'],
          ['#1001', 'wrong@example.com'],
        ] as const) {
          const started = performance.now()
          const response = await verify(api.app, { order_name, email, ...NORTH })
          const took = performance.now() - started
          expect(response.json()).toEqual({ error: 'invalid_order' })
          expect(took).toBeGreaterThanOrEqual(115)
          if (round > 0) times[order_name]!.push(took)
        }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
      const [a, b] = [median(times['#9999']!), median(times['#1001']!)]
      expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(1.5)
    } finally {
      await api.close()
    }
  })
})
