import type { VerifiedOrder } from '../../contract/api'
import { ACME, DEMO, engines, startApi, verified, verify, type TestApi } from './harness'

describe.each(engines())('verify on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine)
  })
  afterAll(() => api.close())

  test('#1001 / jane@example.com gives the order with its items, eligibility, exchanges, reasons and a token', async () => {
    const order = await verified(api.app, '#1001', 'jane@example.com')
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
    expect(shirt).toMatchObject({ title: 'Linen Shirt', returnable_quantity: 0, ineligible_reason: 'final_sale' })
    // The tee may go to S, L and XL (XL out of stock); the mug has no exchange options.
    const options = order.exchange_data!.options[tee!.variant_id!]!
    const sizes = options.map((id) => order.exchange_data!.variants[id]!.title)
    expect(sizes).toEqual(expect.arrayContaining(['S', 'M', 'L', 'XL']))
    const xl = options.map((id) => order.exchange_data!.variants[id]!).find((variant) => variant.title === 'XL')
    expect(xl!.available).toBe(false)
    expect(order.exchange_data!.options[mug!.variant_id ?? 'none']).toBeUndefined()
    expect(order.exchange_data!.upsell_enabled).toBe(true)
    expect(order.return_reasons.length).toBeGreaterThan(2)
    expect(order.token).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(new Date(order.token_expires_at).getTime()).toBeGreaterThan(Date.parse('2026-11-20T12:00:00Z'))
  })

  test.each([
    ['1001', 'jane@example.com'],
    ['  #1001 ', ' Jane@Example.COM '],
  ])('order names match ignoring a leading #, case and spaces; e-mails ignoring case: %j %j', async (name, email) => {
    expect((await verify(api.app, { order_name: name, email, ...DEMO })).statusCode).toBe(200)
  })

  test.each([
    ['#1002', 'sam@example.com', 'order_not_fulfilled'],
    ['#1003', 'old@example.com', 'order_too_old'],
    ['#1004', 'repeat@example.com', 'order_already_has_return'],
    ['#9999', 'nobody@example.com', 'invalid_order'],
    ['#1001', 'wrong@example.com', 'invalid_order'],
    ['AC1001', 'ada@example.com', 'invalid_order'],
  ])('%s / %s answers 400 %s', async (order_name, email, code) => {
    const response = await verify(api.app, { order_name, email, ...DEMO })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: code })
  })

  test('a wrong portal_id for the shop is an unknown order, never a hint', async () => {
    const response = await verify(api.app, {
      order_name: '#1001',
      email: 'jane@example.com',
      shop: 'demo',
      portal_id: 'portal-acme',
    })
    expect(response.json()).toEqual({ error: 'invalid_order' })
  })

  test('#1005: its only exchange option is its own variant', async () => {
    const order = await verified(api.app, '#1005', 'solo@example.com')
    expect(order.line_items).toHaveLength(1)
    const line = order.line_items[0]!
    expect(order.exchange_data!.options[line.variant_id!] ?? [line.variant_id]).toEqual([line.variant_id])
  })

  test('#1006: 150 items, a third of them exchangeable', async () => {
    const order = await verified(api.app, '#1006', 'bulk@example.com')
    expect(order.line_items).toHaveLength(150)
    const exchangeable = order.line_items.filter(
      (line) => (order.exchange_data!.options[line.variant_id ?? '']?.length ?? 0) > 1,
    )
    expect(exchangeable).toHaveLength(50)
  })

  test('acme: AC1001 and EXC2001 verify for ada@example.com', async () => {
    const ac = await verified(api.app, 'AC1001', 'ada@example.com', ACME)
    expect(ac.currency_code).toBe('USD')
    expect(ac.exchange_data!.upsell_enabled).toBe(false)
    const exc: VerifiedOrder = await verified(api.app, 'EXC2001', 'ada@example.com', ACME)
    expect(exc.line_items).toHaveLength(1)
    expect(exc.line_items[0]!.exchange_variant_id).not.toBeNull()
  })

  test('Accept-Language de gives the reasons in the shop’s German labels', async () => {
    const english = await verified(api.app, '#1001', 'jane@example.com')
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      headers: { 'accept-language': 'de' },
      payload: { order_name: '#1001', email: 'jane@example.com', ...DEMO },
    })
    const german = response.json<VerifiedOrder>()
    expect(german.return_reasons.map((reason) => reason.id)).toEqual(english.return_reasons.map((reason) => reason.id))
    expect(german.return_reasons.map((reason) => reason.label)).not.toEqual(
      english.return_reasons.map((reason) => reason.label),
    )
  })

  test.each([
    [{}, 'order_name: is required'],
    [{ order_name: '#1001', email: 'jane@example.com', shop: 'demo' }, 'portal_id: is required'],
    [{ order_name: 1001, email: 'jane@example.com', ...DEMO }, 'order_name: must be string'],
    [{ order_name: '', email: 'jane@example.com', ...DEMO }, 'order_name: must NOT have fewer than 1 characters'],
    [{ order_name: '#1001', email: 'x'.repeat(400), ...DEMO }, 'email: must NOT have more than 320 characters'],
    [{ order_name: '#1001', email: 'jane@example.com', ...DEMO, admin: true }, 'admin: is not a known field'],
  ])('a malformed body is a 400 naming the field: %j', async (body, message) => {
    const response = await verify(api.app, body)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'invalid_request', message: expect.stringContaining(message) })
  })

  test('a body that is not JSON is a 400, never a 500', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      headers: { 'content-type': 'application/json' },
      payload: '{"order_name":',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toBe('invalid_request')
  })
})

describe('verify limits (PGlite)', () => {
  test('per order name: the 4th attempt on one order within a minute is 429, from any client', async () => {
    const api = await startApi('pglite', {
      limits: { verifyPerClient: 100, verifyPerOrder: 3, verifyFailureFloorMs: 0 },
    })
    try {
      const statuses: number[] = []
      for (const [index, email] of ['a@example.com', 'b@example.com', 'c@example.com', 'jane@example.com'].entries()) {
        const response = await api.app.inject({
          method: 'POST',
          url: '/portal-registration/verify',
          remoteAddress: `10.0.0.${index + 1}`,
          payload: { order_name: '#1001', email, ...DEMO },
        })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([400, 400, 400, 429])
      // Another order is not held back by it.
      expect((await verify(api.app, { order_name: '#1005', email: 'solo@example.com', ...DEMO })).statusCode).toBe(200)
    } finally {
      await api.close()
    }
  })

  test('per client: a burst of 40 guesses from one address gets 429 after the limit', async () => {
    const api = await startApi('pglite', {
      limits: { verifyPerClient: 10, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    try {
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          verify(api.app, { order_name: `#${2000 + index}`, email: 'guess@example.com', ...DEMO }),
        ),
      )
      const statuses = responses.map((response) => response.statusCode)
      expect(statuses.filter((status) => status === 400)).toHaveLength(10)
      expect(statuses.filter((status) => status === 429)).toHaveLength(30)
      expect(responses.find((response) => response.statusCode === 429)!.json()).toEqual({
        error: 'too_many_attempts',
        message: expect.any(String),
      })
    } finally {
      await api.close()
    }
  })

  test('behind a trusted proxy the client is the address the proxy saw: a forged X-Forwarded-For does not step around the per-client limit', async () => {
    const api = await startApi('pglite', {
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
          payload: { order_name: `#${3000 + index}`, email: 'guess@example.com', ...DEMO },
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
        payload: { order_name: '#3100', email: 'guess@example.com', ...DEMO },
      })
      expect(direct.statusCode).toBe(429)
    } finally {
      await api.close()
    }
  })

  test('every failure takes at least the floor, so an unknown order and a wrong e-mail cannot be told apart by time', async () => {
    const api = await startApi('pglite', {
      limits: { verifyPerClient: 100, verifyPerOrder: 100, verifyFailureFloorMs: 120 },
    })
    try {
      for (const [order_name, email] of [
        ['#9999', 'nobody@example.com'],
        ['#1001', 'wrong@example.com'],
      ]) {
        const started = performance.now()
        const response = await verify(api.app, { order_name, email, ...DEMO })
        const took = performance.now() - started
        expect(response.json()).toEqual({ error: 'invalid_order' })
        expect(took).toBeGreaterThanOrEqual(115)
        expect(took).toBeLessThan(400)
      }
    } finally {
      await api.close()
    }
  })
})
