import { createHash } from 'node:crypto'
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib'
import type {
  ApiError,
  Catalogue,
  InvalidReturn,
  NothingToSendInstructions,
  RefundMethod,
  ReturnInstructions,
  ReturnOrder,
  ReturnRequest,
  VerifiedOrder,
} from '../../contract/api'
import { issueToken, signLabel } from '../src/domain/token'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop } from './builders'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'
import { anyString, stringContaining } from './matchers'

/**
 * A shop that charges a 3.95 return fee, gives 10 % more as store credit and offers upsells: a
 * tee in four sizes (XL out of stock), a mug with no other variant, a final-sale shirt not
 * offered as an upsell, a 12.00 notebook and a 129.00 jacket. Prices include 19 % tax.
 */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  shipping_address: {
    name: 'Jane Doe',
    line1: 'Lindenstraße 5',
    city: 'Berlin',
    postal_code: '10969',
    country_code: 'DE',
  },
  line_items: [
    buildLine({ id: 'li-tee', variant_id: 'tee-m', quantity: 2 }),
    buildLine({ id: 'li-mug', variant_id: 'mug-default', price: '14.00' }),
    buildLine({ id: 'li-shirt', variant_id: 'shirt-m', price: '49.00', final_sale: true }),
  ],
})
const solo = buildOrder({ name: '#1005', email: 'solo@example.com' })
const SHOP = buildShop({
  shop: 'north',
  settings: { return_fee: '3.95', upsell_enabled: true },
  config: { gift_card_value_multiplier: 1.1 },
  return_reasons: [
    buildReason('too_small'),
    buildReason('changed_mind'),
    buildReason('damaged', { comment_required: true }),
  ],
  return_address: {
    name: 'North Returns',
    line1: 'Hafenstraße 12',
    city: 'Hamburg',
    postal_code: '20457',
    country_code: 'DE',
  },
  catalogue: [
    buildProduct({ id: 'tee', title: 'Classic Tee', sizes: ['S', 'M', 'L', 'XL'], outOfStock: ['XL'] }),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00', exchangeable: false }),
    buildProduct({ id: 'shirt', title: 'Linen Shirt', price: '49.00', upsell: false }),
    buildProduct({ id: 'notebook', title: 'Notebook', sizes: [], price: '12.00' }),
    buildProduct({ id: 'jacket', title: 'Rain Jacket', sizes: ['M'], price: '129.00' }),
  ],
  orders: [jane, solo],
})
/** Another shop, whose order and token are strangers to SHOP's. */
const ada = buildOrder({ name: 'AC1001', email: 'ada@example.com', line_items: [buildLine({ id: 'li-south-001' })] })
const OTHER = buildShop({ shop: 'south', orders: [ada] })

describe.each(engines())('returns on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  // Each test starts from the shops as loaded: no return made yet.
  eachTestWithVerifiedOrder(engine, [SHOP, OTHER], [SHOP, jane], (ready) => ({ api, order } = ready))

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

  /** One tee exchanged for L, the mug refunded as store credit. */
  const journey = (): ReturnRequest => ({
    items: [
      { line_item_id: tee().id, quantity: 1, reason_id: 'too_small', exchange_variant_id: variantTitled('L') },
      { line_item_id: mug().id, quantity: 1, reason_id: 'changed_mind' },
    ],
    refund_method: 'store_credit',
  })

  test('items another tab returned meanwhile: the 422 names the return that took them, and only it', async () => {
    const made = await submit(journey(), 'key-other-tab-0001')
    expect(made.statusCode).toBe(201)
    const earlier = made.json<ReturnOrder>()
    // The same choices again under another key: the mug is gone, the second tee unit is still there.
    for (const response of [await quote(journey()), await submit(journey(), 'key-stale-tab-0001')]) {
      expect(response.statusCode).toBe(422)
      const refused = response.json<InvalidReturn>()
      expect(refused.problems).toEqual([
        expect.objectContaining({ field: 'items[1].line_item_id', problem: 'not_returnable' }),
      ])
      expect(refused.returns).toEqual([
        { id: earlier.id, name: earlier.name, status_token: anyString(), line_item_ids: [mug().id] },
      ])
    }
    // A refusal that no return explains (a final-sale item) names none.
    const finalSale = await quote({
      items: [{ line_item_id: order.line_items[2]!.id, quantity: 1, reason_id: 'too_small' }],
    })
    expect(finalSale.json<InvalidReturn>().returns).toBeUndefined()
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

  test('a preview’s multiplier prices a quote (and says so); a submit never takes one', async () => {
    const amount = (bag: { presentment_money: { amount: string } }) => bag.presentment_money.amount
    // The mug's 10.05 as store credit at a previewed 25 %: 12.5625, rounded up as always: 12.57.
    const previewed = (await quote({ ...journey(), preview_multiplier: 1.25 })).json<ReturnOrder>()
    expect([amount(previewed.store_credit_value!), amount(previewed.breakdown.bonus)]).toEqual(['12.57', '2.52'])
    expect(previewed.preview_multiplier).toBe(1.25)
    // The shop's own multiplier, previewed, is no preview: the quote is the shop's and can be submitted.
    const same = (await quote({ ...journey(), preview_multiplier: 1.1 })).json<ReturnOrder>()
    expect([amount(same.store_credit_value!), same.preview_multiplier]).toEqual(['11.06', undefined])
    for (const bad of [0.5, 11, '1.25']) {
      const refused = await quote({ ...journey(), preview_multiplier: bad })
      expect(refused.statusCode).toBe(400)
    }
    const submitted = await submit({ ...journey(), preview_multiplier: 1.25 })
    expect(submitted.statusCode).toBe(400)
    expect(submitted.json<ApiError>()).toMatchObject({
      error: 'invalid_request',
      message: stringContaining('preview_multiplier'),
    })
    expect(await countReturns()).toBe(0)
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
    expect(response.json<ApiError>().message).toEqual(stringContaining(message))
  })

  test.each([
    [
      'another order’s item',
      (): ReturnRequest => ({
        items: [{ line_item_id: 'li-south-001', quantity: 1, reason_id: 'changed_mind' }],
      }),
      'items[0].line_item_id: no such item in this order',
      { field: 'items[0].line_item_id', problem: 'unknown_item' },
    ],
    [
      'more units than bought',
      (): ReturnRequest => ({ items: [{ line_item_id: tee().id, quantity: 3, reason_id: 'too_small' }] }),
      'items[0].quantity: at most 2',
      { field: 'items[0].quantity', problem: 'too_many' },
    ],
    [
      'a final-sale item',
      (): ReturnRequest => ({
        items: [{ line_item_id: order.line_items[2]!.id, quantity: 1, reason_id: 'too_small' }],
      }),
      'can no longer be returned',
      { field: 'items[0].line_item_id', problem: 'not_returnable' },
    ],
    [
      'an unknown reason',
      (): ReturnRequest => ({ items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'bored' }] }),
      'items[0].reason_id',
      { field: 'items[0].reason_id', problem: 'unknown_reason' },
    ],
    [
      'a reason that needs a comment, without one',
      (): ReturnRequest => ({ items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'damaged', comment: '  ' }] }),
      'items[0].comment',
      { field: 'items[0].comment', problem: 'comment_required' },
    ],
    [
      'an out-of-stock exchange',
      (): ReturnRequest => ({ items: [{ ...journey().items[0]!, exchange_variant_id: variantTitled('XL') }] }),
      'out of stock',
      { field: 'items[0].exchange_variant_id', problem: 'out_of_stock' },
    ],
    [
      'an exchange for another product',
      (): ReturnRequest => ({ items: [{ ...journey().items[0]!, exchange_variant_id: 'mug-default' }] }),
      'not an exchange option',
      { field: 'items[0].exchange_variant_id', problem: 'exchange_not_offered' },
    ],
    [
      'an upsell dearer than the credit',
      (): ReturnRequest => ({ items: [journey().items[1]!], upsell_variant_id: 'jacket-m' }),
      'upsell_variant_id',
      { field: 'upsell_variant_id', problem: 'costs_more_than_credit' },
    ],
  ])('%s is refused with 422 naming the field and the problem', async (_name, body, message, named) => {
    const response = await quote(body())
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({
      error: 'invalid_return',
      message: stringContaining(message),
      problems: [{ ...named, message: stringContaining('') }],
    })
  })

  test('GET /order reads the token’s order as it is now, so a refused return can be mended', async () => {
    const read = (token = order.token) =>
      api.app.inject({ method: 'GET', url: '/portal-registration/order', headers: bearer(token) })
    expect((await read()).json()).toEqual(order)
    expect(
      (await submit({ items: [{ line_item_id: tee().id, quantity: 2, reason_id: 'changed_mind' }] })).statusCode,
    ).toBe(201)
    const now = await read()
    expect(now.statusCode).toBe(200)
    expect(now.headers['cache-control']).toBe('no-store')
    expect(now.json<VerifiedOrder>().line_items[0]).toEqual({
      ...tee(),
      returnable_quantity: 0,
      ineligible_reason: 'already_returned',
    })
    expect(now.json<VerifiedOrder>().token).toBe(order.token)
    expect((await read('not-a-token')).statusCode).toBe(401)
  })

  test('without a token, with a tampered one or an expired one: 401 session_expired', async () => {
    const noToken = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      payload: journey(),
    })
    expect(noToken.statusCode).toBe(401)
    const [payload, signature] = order.token.split('.')
    const forged = `${Buffer.from(JSON.stringify({ o: 'someone-else', s: 'north', e: 9_999_999_999 })).toString('base64url')}.${signature}`
    expect((await quote(journey(), forged)).statusCode).toBe(401)
    expect((await quote(journey(), `${payload}.${signature}x`)).statusCode).toBe(401)
    const expired = issueToken(Buffer.from('test-secret'), {
      orderId: order.order_id,
      shopId: 'north',
      expires: Math.floor(Date.parse('2026-11-20T11:00:00Z') / 1000),
      readOnly: false,
    })
    expect((await quote(journey(), expired)).json()).toEqual({ error: 'session_expired', message: anyString() })
  })

  test('a token reaches only its own order: another shop’s token cannot quote this order’s items', async () => {
    const theirs = await verified(api.app, OTHER, ada)
    const response = await quote(journey(), theirs.token)
    expect(response.statusCode).toBe(422)
    expect(response.json<ApiError>().message).toContain('no such item in this order')
  })

  test('submit makes one return, numbered per order, and the units are then returned', async () => {
    const response = await submit(journey())
    expect(response.statusCode).toBe(201)
    const created = response.json<ReturnOrder>()
    expect(created).toMatchObject({ status: 'requested', name: '#1001-R1', refund_method: 'store_credit' })
    expect(created.id).toEqual(anyString())
    const again = await verified(api.app, SHOP, jane)
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
    expect(response.json<ApiError>().message).toContain('idempotency-key')
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
    // The lines as Germany writes them: the postcode before the town.
    expect(instructions.address.lines).toEqual(['Hafenstraße 12', '20457 Hamburg'])
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
    // The sender is the order's shipping address, not its name and e-mail alone.
    const drawn = await drawnText(label.rawPayload)
    for (const line of ['Jane Doe', 'Lindenstraße 5', '10969 Berlin, DE', '#1001 · jane@example.com'])
      expect(drawn).toContain(line)
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
    const other = await verified(api.app, SHOP, solo)
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
    expect(catalogue.products.map((product) => product.id)).toEqual(['tee', 'mug', 'notebook', 'jacket'])
    expect(catalogue.products[3]!.variants[0]!.price.presentment_money).toEqual({
      amount: '129.00',
      currency_code: 'EUR',
    })
  })
})

/** The strings drawn on a PDF's first page (the Tj operands), to see what a label lists. */
async function drawnText(bytes: Uint8Array): Promise<string> {
  const page = (await PDFDocument.load(bytes)).getPage(0)
  const contents = page.node.Contents()
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents]
  const source = streams
    .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
    .map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'))
    .join('\n')
  return [...source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)]
    .map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1'))
    .join('\n')
}

const amount = (bag: { presentment_money: { amount: string } } | undefined) => bag?.presentment_money.amount

/**
 * A keep-item shop: refunded items under `keep_item_below` (10.00 unless given) stay with the
 * shopper. #1010 has two socks at 9.90 and a beanie at 17.00, #1001 a tee at 25.00 and a mug at
 * 14.00; 19 % tax included, a 3.95 return fee.
 */
const SOCKS = 'li-socks'
const BEANIE = 'li-beanie'
const keeper = buildOrder({
  name: '#1010',
  email: 'keep@example.com',
  line_items: [
    buildLine({ id: SOCKS, variant_id: 'socks-default', quantity: 2, price: '9.90' }),
    buildLine({ id: BEANIE, variant_id: 'beanie-default', price: '17.00' }),
  ],
})
const teeAndMug = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'li-tee', variant_id: 'tee-m' }),
    buildLine({ id: 'li-mug', variant_id: 'mug-default', price: '14.00' }),
  ],
})
const keepShop = (shop: string, keep_item_below: string | null = '10.00') =>
  buildShop({
    shop,
    settings: { return_fee: '3.95', ...(keep_item_below === null ? {} : { keep_item_below }) },
    return_reasons: [buildReason('too_small'), buildReason('changed_mind')],
    return_address: {
      name: 'Keep Returns',
      line1: 'Hafenstraße 12',
      city: 'Hamburg',
      postal_code: '20457',
      country_code: 'DE',
    },
    catalogue: [
      buildProduct({ id: 'socks', title: 'Cotton Socks', sizes: [], price: '9.90' }),
      buildProduct({ id: 'beanie', title: 'Wool Beanie', sizes: [], price: '17.00' }),
      buildProduct({ id: 'tee', title: 'Classic Tee' }),
      buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00', exchangeable: false }),
    ],
    orders: [keeper, teeAndMug],
  })
const KEEP = keepShop('keep')

describe.each(engines())('keep-item returns on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  // Beside KEEP: the same shop with the threshold above the tee's price, at the socks' price, a cent above it, and none.
  const CHEAP = keepShop('cheapkeep', '100.00')
  const AT_PRICE = keepShop('edge990', '9.90')
  const ABOVE_PRICE = keepShop('edge991', '9.91')
  const NO_KEEP = keepShop('nokeep', null)
  eachTestWithVerifiedOrder(
    engine,
    [KEEP, CHEAP, AT_PRICE, ABOVE_PRICE, NO_KEEP],
    [KEEP, keeper],
    (ready) => ({ api, order } = ready),
  )

  const quote = (body: ReturnRequest, token = order.token) =>
    api.app.inject({ method: 'POST', url: '/portal-registration/returns/quote', headers: bearer(token), payload: body })
  const submit = async (body: ReturnRequest, key = 'keep-key-0001') => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(order.token), 'idempotency-key': key },
      payload: body,
    })
    expect(response.statusCode).toBe(201)
    return response.json<ReturnOrder>()
  }
  const instructionsOf = (returnId: string, lang = 'en') =>
    api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${returnId}/instructions`,
      headers: { ...bearer(order.token), 'accept-language': lang },
    })

  const socksOnly: ReturnRequest = {
    items: [{ line_item_id: SOCKS, quantity: 2, reason_id: 'changed_mind' }],
    refund_method: 'original_payment',
  }
  const mixed: ReturnRequest = {
    items: [
      { line_item_id: SOCKS, quantity: 1, reason_id: 'changed_mind' },
      { line_item_id: BEANIE, quantity: 1, reason_id: 'changed_mind' },
    ],
    refund_method: 'original_payment',
  }

  test('every item kept: each is flagged, the whole refund is kept value, and no return fee is charged', async () => {
    const response = await quote(socksOnly)
    expect(response.statusCode).toBe(200)
    const quoted = response.json<ReturnOrder>()
    expect(quoted.items.map((item) => [item.line_item_id, item.keep])).toEqual([[SOCKS, true]])
    // 2 × 9.90 = 19.80, tax included; nothing is shipped, so the 3.95 fee is not charged.
    expect(amount(quoted.breakdown.return_fee)).toBe('0.00')
    expect(amount(quoted.breakdown.kept_items)).toBe('19.80')
    expect(amount(quoted.breakdown.total)).toBe('19.80')
  })

  test('mixed: only the cheap item is kept, the fee is charged for the parcel, kept value is its part', async () => {
    const quoted = (await quote(mixed)).json<ReturnOrder>()
    expect(quoted.items.map((item) => [item.line_item_id, item.keep])).toEqual([
      [SOCKS, true],
      [BEANIE, false],
    ])
    expect(amount(quoted.breakdown.kept_items)).toBe('9.90')
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
    // 9.90 + 17.00 - 3.95
    expect(amount(quoted.breakdown.total)).toBe('22.95')
  })

  test('none kept on #1001 (tee 25.00, mug 14.00): flags false, kept value zero, the fee as before', async () => {
    const jane = await verified(api.app, KEEP, teeAndMug)
    const response = await quote(
      { items: [{ line_item_id: 'li-mug', quantity: 1, reason_id: 'changed_mind' }] },
      jane.token,
    )
    const quoted = response.json<ReturnOrder>()
    expect(quoted.items.map((item) => item.keep)).toEqual([false])
    expect(amount(quoted.breakdown.kept_items)).toBe('0.00')
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
  })

  test('verify says which items would be kept if refunded: the 9.90 socks, not the beanie', () => {
    expect(order.line_items.map((line) => [line.id, line.keep_if_refunded])).toEqual([
      [SOCKS, true],
      [BEANIE, undefined],
    ])
  })

  test('an exchanged item is never kept, however cheap', async () => {
    // The 9.90 socks have no other variant, so use a shop whose threshold is above the tee's price.
    const jane = await verified(api.app, CHEAP, teeAndMug)
    const tee = jane.line_items[0]!
    // Verify says before any choice that the tee would be kept if refunded: the exchange step tells the shopper.
    expect(tee.keep_if_refunded).toBe(true)
    const quoted = (
      await quote(
        {
          items: [
            { line_item_id: tee.id, quantity: 1, reason_id: 'too_small', exchange_variant_id: 'tee-l' },
            { line_item_id: 'li-mug', quantity: 1, reason_id: 'changed_mind' },
          ],
        },
        jane.token,
      )
    ).json<ReturnOrder>()
    expect(quoted.items.map((item) => [item.line_item_id, item.keep])).toEqual([
      [tee.id, false],
      ['li-mug', true],
    ])
    // The tee's parcel goes back, but the fee is for refunded items sent back: the mug is kept.
    expect(amount(quoted.breakdown.return_fee)).toBe('0.00')
  })

  test.each([
    ['equal to the price paid (9.90) sends the socks back', AT_PRICE, false],
    ['one cent above the price paid keeps them', ABOVE_PRICE, true],
  ])('boundary: a threshold %s', async (_name, shop, kept) => {
    const shopper = await verified(api.app, shop, keeper)
    const quoted = (await quote(socksOnly, shopper.token)).json<ReturnOrder>()
    expect(quoted.items[0]!.keep).toBe(kept)
    // What verify promised before the choice is what the quote does.
    expect(shopper.line_items.find((line) => line.id === SOCKS)!.keep_if_refunded ?? false).toBe(kept)
    expect(amount(quoted.breakdown.return_fee)).toBe(kept ? '0.00' : '3.95')
  })

  test('a shop without the setting keeps nothing', async () => {
    const shopper = await verified(api.app, NO_KEEP, keeper)
    expect(shopper.line_items.map((line) => line.keep_if_refunded)).toEqual(shopper.line_items.map(() => undefined))
    const quoted = (await quote(socksOnly, shopper.token)).json<ReturnOrder>()
    expect(quoted.items[0]!.keep).toBe(false)
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
  })

  test('every item kept: the submitted return says so; its instructions have no address, label or QR code', async () => {
    const created = await submit(socksOnly)
    expect(created.items[0]!.keep).toBe(true)
    const response = await instructionsOf(created.id!)
    expect(response.statusCode).toBe(200)
    const instructions = response.json<NothingToSendInstructions & Partial<ReturnInstructions>>()
    expect(instructions).toMatchObject({ return_id: created.id, return_name: '#1010-R1', nothing_to_send: true })
    expect(instructions.items).toEqual([
      { line_item_id: SOCKS, title: 'Cotton Socks', variant_title: '', quantity: 2, keep: true },
    ])
    expect(instructions.steps).toEqual([
      'Keep the items: there is nothing to pack, print or drop off. Your refund is on its way.',
    ])
    expect(instructions.label_url).toBeUndefined()
    expect(instructions.qr_svg).toBeUndefined()
    expect(instructions.address).toBeUndefined()
    const inSpanish = (await instructionsOf(created.id!, 'es')).json<NothingToSendInstructions>()
    expect(inSpanish.steps[0]).toMatch(/^Quédese con los artículos/)
    // Even a correctly signed label link finds no label: nothing goes in a parcel.
    const expires = Math.floor(NOW.getTime() / 1000) + 3600
    const label = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/label.pdf?expires=${expires}&signature=${signLabel(Buffer.from('test-secret'), created.id!, expires)}`,
    })
    expect(label.statusCode).toBe(404)
  })

  test('mixed: the instructions list both, say to pack only what goes back, and the label lists only it', async () => {
    const created = await submit(mixed)
    const instructions = (await instructionsOf(created.id!)).json<ReturnInstructions>()
    expect('nothing_to_send' in instructions).toBe(false)
    expect(instructions.items?.map((item) => [item.title, item.keep])).toEqual([
      ['Cotton Socks', true],
      ['Wool Beanie', false],
    ])
    expect(instructions.steps[0]).toMatch(/^Pack only the items to send back/)
    expect((await instructionsOf(created.id!, 'de')).json<ReturnInstructions>().steps[0]).toMatch(
      /^Verpacken Sie nur die Artikel/,
    )
    expect(instructions.address.city).toBe('Hamburg')
    const label = await api.app.inject({ method: 'GET', url: instructions.label_url })
    expect(label.statusCode).toBe(200)
    const text = await drawnText(label.rawPayload)
    expect(text).toContain('Wool Beanie')
    expect(text).not.toContain('Cotton Socks')
  })

  test('none kept: the instructions are as before, with every item in the parcel', async () => {
    const created = await submit({ items: [{ line_item_id: BEANIE, quantity: 1, reason_id: 'changed_mind' }] })
    const instructions = (await instructionsOf(created.id!)).json<ReturnInstructions>()
    expect(instructions.steps[0]).toMatch(/^Pack the items in a parcel/)
    expect(instructions.items?.map((item) => item.keep)).toEqual([false])
    expect(instructions.label_url).toContain('/label.pdf?expires=')
  })
})
