import { createHash } from 'node:crypto'
import type {
  Catalogue,
  RefundMethod,
  ReturnInstructions,
  ReturnOrder,
  ReturnRequest,
  VerifiedOrder,
} from '../../contract/api'
import { issueToken } from '../src/domain/token'
import { ACME, bearer, eachTestWithVerifiedOrder, engines, type TestApi, verified } from './harness'

describe.each(engines())('returns on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  // Each test starts from the demo data as loaded: no return made yet.
  eachTestWithVerifiedOrder(engine, ['#1001', 'jane@example.com'], (ready) => ({ api, order } = ready))

  const tee = () => order.line_items[0]!
  const mug = () => order.line_items[1]!
  const variantTitled = (title: string) =>
    order.exchange_data!.options[tee().variant_id!]!.find((id) => order.exchange_data!.variants[id]!.title === title)!

  const quote = (body: unknown, token = order.token) =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      headers: bearer(token),
      payload: body as object,
    })
  const submit = (body: unknown, key = 'key-0001-abcdef', token = order.token) =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': key },
      payload: body as object,
    })
  const countReturns = async () =>
    Number(
      (
        await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM returns WHERE order_id = $1', [
          order.order_id,
        ])
      )[0]!.n,
    )

  /** One tee exchanged for L, the mug refunded as store credit: the #1001 journey. */
  const journey = (): ReturnRequest => ({
    items: [
      { line_item_id: tee().id, quantity: 1, reason_id: 'too_small', exchange_variant_id: variantTitled('L') },
      { line_item_id: mug().id, quantity: 1, reason_id: 'changed_mind' },
    ],
    refund_method: 'store_credit',
  })

  test('a quote prices the mug (tax included, fee, 10% bonus) and not the exchanged tee', async () => {
    const response = await quote(journey())
    expect(response.statusCode).toBe(200)
    const quoted = response.json<ReturnOrder>()
    expect(quoted).toMatchObject({ id: null, status: 'quote', refund_method: 'store_credit' })
    const amount = (bag: { presentment_money: { amount: string } }) => bag.presentment_money.amount
    // 14.00 incl. 19% tax: 11.76 + 2.24; fee 3.95 → 10.05; store credit 10.05 × 1.1 = 11.06 (rounded up).
    expect(amount(quoted.breakdown.items_subtotal)).toBe('11.76')
    expect(amount(quoted.breakdown.tax)).toBe('2.24')
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
    expect(amount(quoted.refund_value)).toBe('10.05')
    expect(amount(quoted.store_credit_value!)).toBe('11.06')
    expect(amount(quoted.breakdown.bonus)).toBe('1.01')
    expect(amount(quoted.breakdown.total)).toBe('11.06')
    expect(quoted.items.map((item) => [item.title, item.exchange_variant_title])).toEqual([
      ['Classic Tee', 'L'],
      ['Ceramic Mug', null],
    ])
  })

  test('after a new item the refund value is what is left to refund, by either method', async () => {
    // The tee refunded: 25.00 − fee 3.95 = 21.05, as credit 21.05 × 1.1 = 23.16. The notebook
    // (12.00) is paid from the credit: 11.16 left as store credit, 21.05 − 12.00 / 1.1 = 10.15 to the card.
    const amount = (bag: { presentment_money: { amount: string } }) => bag.presentment_money.amount
    const body = (refund_method: RefundMethod | null): ReturnRequest => ({
      items: [{ line_item_id: tee().id, quantity: 1, reason_id: 'too_small' }],
      upsell_variant_id: 'notebook-default',
      refund_method,
    })
    for (const [method, total, bonus] of [
      [null, '10.15', '1.10'],
      ['original_payment', '10.15', '1.10'],
      ['store_credit', '11.16', '2.11'],
    ] as const) {
      const response = await quote(body(method))
      expect(response.statusCode).toBe(200)
      const quoted = response.json<ReturnOrder>()
      expect([method, amount(quoted.refund_value), amount(quoted.store_credit_value!)]).toEqual([
        method,
        '10.15',
        '11.16',
      ])
      expect([
        method,
        amount(quoted.breakdown.upsell),
        amount(quoted.breakdown.bonus),
        amount(quoted.breakdown.total),
      ]).toEqual([method, '12.00', bonus, total])
    }
    // The credit to spend in exploration is still the whole of it.
    const credit = (await quote({ ...body('store_credit'), upsell_variant_id: null })).json<ReturnOrder>()
    expect(amount(credit.store_credit_value!)).toBe('23.16')
  })

  test('an exchange alone pays no return fee and refunds nothing', async () => {
    const quoted = (await quote({ items: [journey().items[0]] })).json<ReturnOrder>()
    expect(quoted.breakdown.return_fee.presentment_money.amount).toBe('0.00')
    expect(quoted.breakdown.total.presentment_money.amount).toBe('0.00')
  })

  test.each([
    [{ items: [] }, 'items: must NOT have fewer than 1 items'],
    [{ items: [{ line_item_id: 'x', quantity: 0, reason_id: 'other' }] }, 'items[0].quantity: must be >= 1'],
    [{ items: [{ line_item_id: 'x', quantity: '1', reason_id: 'other' }] }, 'items[0].quantity: must be integer'],
    [{ items: [{ quantity: 1, reason_id: 'other' }] }, 'items[0].line_item_id: is required'],
    [
      { items: [{ line_item_id: 'x', quantity: 1, reason_id: 'other' }], refund_method: 'cash' },
      'refund_method: must be one of "original_payment", "store_credit" or null',
    ],
    [
      { items: [{ line_item_id: 'x', quantity: 1, reason_id: 'other' }], refund_method: 3 },
      'refund_method: must be one of "original_payment", "store_credit" or null',
    ],
    [
      { items: [{ line_item_id: 'x', quantity: 1, reason_id: 'other', exchange_variant_id: 5 }] },
      'items[0].exchange_variant_id: must be string or null',
    ],
    [
      { items: [{ line_item_id: 'x', quantity: 1, reason_id: 'other', exchange_variant_id: '' }] },
      'items[0].exchange_variant_id: must NOT have fewer than 1 characters or must be null',
    ],
    [{ items: [{ line_item_id: 'x', quantity: 1, reason_id: 'other' }], __proto__: { admin: true } }, 'items'],
  ])('a malformed body is a 400 naming the field: %j', async (body, message) => {
    const response = await quote(body)
    expect([400, 422]).toContain(response.statusCode)
    expect(response.json().message).toEqual(expect.stringContaining(message))
  })

  test.each([
    [
      'another order’s item',
      (): ReturnRequest => ({
        items: [{ line_item_id: 'li-ac1001-001', quantity: 1, reason_id: 'other', comment: 'x' }],
      }),
      'items[0].line_item_id: no such item in this order',
    ],
    [
      'more units than bought',
      (): ReturnRequest => ({ items: [{ line_item_id: tee().id, quantity: 3, reason_id: 'too_small' }] }),
      'items[0].quantity: at most 2',
    ],
    [
      'a final-sale item',
      (): ReturnRequest => ({
        items: [{ line_item_id: order.line_items[2]!.id, quantity: 1, reason_id: 'too_small' }],
      }),
      'can no longer be returned',
    ],
    [
      'an unknown reason',
      (): ReturnRequest => ({ items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'bored' }] }),
      'items[0].reason_id',
    ],
    [
      'a reason that needs a comment, without one',
      (): ReturnRequest => ({ items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'damaged', comment: '  ' }] }),
      'items[0].comment',
    ],
    [
      'an out-of-stock exchange',
      (): ReturnRequest => ({ items: [{ ...journey().items[0]!, exchange_variant_id: variantTitled('XL') }] }),
      'out of stock',
    ],
    [
      'an exchange for another product',
      (): ReturnRequest => ({ items: [{ ...journey().items[0]!, exchange_variant_id: 'ceramic-mug-default' }] }),
      'not an exchange option',
    ],
    [
      'an upsell dearer than the credit',
      (): ReturnRequest => ({ items: [journey().items[1]!], upsell_variant_id: 'rain-jacket-m' }),
      'upsell_variant_id',
    ],
  ])('%s is refused with 422 naming the field', async (_name, body, message) => {
    const response = await quote(body())
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'invalid_return', message: expect.stringContaining(message) })
  })

  test('without a token, with a tampered one or an expired one: 401 session_expired', async () => {
    const noToken = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      payload: journey(),
    })
    expect(noToken.statusCode).toBe(401)
    const [payload, signature] = order.token.split('.')
    const forged = `${Buffer.from(JSON.stringify({ o: 'someone-else', s: 'demo', e: 9_999_999_999 })).toString('base64url')}.${signature}`
    expect((await quote(journey(), forged)).statusCode).toBe(401)
    expect((await quote(journey(), `${payload}.${signature}x`)).statusCode).toBe(401)
    const expired = issueToken(Buffer.from('test-secret'), {
      orderId: order.order_id,
      shopId: 'demo',
      expires: Math.floor(Date.parse('2026-11-20T11:00:00Z') / 1000),
      readOnly: false,
    })
    expect((await quote(journey(), expired)).json()).toEqual({ error: 'session_expired', message: expect.any(String) })
  })

  test('a token reaches only its own order: AC1001’s token cannot quote #1001’s items', async () => {
    const acme = await verified(api.app, 'AC1001', 'ada@example.com', ACME)
    const response = await quote(journey(), acme.token)
    expect(response.statusCode).toBe(422)
    expect(response.json().message).toContain('no such item in this order')
  })

  test('submit makes one return, numbered per order, and the units are then returned', async () => {
    const response = await submit(journey())
    expect(response.statusCode).toBe(201)
    const created = response.json<ReturnOrder>()
    expect(created).toMatchObject({ status: 'requested', name: '#1001-R1', refund_method: 'store_credit' })
    expect(created.id).toEqual(expect.any(String))
    const again = await verified(api.app, '#1001', 'jane@example.com')
    expect(again.line_items[0]).toMatchObject({ returnable_quantity: 1 })
    expect(again.line_items[1]).toMatchObject({ returnable_quantity: 0, ineligible_reason: 'already_returned' })
    // The same units under a new key: they are gone.
    const second = await submit(journey(), 'another-key-0002')
    expect(second.statusCode).toBe(422)
  })

  test('doubled and concurrent submits with one key make exactly one return, each answered with it', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => submit(journey())))
    const ids = new Set(responses.map((response) => response.json<ReturnOrder>().id))
    expect(ids.size).toBe(1)
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201])
    expect(await countReturns()).toBe(1)
    // A retry after a lost answer: the same return again.
    const retry = await submit(journey())
    expect(retry.statusCode).toBe(200)
    expect(retry.json<ReturnOrder>().id).toBe([...ids][0])
  })

  test('a key reused for a different return is a 409', async () => {
    await submit(journey())
    const other = await submit({ items: [journey().items[0]] })
    expect(other.statusCode).toBe(409)
    expect(await countReturns()).toBe(1)
  })

  /** `value` with every object's keys in reverse order: the same request, written another way. */
  const reversedKeys = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reversedKeys)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, inner]) => [key, reversedKeys(inner)]),
    )
  }

  test('a retry whose JSON lists the keys in another order is the same request: answered with the first return, and a real change is still a 409', async () => {
    const body = { ...journey(), upsell_variant_id: null }
    const created = await submit(body)
    expect(created.statusCode).toBe(201)
    const reordered = reversedKeys(body)
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body))

    const retried = await submit(reordered)
    expect(retried.statusCode).toBe(200)
    expect(retried.json()).toEqual(created.json())
    // A body that differs (one unit of the mug less, or another refund method) under the key is not a retry.
    const fewer = reversedKeys({ ...body, items: [body.items[0]] })
    expect((await submit(fewer)).statusCode).toBe(409)
    expect((await submit(reversedKeys({ ...body, refund_method: 'original_payment' }))).statusCode).toBe(409)
    expect(await countReturns()).toBe(1)
  })

  test('a return stored with the hash of the body as sent, before keys were sorted, still answers its retry', async () => {
    const created = await submit(journey())
    expect(created.statusCode).toBe(201)
    // What the hash was before: of the body as parsed, keys in the order the portal sends them.
    const asSent = createHash('sha256').update(JSON.stringify(journey())).digest('base64url')
    await api.db.query('UPDATE returns SET request_hash = $1 WHERE order_id = $2', [asSent, order.order_id])

    const retried = await submit(journey())
    expect(retried.statusCode).toBe(200)
    expect(retried.json()).toEqual(created.json())
    expect((await submit({ items: [journey().items[0]] })).statusCode).toBe(409)
    expect(await countReturns()).toBe(1)
  })

  test('submit without an Idempotency-Key is a 400 naming it', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: bearer(order.token),
      payload: journey(),
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toContain('idempotency-key')
  })

  test('instructions give steps, the address, a QR code and a signed label link that opens the PDF', async () => {
    const created = (await submit(journey())).json<ReturnOrder>()
    const response = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/instructions`,
      headers: bearer(order.token),
    })
    expect(response.statusCode).toBe(200)
    const instructions = response.json<ReturnInstructions>()
    expect(instructions).toMatchObject({ return_id: created.id, return_name: '#1001-R1' })
    expect(instructions.steps.length).toBeGreaterThan(1)
    expect(instructions.address.city).toBe('Hamburg')
    expect(instructions.qr_svg).toMatch(/^<svg/)
    expect(instructions.qr_code_value).toMatch(/^RB-/)
    // The steps are the portal's words: in the shopper's language (Accept-Language), English otherwise.
    const inGerman = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/instructions`,
      headers: { ...bearer(order.token), 'accept-language': 'de-AT' },
    })
    expect(inGerman.json<ReturnInstructions>().steps[0]).toMatch(/^Verpacken Sie die Artikel/)
    expect(inGerman.headers.vary).toContain('accept-language')
    expect(instructions.steps[0]).toMatch(/^Pack the items/)
    const label = await api.app.inject({ method: 'GET', url: instructions.label_url })
    expect(label.statusCode).toBe(200)
    expect(label.headers['content-type']).toBe('application/pdf')
    expect(label.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    // Change the signature's first character to a different one (always different: 'A' or 'B').
    const tamperedUrl = instructions.label_url.replace(
      /signature=(.)/,
      (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`,
    )
    expect(tamperedUrl).not.toBe(instructions.label_url)
    const tampered = await api.app.inject({ method: 'GET', url: tamperedUrl })
    expect(tampered.statusCode).toBe(404)
  })

  test('another order’s token cannot read this return’s instructions', async () => {
    const created = (await submit(journey())).json<ReturnOrder>()
    const other = await verified(api.app, '#1005', 'solo@example.com')
    const response = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/instructions`,
      headers: bearer(other.token),
    })
    expect(response.statusCode).toBe(404)
  })

  test('the catalogue lists the shop’s upsell products with priced variants', async () => {
    const response = await api.app.inject({
      method: 'GET',
      url: '/portal-registration/catalogue',
      headers: bearer(order.token),
    })
    const catalogue = response.json<Catalogue>()
    expect(catalogue.products.length).toBeGreaterThanOrEqual(12)
    expect(catalogue.products[0]!.variants[0]!.price.presentment_money.currency_code).toBe('EUR')
  })
})
