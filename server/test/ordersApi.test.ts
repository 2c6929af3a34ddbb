import { randomUUID } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { VerifiedOrder } from '../../contract/api'
import type { OrdersApiError } from '../../contract/ordersApi'
import { buildApp } from '../src/app'
import { validateShopFile } from '../src/import/validateShopFile'
import type { CatalogueProductFile, OrderFile, ShopFile } from '../src/import/shopFile'
import { createApiKey } from '../src/services/apiKeys'
import { CLI_AUTHOR } from '../src/services/audit'
import type { Database } from '../src/storage/database'
import { findOrderById } from '../src/storage/orders'
import { insertReturn } from '../src/storage/returns'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildShop,
  buildTrackedReturn,
  buildVariant,
  portalOf,
  returnedUnit,
} from './builders'
import { bearer, engines, loadShops, NOW, openTestDatabase, verify } from './harness'

/**
 * The Orders API's writes (docs/api.md: Orders API): orders, catalogue products and stock put by a
 * shop's platform with a key of the shop, checked as the shop file is, idempotent, and never
 * breaking what the shop's returns were priced from.
 */

const DAY = 86_400_000
const iso = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY).toISOString()

/**
 * North: a tee in S to XL (XL out of stock) and a mug; #1001 (tee M ×2, mug), #1004 (tee M ×2) with a return of one
 * imported with it, #1007 with a tracked return exchanging its tee S for L.
 */
const shopFile = (): ShopFile =>
  buildShop({
    shop: 'north',
    return_reasons: [buildReason('too_small'), buildReason('changed_mind')],
    catalogue: [
      buildProduct({ id: 'tee', sizes: ['S', 'M', 'L', 'XL'], outOfStock: ['XL'] }),
      buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00', exchangeable: false }),
    ],
    orders: [
      buildOrder({
        name: '#1001',
        email: 'jane@example.com',
        line_items: [
          buildLine({ id: 'li-1001-001', variant_id: 'tee-m', quantity: 2 }),
          buildLine({ id: 'li-1001-002', variant_id: 'mug-default', price: '14.00' }),
        ],
      }),
      buildOrder({
        name: '#1004',
        email: 'repeat@example.com',
        line_items: [buildLine({ id: 'li-1004-001', variant_id: 'tee-m', quantity: 2 })],
        returns: [[returnedUnit('li-1004-001')]],
      }),
      buildOrder({
        name: '#1007',
        email: 'swap@example.com',
        line_items: [buildLine({ id: 'li-1007-001', variant_id: 'tee-s' })],
        tracked_returns: [
          buildTrackedReturn([
            { ...returnedUnit('li-1007-001'), reason_id: 'too_small', exchange_variant_id: 'tee-l' },
          ]),
        ],
      }),
    ],
  })
const SHOP = shopFile()
const OTHER = buildShop({ shop: 'south', orders: [buildOrder({ name: '#1001' })] })

/** An order as the API takes it: ISO dates, fulfilled five days ago, one tee M. */
const apiOrder = (overrides: Partial<OrderFile> = {}): Record<string, unknown> => ({
  email: 'new@example.com',
  processed_at: iso(7),
  fulfilled_at: iso(5),
  line_items: [{ id: 'line-1', variant_id: 'tee-m', quantity: 1, price: '25.00', tax_rate: '0.19' }],
  ...overrides,
})

/** Every row the API could write, in a stable order: what "writes nothing" is checked against. */
async function contents(db: Database) {
  return {
    shops: await db.query('SELECT * FROM shops ORDER BY id'),
    orders: await db.query('SELECT * FROM orders ORDER BY id'),
    returns: await db.query('SELECT * FROM returns ORDER BY id'),
    returnItems: await db.query('SELECT * FROM return_items ORDER BY return_id, line_item_id'),
  }
}

const orderRow = async (db: Database, nameKey: string) =>
  (
    await db.query<{ id: string; name: string; email_key: string; line_items: { id: string; price: string }[] }>(
      "SELECT id, name, email_key, line_items FROM orders WHERE shop_id = 'north' AND name_key = $1",
      [nameKey],
    )
  )[0] ?? null

describe.each(engines())('the Orders API on %s', (engine) => {
  let db: Database
  let api: { app: FastifyInstance; db: Database }
  let token: string
  let otherToken: string
  beforeAll(async () => {
    db = await openTestDatabase(engine)
  }, 120_000)
  afterAll(() => db.close())
  // A new app per test: the shops are loaded afresh, and no shop cached by the last test stays.
  beforeEach(async () => {
    await loadShops(db, [SHOP, OTHER])
    await db.exec('DELETE FROM api_keys; DELETE FROM rate_limits')
    token = (await createApiKey(db, 'north', 'Sync', 'ops@north.example', NOW, CLI_AUTHOR)).token
    otherToken = (await createApiKey(db, 'south', 'Sync', 'ops@south.example', NOW, CLI_AUTHOR)).token
    const app = await buildApp({
      db,
      secret: Buffer.from('test-secret'),
      now: () => NOW,
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    api = { app, db }
  })
  afterEach(() => api.app.close())

  const call = (
    method: 'PUT' | 'DELETE',
    path: string,
    payload?: unknown,
    key: string = token,
  ): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method,
      url: `/api/v1/shops/north${path}`,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  const putOrder = (name: string, body: unknown, key?: string) =>
    call('PUT', `/orders/${encodeURIComponent(name)}`, body, key)
  const verifyAs = (orderName: string, email: string) =>
    verify(api.app, { order_name: orderName, email, ...portalOf(SHOP) })
  const refusal = (response: LightMyRequestResponse) => response.json<OrdersApiError>()

  test('a new order is a 201, found at once by verify under either spelling of its name', async () => {
    const created = await putOrder('#1050', apiOrder())
    expect(created.statusCode).toBe(201)
    expect(created.json()).toEqual({ name: '#1050', result: 'created' })
    expect(created.headers['cache-control']).toBe('no-store')
    for (const name of ['#1050', '1050']) expect((await verifyAs(name, 'new@example.com')).statusCode).toBe(200)
    // The path's name is matched as verify matches it: `1050` is the same order.
    const again = await putOrder('1050', apiOrder({ name: '#1050' }))
    expect(again.json()).toEqual({ name: '#1050', result: 'unchanged' })
    expect(
      await api.db.query("SELECT COUNT(*)::int AS n FROM orders WHERE shop_id = 'north' AND name_key = '1050'"),
    ).toEqual([{ n: 1 }])
  })

  test('an update keeps the order’s id; verify takes the new e-mail at once and not the old one', async () => {
    const before = await orderRow(api.db, '1001')
    const updated = await putOrder(
      '#1001',
      apiOrder({
        email: 'jane.doe@example.com',
        line_items: [
          { id: 'li-1001-001', variant_id: 'tee-m', quantity: 2, price: '25.00', tax_rate: '0.19' },
          { id: 'li-1001-002', variant_id: 'mug-default', quantity: 1, price: '14.00', tax_rate: '0.19' },
        ],
      }),
    )
    expect(updated.statusCode).toBe(200)
    expect(updated.json()).toEqual({ name: '#1001', result: 'updated' })
    const after = await orderRow(api.db, '1001')
    expect(after).toMatchObject({ id: before!.id, email_key: 'jane.doe@example.com' })
    expect((await verifyAs('#1001', 'jane.doe@example.com')).statusCode).toBe(200)
    expect((await verifyAs('#1001', 'jane@example.com')).statusCode).not.toBe(200)
  })

  test('the same body twice: the second is a 200 that changes nothing', async () => {
    const body = apiOrder({ discount: '2.50', shipping_address: SHOP.return_address })
    expect((await putOrder('#1060', body)).statusCode).toBe(201)
    const before = await contents(api.db)
    const second = await putOrder('#1060', body)
    expect(second.statusCode).toBe(200)
    expect(second.json()).toEqual({ name: '#1060', result: 'unchanged' })
    expect(await contents(api.db)).toEqual(before)
  })

  test('an order with a return keeps what it was priced from: a price change is a 422 naming the field, an e-mail change is taken', async () => {
    const original = { id: 'li-1004-001', variant_id: 'tee-m', quantity: 2, price: '25.00', tax_rate: '0.19' }
    const before = await contents(api.db)
    const repriced = await putOrder('#1004', apiOrder({ line_items: [{ ...original, price: '20.00' }] }))
    expect(repriced.statusCode).toBe(422)
    expect(refusal(repriced)).toEqual({
      error: 'invalid_order',
      message:
        "line_items[0].price: #1004 has a unit of this line returned, each paid 25.00; with this price and the order's discount it would be 20.00",
      errors: [
        "line_items[0].price: #1004 has a unit of this line returned, each paid 25.00; with this price and the order's discount it would be 20.00",
      ],
    })
    const dropped = await putOrder(
      '#1004',
      apiOrder({ line_items: [{ ...original, id: 'li-other', variant_id: 'tee-s' }] }),
    )
    expect(refusal(dropped).errors).toEqual([
      'line_items: #1004 has a unit of line li-1004-001 returned; the line must stay',
    ])
    expect(await contents(api.db)).toEqual(before)

    const reEmailed = await putOrder('#1004', apiOrder({ email: 'repeat.new@example.com', line_items: [original] }))
    expect(reEmailed.json()).toEqual({ name: '#1004', result: 'updated' })
    expect((await verifyAs('#1004', 'repeat.new@example.com')).statusCode).toBe(200)
    // Its return is still there, and still its; the console's search finds it by the new e-mail.
    const after = await api.db.query<Record<string, unknown>>('SELECT * FROM returns ORDER BY id')
    const withoutSearch = (rows: Record<string, unknown>[]) => rows.map(({ search_text: _, ...row }) => row)
    expect(withoutSearch(after)).toEqual(withoutSearch(before.returns))
    expect(after.map((row) => row.search_text)).toEqual(
      before.returns.map((row) => String(row.search_text).replace('repeat@example.com', 'repeat.new@example.com')),
    )
  })

  test('a submit that holds the order makes a PUT wait; the PUT then sees its return and keeps the line as priced', async () => {
    const order = await orderRow(api.db, '1001')
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let locked!: () => void
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    // What a submit does: the order's row locked, a return inserted, committed.
    const submit = api.db.transaction(async (tx) => {
      await findOrderById(tx, order!.id, true)
      locked()
      await released
      await insertReturn(
        tx,
        {
          id: randomUUID(),
          orderId: order!.id,
          orderName: '#1001',
          idempotencyKey: `key-${randomUUID()}`,
          requestHash: 'hash',
          answer: null,
          lines: [{ lineItemId: 'li-1001-002', quantity: 1, exchangeVariantId: null }],
        },
        NOW,
      )
    })
    await isLocked
    const put = putOrder(
      '#1001',
      apiOrder({
        email: 'jane@example.com',
        line_items: [
          { id: 'li-1001-001', variant_id: 'tee-m', quantity: 2, price: '25.00', tax_rate: '0.19' },
          { id: 'li-1001-002', variant_id: 'mug-default', quantity: 1, price: '9.00', tax_rate: '0.19' },
        ],
      }),
    )
    // On PostgreSQL, the PUT is seen waiting for the order's lock before the submit goes on (on
    // PGlite, transactions take turns: it waits for the submit's whole).
    if (engine === 'postgres') await waitForLockWait(api.db)
    release()
    await submit
    const answer = await put
    expect(answer.statusCode).toBe(422)
    expect(refusal(answer).errors).toEqual([
      "line_items[1].price: #1001 has a unit of this line returned, each paid 14.00; with this price and the order's discount it would be 9.00",
    ])
    expect((await orderRow(api.db, '1001'))!.line_items[1]!.price).toBe('14.00')
  })

  test('two PUTs of the same new order at once make one order: one is created, the other finds it', async () => {
    for (let round = 0; round < 10; round++) {
      const name = `#20${round}`
      const body = apiOrder({ email: `race${round}@example.com` })
      const answers = await Promise.all([putOrder(name, body), putOrder(name, body)])
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 201])
      expect(answers.map((answer) => answer.json<{ result: string }>().result).sort()).toEqual(['created', 'unchanged'])
      expect(await api.db.query("SELECT id FROM orders WHERE shop_id = 'north' AND name = $1", [name])).toHaveLength(1)
    }
    // Different bodies: the second written is an update of the first.
    const answers = await Promise.all([
      putOrder('#2100', apiOrder({ email: 'first@example.com' })),
      putOrder('#2100', apiOrder({ email: 'second@example.com' })),
    ])
    expect(answers.map((answer) => answer.json<{ result: string }>().result).sort()).toEqual(['created', 'updated'])
  })

  describe('a body refused names each field and writes nothing', () => {
    const cases: [string, unknown, number, string[]][] = [
      ['not an object', [apiOrder()], 400, ["body: must be a JSON object with the order's fields"]],
      [
        'a price with a comma, a quantity as text',
        apiOrder({
          line_items: [
            { id: 'line-1', variant_id: 'tee-m', quantity: '2' as unknown as number, price: '14,00', tax_rate: '0.19' },
          ],
        }),
        400,
        [
          'line_items[0].quantity: must be a whole number from 1 to 100000',
          'line_items[0].price: must be a decimal amount like "25.00"',
        ],
      ],
      [
        'a field the format does not have',
        { ...apiOrder(), colour: 'red' },
        400,
        ['colour: is not a field of an order of the Orders API (check the spelling)'],
      ],
      [
        'returns and tracked returns',
        { ...apiOrder(), returns: [[returnedUnit('line-1')]], tracked_returns: [] },
        400,
        [
          'returns: is not taken by the Orders API: an order’s returns are made in Rebound (the shop file’s are for orders imported with the returns they had before)',
          'tracked_returns: is not taken by the Orders API: an order’s returns are made in Rebound (the shop file’s are for orders imported with the returns they had before)',
        ],
      ],
      [
        'a relative date and a date that is none',
        apiOrder({ processed_at: 'now-5d', fulfilled_at: 'yesterday' }),
        400,
        [
          'processed_at: must be an ISO 8601 date like "2026-03-01T10:00:00Z": relative times like "now-5d" are for demo shop files only',
          'fulfilled_at: must be an ISO 8601 date like "2026-03-01T10:00:00Z"',
        ],
      ],
      [
        'a name of another order than the path’s',
        apiOrder({ name: '#2000' }),
        400,
        ['name: "#2000" is not the order of the path ("#1050")'],
      ],
      [
        'a variant the catalogue does not have',
        apiOrder({
          line_items: [
            { id: 'line-1', variant_id: 'tee-xxl', quantity: 1, price: '25.00', tax_rate: '0.19' },
            {
              id: 'line-2',
              variant_id: 'tee-m',
              exchange_variant_id: 'cap-m',
              quantity: 1,
              price: '25.00',
              tax_rate: '0.19',
            },
          ],
        }),
        422,
        [
          'line_items[0].variant_id: "tee-xxl" is not a variant id of the catalogue',
          'line_items[1].exchange_variant_id: "cap-m" is not a variant id of the catalogue',
        ],
      ],
      [
        'dates out of order, an amount finer than the currency, a discount above the lines',
        apiOrder({ processed_at: iso(5), fulfilled_at: iso(7), discount: '30.005' }),
        422,
        [
          'fulfilled_at: must not be before processed_at',
          'discount: must have at most 2 decimal places in EUR, like "25.00"',
          "discount: must not be more than the order's line items are worth",
        ],
      ],
      [
        'a line id twice, a date before 1970',
        apiOrder({
          processed_at: '1969-12-31T00:00:00Z',
          fulfilled_at: null,
          line_items: [
            { id: 'line-1', variant_id: 'tee-m', quantity: 1, price: '25.00', tax_rate: '0.19' },
            { id: 'line-1', variant_id: 'tee-s', quantity: 1, price: '25.00', tax_rate: '0.19' },
          ],
        }),
        422,
        [
          'processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
          'line_items[1].id: "line-1" is used by another line item of this order',
        ],
      ],
    ]
    test.each(cases)('%s', async (_name, body, status, errors) => {
      const before = await contents(api.db)
      const response = await putOrder('#1050', body)
      expect(response.statusCode).toBe(status)
      expect(refusal(response)).toEqual({
        error: status === 400 ? 'invalid_request' : 'invalid_order',
        message: errors.join('\n'),
        errors,
      })
      expect(await contents(api.db)).toEqual(before)
    })

    test('in the shop file’s words: the same order in a file is refused with the same lines', () => {
      const order = apiOrder({
        name: '#1050',
        processed_at: iso(5),
        fulfilled_at: iso(7),
        discount: '30.005',
        line_items: [{ id: 'line-1', variant_id: 'tee-xxl', quantity: 1, price: '25.00', tax_rate: '0.19' }],
      }) as unknown as OrderFile
      const file = shopFile()
      file.orders.push(order)
      const checked = validateShopFile(file, NOW)
      expect(checked.ok).toBe(false)
      const fileErrors = checked.ok ? [] : checked.errors.map((line) => line.replace(/^orders\[3\]\./, ''))
      expect(fileErrors).toEqual([
        'fulfilled_at: must not be before processed_at',
        'line_items[0].variant_id: "tee-xxl" is not a variant id of the catalogue',
        'discount: must have at most 2 decimal places in EUR, like "25.00"',
        "discount: must not be more than the order's line items are worth",
      ])
    })

    test('a body past the limit is a 413; a 150-line order is well within it', async () => {
      const lines = Array.from({ length: 150 }, (_, i) => ({
        id: `line-${i}`,
        variant_id: 'tee-m',
        title: 'Classic Tee in organic cotton, relaxed fit',
        variant_title: 'M',
        product_src: `https://cdn.example.com/images/products/classic-tee/${'m'.repeat(60)}-${i}.jpg`,
        quantity: 1,
        price: '25.00',
        tax_rate: '0.19',
      }))
      const big = apiOrder({ line_items: lines })
      expect(JSON.stringify(big).length).toBeLessThan(64 * 1024)
      expect((await putOrder('#1070', big)).statusCode).toBe(201)
      const before = await contents(api.db)
      const huge = { ...apiOrder(), email: 'x'.repeat(1024 * 1024) }
      expect((await putOrder('#1071', huge)).statusCode).toBe(413)
      expect(await contents(api.db)).toEqual(before)
    })
  })

  test('a key of another shop, or none, is refused and writes nothing', async () => {
    const before = await contents(api.db)
    expect((await putOrder('#1050', apiOrder(), otherToken)).statusCode).toBe(403)
    expect((await putOrder('#1050', apiOrder(), `rbk_${'A'.repeat(43)}`)).statusCode).toBe(401)
    const south = await api.app.inject({
      method: 'PUT',
      url: '/api/v1/shops/south/orders/%231001',
      headers: bearer(token),
      payload: apiOrder(),
    })
    expect(south.statusCode).toBe(403)
    expect(await contents(api.db)).toEqual(before)
  })

  test('DELETE removes an order without returns; one with returns is a 409; an unknown one a 404', async () => {
    expect((await call('DELETE', '/orders/%231001')).statusCode).toBe(204)
    expect(await orderRow(api.db, '1001')).toBeNull()
    expect((await verifyAs('#1001', 'jane@example.com')).statusCode).not.toBe(200)
    const gone = await call('DELETE', '/orders/1001')
    expect(gone.statusCode).toBe(404)
    expect(refusal(gone)).toEqual({ error: 'not_found', message: 'The shop has no order "1001".' })

    const before = await contents(api.db)
    const kept = await call('DELETE', '/orders/%231004')
    expect(kept.statusCode).toBe(409)
    expect(refusal(kept)).toEqual({
      error: 'order_has_returns',
      message:
        '#1004 has returns in Rebound: an order with returns is never removed, so that their status links, refunds and history stay.',
    })
    expect(await contents(api.db)).toEqual(before)
    // Another shop's order of the same name is not this key's to remove.
    expect((await call('DELETE', '/orders/%231001', undefined, otherToken)).statusCode).toBe(403)
  })

  describe('catalogue products', () => {
    const tee = (sizes: string[], overrides: Partial<CatalogueProductFile> = {}) =>
      buildProduct({ id: 'tee', sizes, outOfStock: ['XL'], ...overrides })
    const putProduct = (id: string, body: unknown) => call('PUT', `/catalogue/products/${id}`, body)
    const exchangeVariants = async () => {
      const verified = await verifyAs('#1001', 'jane@example.com')
      expect(verified.statusCode).toBe(200)
      return verified.json<VerifiedOrder>().exchange_data!.variants
    }

    test('a product is created, replaced, or unchanged; verify offers what it has at once', async () => {
      expect(Object.keys(await exchangeVariants())).toContain('tee-xl')
      const { id: _id, ...withoutId } = tee(['S', 'M', 'L'], { title: 'Classic Tee (organic)' })
      const replaced = await putProduct('tee', withoutId)
      expect(replaced.statusCode).toBe(200)
      expect(replaced.json()).toEqual({ id: 'tee', result: 'updated' })
      const offered = await exchangeVariants()
      expect(Object.keys(offered)).not.toContain('tee-xl')
      expect(offered['tee-m']!.product_title).toBe('Classic Tee (organic)')
      expect((await putProduct('tee', withoutId)).json()).toEqual({ id: 'tee', result: 'unchanged' })

      const cap = buildProduct({ id: 'cap', title: 'Cap', sizes: [] })
      const created = await putProduct('cap', cap)
      expect(created.statusCode).toBe(201)
      expect(created.json()).toEqual({ id: 'cap', result: 'created' })
      // An order may name its variant now.
      const capOrder = apiOrder({
        line_items: [{ id: 'line-1', variant_id: 'cap-default', quantity: 1, price: '25.00', tax_rate: '0.19' }],
      })
      expect((await putOrder('#1080', capOrder)).statusCode).toBe(201)
    })

    test('a variant an order or a return names stays: removing it is a 422 naming it, and nothing changes', async () => {
      const before = await contents(api.db)
      const withoutM = await putProduct('tee', tee(['S', 'L', 'XL']))
      expect(withoutM.statusCode).toBe(422)
      expect(refusal(withoutM).errors).toEqual([
        'variants: "tee-m" must stay in the catalogue: line li-1001-001 of order #1001 is of it; line li-1004-001 of order #1004 is of it',
      ])
      const withoutL = await putProduct('tee', tee(['S', 'M', 'XL']))
      expect(refusal(withoutL).errors).toEqual([
        'variants: "tee-l" must stay in the catalogue: return #1007-R1 takes it as the exchange of line li-1007-001',
      ])
      expect(await contents(api.db)).toEqual(before)
    })

    test('a product body is checked as the file’s catalogue is, naming each field', async () => {
      const before = await contents(api.db)
      const shape = await putProduct('tee', { ...tee(['S', 'M']), variants: [{ id: 'tee-s', price: 25 }] })
      expect(shape.statusCode).toBe(400)
      expect(refusal(shape).errors).toEqual([
        'variants[0].options: is required',
        'variants[0].price: must be a decimal amount like "25.00"',
      ])
      const otherId = await putProduct('tee', buildProduct({ id: 'shirt' }))
      expect(refusal(otherId).errors).toEqual(['id: "shirt" is not the product of the path ("tee")'])
      const clash = await putProduct('cap', {
        id: 'cap',
        title: 'Cap',
        variants: [
          buildVariant('cap', 'M', { id: 'mug-default', price: '9.999' }),
          buildVariant('cap', 'M', { id: 'cap-m2' }),
        ],
      })
      expect(clash.statusCode).toBe(422)
      expect(refusal(clash)).toMatchObject({
        error: 'invalid_product',
        errors: [
          'variants[0].id: "mug-default" is used by another variant of the catalogue',
          'variants[0].price: must have at most 2 decimal places in EUR, like "25.00"',
          'variants[1].options: has the same option values as another variant of this product; variants must differ by their options',
        ],
      })
      expect(await contents(api.db)).toEqual(before)
    })
  })

  describe('stock', () => {
    const putStock = (body: unknown) => call('PUT', '/stock', body)

    test('variants set on sale or not are offered so in the next verify', async () => {
      expect(
        (await verifyAs('#1001', 'jane@example.com')).json<VerifiedOrder>().exchange_data!.variants['tee-xl'],
      ).toMatchObject({ available: false })
      const set = await putStock({
        variants: [
          { id: 'tee-xl', available: true },
          { id: 'tee-s', available: false },
          { id: 'tee-l', available: true },
        ],
      })
      expect(set.statusCode).toBe(200)
      expect(set.json()).toEqual({ variants: 3, changed: 2 })
      const variants = (await verifyAs('#1001', 'jane@example.com')).json<VerifiedOrder>().exchange_data!.variants
      expect(variants['tee-xl']!.available).toBe(true)
      expect(variants['tee-s']!.available).toBe(false)
      expect(variants['tee-l']!.available).toBe(true)
      expect((await putStock({ variants: [{ id: 'tee-xl', available: true }] })).json()).toEqual({
        variants: 1,
        changed: 0,
      })
    })

    test('an unknown variant is a 422 naming it, a variant twice a 400, and neither writes anything', async () => {
      const before = await contents(api.db)
      const unknown = await putStock({
        variants: [
          { id: 'tee-s', available: false },
          { id: 'tee-xxl', available: true },
          { id: 'cap', available: true },
        ],
      })
      expect(unknown.statusCode).toBe(422)
      expect(refusal(unknown)).toEqual({
        error: 'unknown_variants',
        message:
          'variants[1].id: "tee-xxl" is not a variant id of the catalogue\nvariants[2].id: "cap" is not a variant id of the catalogue',
        errors: [
          'variants[1].id: "tee-xxl" is not a variant id of the catalogue',
          'variants[2].id: "cap" is not a variant id of the catalogue',
        ],
      })
      const twice = await putStock({
        variants: [
          { id: 'tee-s', available: false },
          { id: 'tee-s', available: true },
        ],
      })
      expect(twice.statusCode).toBe(400)
      expect(refusal(twice).errors).toEqual(['variants[1].id: "tee-s" is given twice; give each variant once'])
      expect((await putStock({ variants: [] })).statusCode).toBe(400)
      expect(await contents(api.db)).toEqual(before)
    })
  })
})

/** Waits until a statement of the Orders API is waiting for an order's row lock on the PostgreSQL server. */
async function waitForLockWait(db: Database): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const [row] = await db.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE '%name_key = $2 FOR UPDATE%'`,
    )
    if (Number(row?.n) > 0) return
    if (Date.now() > deadline) throw new Error('the PUT never waited for the order’s lock')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
