import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { ApiError, PortalConfig } from '../../contract/api'
import { buildApp } from '../src/app'
import { importShop } from '../src/import/importShop'
import type { ShopFile } from '../src/import/shopFile'
import type { Database } from '../src/storage/database'
import { insertReturn } from '../src/storage/returns'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildShop,
  buildTrackedReturn,
  returnedUnit,
} from './builders'
import { NOW, bearer, engines, loadShops, openTestDatabase } from './harness'
import { anyString, stringContaining } from './matchers'

const DATE_RANGE_MESSAGE = 'must be a date from 1970-01-01 to 9999-12-31 (UTC)'

/**
 * The shop these tests import, fresh each call and safe to change (also into something invalid):
 * a tee (XL out of stock) and a mug; #1001 with both, #1002, #1004 with a return imported with it,
 * and #1007 with a tracked return in transit (the tee exchanged for L, the mug refunded).
 */
const shopFile = (): ShopFile =>
  buildShop({
    shop: 'north',
    config: { button_color: '#1f5fbf' },
    settings: { return_fee: '3.95' },
    return_reasons: [buildReason('too_small'), buildReason('changed_mind')],
    catalogue: [
      buildProduct({ id: 'tee', sizes: ['S', 'M', 'L', 'XL'], outOfStock: ['XL'] }),
      buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00', exchangeable: false }),
    ],
    orders: [
      buildOrder({
        name: '#1001',
        email: 'jane@example.com',
        processed_at: 'now-7d',
        fulfilled_at: 'now-5d',
        line_items: [
          buildLine({ id: 'li-1001-001', variant_id: 'tee-m', quantity: 2 }),
          buildLine({ id: 'li-1001-002', variant_id: 'mug-default', price: '14.00' }),
        ],
      }),
      buildOrder({ name: '#1002', line_items: [buildLine({ id: 'li-1002-001', variant_id: 'tee-l' })] }),
      buildOrder({
        name: '#1004',
        line_items: [buildLine({ id: 'li-1004-001' })],
        returns: [[returnedUnit('li-1004-001')]],
      }),
      buildOrder({
        name: '#1007',
        processed_at: 'now-9d',
        fulfilled_at: 'now-7d',
        line_items: [
          buildLine({ id: 'li-1007-001', variant_id: 'tee-m' }),
          buildLine({ id: 'li-1007-002', variant_id: 'mug-default', price: '14.00' }),
        ],
        tracked_returns: [
          buildTrackedReturn(
            [
              { ...returnedUnit('li-1007-001'), reason_id: 'too_small', exchange_variant_id: 'tee-l' },
              { ...returnedUnit('li-1007-002'), reason_id: 'changed_mind' },
            ],
            { created_at: 'now-3d', progress: { in_transit: 'now-2d' } },
          ),
        ],
      }),
    ],
  })
const SHOP = shopFile().shop
/** Another shop, which an import of the first leaves alone. */
const otherShop = () => buildShop({ shop: 'south', orders: [buildOrder({ name: '#1001' })] })

/** Every row of every table, in a stable order: what "changes nothing" is checked against. */
async function contents(db: Database) {
  return {
    shops: await db.query('SELECT * FROM shops ORDER BY id'),
    orders: await db.query('SELECT * FROM orders ORDER BY id'),
    returns: await db.query('SELECT * FROM returns ORDER BY id'),
    returnItems: await db.query('SELECT * FROM return_items ORDER BY return_id, line_item_id'),
  }
}

async function counts(db: Database) {
  const [row] = await db.query<Record<string, number>>(
    `SELECT (SELECT COUNT(*)::int FROM shops) AS shops, (SELECT COUNT(*)::int FROM orders) AS orders,
            (SELECT COUNT(*)::int FROM returns) AS returns, (SELECT COUNT(*)::int FROM return_items) AS return_items`,
  )
  return row!
}

const configOf = async (db: Database, shop: string) =>
  (await db.query<{ config: unknown }>('SELECT config FROM shops WHERE id = $1', [shop]))[0]?.config ?? null

/** A return made through the portal (with an idempotency key) on an order of the shop. */
async function portalReturn(db: Database, shop: string, orderName: string, lineItemId: string): Promise<string> {
  const [order] = await db.query<{ id: string }>('SELECT id FROM orders WHERE shop_id = $1 AND name = $2', [
    shop,
    orderName,
  ])
  const id = randomUUID()
  await db.transaction((tx) =>
    insertReturn(
      tx,
      {
        id,
        orderId: order!.id,
        orderName,
        idempotencyKey: `key-${id}`,
        requestHash: 'hash',
        answer: null,
        lines: [{ lineItemId, quantity: 1, exchangeVariantId: null }],
      },
      NOW,
    ),
  )
  return id
}

async function imported(db: Database, file: unknown): Promise<void> {
  const result = await importShop(db, file, NOW)
  if (!result.ok) throw new Error(result.errors.join('\n'))
}

/** The shop states an import may meet: nothing yet, or both shops loaded with a portal return on #1001. */
const STATES: [string, (db: Database) => Promise<void>][] = [
  ['an empty database', async () => {}],
  [
    'a database where the shop exists',
    async (db) => {
      await loadShops(db, [shopFile(), otherShop()])
      await portalReturn(db, SHOP, '#1001', 'li-1001-002')
    },
  ],
]

const tracked = (f: ShopFile) => f.orders[3]!.tracked_returns![0]!

const INVALID: [string, (file: ShopFile) => void, string[]][] = [
  [
    'wrong types',
    (f) => {
      Object.assign(f.settings, { return_window_days: '30' })
      Object.assign(f.orders[0]!.line_items[0]!, { quantity: '2' })
      Object.assign(f.config, { gift_card_value_multiplier: 'lots' })
    },
    [
      'settings.return_window_days: must be a whole number of days',
      'orders[0].line_items[0].quantity: must be a whole number',
      'config.gift_card_value_multiplier: must be null or a number',
    ],
  ],
  [
    'an unknown variant',
    (f) => (f.orders[1]!.line_items[0]!.variant_id = 'tee-xxxl'),
    ['orders[1].line_items[0].variant_id: "tee-xxxl" is not a variant id of the catalogue'],
  ],
  [
    'an order name equal to another after normalisation',
    (f) => (f.orders[2]!.name = ' 1001 '),
    ['orders[2].name: " 1001 " is the same order name as another order'],
  ],
  [
    'an order name equal to another once every leading "#" is dropped',
    (f) => (f.orders[2]!.name = '##1001'),
    ['orders[2].name: "##1001" is the same order name as another order'],
  ],
  [
    'an amount with a comma',
    (f) => (f.orders[0]!.line_items[1]!.price = '14,00'),
    ['orders[0].line_items[1].price: must be a decimal amount like "25.00"'],
  ],
  [
    'an amount with too many decimals',
    (f) => (f.settings.return_fee = '3.955'),
    ['settings.return_fee: must have at most 2 decimal places in EUR'],
  ],
  [
    'a return listing one line twice',
    (f) => (f.orders[0]!.returns = [[returnedUnit('li-1001-001'), returnedUnit('li-1001-001')]]),
    ['orders[0].returns[0][1].line_item_id: "li-1001-001" is listed twice in this return'],
  ],
  // JavaScript reads these dates; PGlite refuses the year 0000 midway and PostgreSQL stores it as 1 BC.
  [
    'a date in the year 0000',
    (f) => (f.orders[0]!.processed_at = '0000-06-01T00:00:00Z'),
    [`orders[0].processed_at: ${DATE_RANGE_MESSAGE}`],
  ],
  [
    'tracked return dates outside the years 1970 to 9999',
    (f) => {
      tracked(f).created_at = 'now-999999d'
      tracked(f).progress = { in_transit: '9999-12-31T23:00:00-05:00' }
      f.orders[3]!.fulfilled_at = '1969-12-31T23:59:59Z'
    },
    [
      `orders[3].fulfilled_at: ${DATE_RANGE_MESSAGE}`,
      `orders[3].tracked_returns[0].created_at: ${DATE_RANGE_MESSAGE}`,
      `orders[3].tracked_returns[0].progress.in_transit: ${DATE_RANGE_MESSAGE}`,
    ],
  ],
  // Valid as a file, refused when the return is priced as a shopper's submit would be.
  [
    'a tracked return that cannot be priced (an exchange for a size out of stock)',
    (f) => (tracked(f).items[0]!.exchange_variant_id = 'tee-xl'),
    ['orders[3].tracked_returns[0].items[0].exchange_variant_id: out of stock'],
  ],
]

describe.each(engines())('importShop on %s', (engine) => {
  let db: Database
  beforeAll(async () => {
    db = await openTestDatabase(engine)
  })
  afterAll(() => db.close())
  // Each test starts from an empty database; deleting the shops cascades to everything else.
  beforeEach(() => db.query('DELETE FROM shops'))

  test('a shop file into an empty database stores the shop, its 4 orders and the returns imported with #1004 and #1007', async () => {
    const file = shopFile()
    expect(await importShop(db, file, NOW)).toEqual({
      ok: true,
      shop: SHOP,
      orders: 4,
      added: 4,
      updated: 0,
      removed: 0,
      kept: [],
    })
    expect(await counts(db)).toEqual({ shops: 1, orders: 4, returns: 2, return_items: 3 })
    expect(await configOf(db, SHOP)).toEqual(file.config)
    const [order] = await db.query<{ name_key: string; email_key: string; processed_at: Date; fulfilled_at: Date }>(
      "SELECT name_key, email_key, processed_at, fulfilled_at FROM orders WHERE shop_id = 'north' AND name = '#1001'",
    )
    expect(order).toEqual({
      name_key: '1001',
      email_key: 'jane@example.com',
      processed_at: new Date(NOW.getTime() - 7 * 86_400_000),
      fulfilled_at: new Date(NOW.getTime() - 5 * 86_400_000),
    })
    const [imported1004] = await db.query(
      "SELECT r.name, r.idempotency_key, r.return_order FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.name = '#1004'",
    )
    expect(imported1004).toEqual({ name: '#1004-R1', idempotency_key: null, return_order: null })
  })

  test('importing a shop again updates it and its orders by name, keeps every return, and leaves other shops alone', async () => {
    const first = shopFile()
    first.config.button_color = '#aa0000'
    first.orders.push(buildOrder({ name: '#1099', line_items: [buildLine({ id: 'li-1099-001' })] }))
    first.orders.push(buildOrder({ name: '#1098', line_items: [buildLine({ id: 'li-1098-001' })] }))
    await imported(db, first)
    await imported(db, otherShop())
    const portalMade = await portalReturn(db, SHOP, '#1001', 'li-1001-002')
    await portalReturn(db, SHOP, '#1099', 'li-1099-001')
    const otherBefore = await db.query("SELECT * FROM orders WHERE shop_id = 'south' ORDER BY id")
    const idsBefore = new Map(
      (await db.query<{ id: string; name: string }>('SELECT id, name FROM orders WHERE shop_id = $1', [SHOP])).map(
        (row) => [row.name, row.id],
      ),
    )
    // A return's search text follows its order's e-mail (migration 19): compared apart, below.
    const returnRows = async () =>
      (await db.query<Record<string, unknown>>('SELECT * FROM returns ORDER BY id')).map(
        ({ search_text: _, ...row }) => row,
      )
    const returnsBefore = await returnRows()
    const itemsBefore = await db.query('SELECT * FROM return_items ORDER BY return_id, line_item_id')

    // #1001 has a new e-mail and a new line; #1099 (with a return) and #1098 (without) are no longer listed.
    const second = shopFile()
    second.orders[0]!.email = 'jane.doe@example.com'
    second.orders[0]!.line_items.push(buildLine({ id: 'li-1001-003', variant_id: 'tee-s' }))
    second.orders.push(buildOrder({ name: '#1100', line_items: [buildLine({ id: 'li-1100-001' })] }))
    expect(await importShop(db, second, NOW)).toEqual({
      ok: true,
      shop: SHOP,
      orders: 5,
      added: 1,
      updated: 4,
      removed: 1,
      kept: ['#1099'],
    })

    expect(await configOf(db, SHOP)).toEqual(second.config)
    const orders = await db.query<{ id: string; name: string; email_key: string; line_items: { id: string }[] }>(
      'SELECT id, name, email_key, line_items FROM orders WHERE shop_id = $1 ORDER BY name',
      [SHOP],
    )
    expect(orders.map((order) => order.name)).toEqual(['#1001', '#1002', '#1004', '#1007', '#1099', '#1100'])
    // Updated in place: the same ids, so status links, photos and returns still point at them.
    for (const order of orders.filter((order) => order.name !== '#1100'))
      expect(order.id).toBe(idsBefore.get(order.name))
    expect(orders[0]!.email_key).toBe('jane.doe@example.com')
    expect(orders[0]!.line_items.map((line) => line.id)).toEqual(['li-1001-001', 'li-1001-002', 'li-1001-003'])
    // Every return stays as it was, the portal's and the file's, none written twice.
    expect(await returnRows()).toEqual(returnsBefore)
    // The console's search finds each return by its order's e-mail as it is now.
    const searched = await db.query<{ search_text: string; email_key: string }>(
      'SELECT r.search_text, o.email_key FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = $1',
      [SHOP],
    )
    expect(searched.map((row) => row.email_key)).toContain('jane.doe@example.com')
    for (const row of searched) expect(row.search_text).toContain(row.email_key)
    expect(await db.query('SELECT * FROM return_items ORDER BY return_id, line_item_id')).toEqual(itemsBefore)
    expect(returnsBefore.map((row) => (row as { id: string }).id)).toContain(portalMade)
    expect(await db.query("SELECT * FROM orders WHERE shop_id = 'south' ORDER BY id")).toEqual(otherBefore)

    // The same file again changes no return and adds nothing.
    expect(await importShop(db, second, NOW)).toMatchObject({ ok: true, added: 0, updated: 5, removed: 0 })
    expect(await returnRows()).toEqual(returnsBefore)
  })

  test('an order with a return keeps what it was priced from: a file changing it is refused naming each field, and nothing changes', async () => {
    const first = shopFile()
    first.orders[0]!.discount = '5.00'
    await imported(db, first)
    await portalReturn(db, SHOP, '#1001', 'li-1001-002')
    const before = await contents(db)

    const second = shopFile()
    second.orders[0]!.discount = '6.00'
    second.orders[0]!.line_items[1]!.tax_rate = '0.07'
    second.orders[0]!.line_items[1]!.variant_id = 'tee-s'
    const changed = await importShop(db, second, NOW)
    expect(changed).toEqual({
      ok: false,
      errors: [
        'orders[0].line_items[1].variant_id: #1001 has a unit of this line returned; it stays "mug-default"',
        'orders[0].line_items[1].tax_rate: #1001 has a unit of this line returned; it stays "0.19"',
        "orders[0].line_items[1].price: #1001 has a unit of this line returned, each paid 12.91; with this price and the order's discount it would be 12.69",
      ],
    })
    const dropped = shopFile()
    dropped.orders[0]!.discount = '5.00'
    dropped.orders[0]!.line_items.pop()
    expect(await importShop(db, dropped, NOW)).toEqual({
      ok: false,
      errors: ['orders[0].line_items: #1001 has a unit of line li-1001-002 returned; the line must stay'],
    })
    const otherCurrency = shopFile()
    otherCurrency.orders[0]!.discount = '5.00'
    otherCurrency.currency_code = 'USD'
    otherCurrency.settings.prices_include_tax = false
    expect(await importShop(db, otherCurrency, NOW)).toEqual({
      ok: false,
      errors: [
        'currency_code: the shop has returns priced in EUR; it stays "EUR"',
        'settings.prices_include_tax: the shop has returns priced with tax included; it stays true',
      ],
    })
    expect(await contents(db)).toEqual(before)

    // A line without returns, and the order's e-mail, may change; the returned line keeps its price paid.
    const allowed = shopFile()
    allowed.orders[0]!.discount = '5.00'
    allowed.orders[0]!.email = 'jane.new@example.com'
    allowed.orders[0]!.line_items[1]!.title = 'Ceramic Mug (white)'
    expect(await importShop(db, allowed, NOW)).toMatchObject({ ok: true, updated: 4 })
  })

  describe.each(STATES)('into %s', (_state, prepare) => {
    test.each(INVALID)(
      'a file with %s is rejected naming the bad fields, and nothing changes',
      async (_name, spoil, expected) => {
        await prepare(db)
        const before = await contents(db)
        const countsBefore = await counts(db)
        const configBefore = await configOf(db, SHOP)
        const file = shopFile()
        spoil(file)

        const result = await importShop(db, file, NOW)

        expect(result.ok).toBe(false)
        const errors = result.ok ? [] : result.errors
        for (const error of expected) expect(errors).toContainEqual(stringContaining(error))
        expect(await counts(db)).toEqual(countsBefore)
        expect(await configOf(db, SHOP)).toEqual(configBefore)
        expect(await contents(db)).toEqual(before)
      },
    )

    test('a valid file the database refuses midway (a constraint on its last order) is rolled back whole', async () => {
      await prepare(db)
      const before = await contents(db)
      // A real constraint violation after the shop was written and three orders with it.
      const constraint = `refuse_${randomUUID().replace(/-/g, '')}`
      await db.exec(`ALTER TABLE orders ADD CONSTRAINT ${constraint} CHECK (name <> '#1007') NOT VALID`)
      try {
        const file = shopFile()
        file.config.button_color = '#00aa00'
        await expect(importShop(db, file, NOW)).rejects.toThrow(constraint)
      } finally {
        await db.exec(`ALTER TABLE orders DROP CONSTRAINT ${constraint}`)
      }
      expect(await contents(db)).toEqual(before)
    })
  })
})

describe.each(engines())('POST /admin/shops on %s', (engine) => {
  const ADMIN_TOKEN = 'admin-token-for-tests'
  let db: Database
  let app: FastifyInstance
  beforeAll(async () => {
    db = await openTestDatabase(engine)
  })
  afterAll(() => db.close())
  // A new app per test: its shop cache starts empty, so nothing cached leaks between tests.
  beforeEach(async () => {
    await db.query('DELETE FROM shops')
    await loadShops(db, [shopFile()])
    app = await buildApp({ db, secret: Buffer.from('test-secret'), now: () => NOW, adminToken: ADMIN_TOKEN })
  })
  afterEach(() => app.close())

  const post = (payload: unknown, token: string | null = ADMIN_TOKEN) =>
    app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: token === null ? {} : bearer(token),
      payload: payload as object,
    })
  const config = (shop: string) => app.inject({ method: 'GET', url: `/portal-registration/config/${shop}` })

  test('an app built without an admin token has no import route: 404', async () => {
    const closed = await buildApp({ db, secret: Buffer.from('test-secret'), now: () => NOW })
    try {
      const response = await closed.inject({
        method: 'POST',
        url: '/admin/shops',
        headers: bearer(ADMIN_TOKEN),
        payload: shopFile(),
      })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ error: 'not_found' })
    } finally {
      await closed.close()
    }
  })

  test.each([
    ['no token', null],
    ['a wrong token', 'admin-token-for-tests-but-not'],
    ['an empty token', ''],
  ])('%s is a 401 and imports nothing', async (_name, token) => {
    const before = await contents(db)
    const file = shopFile()
    file.shop = 'intruder'
    const response = await post(file, token)
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'unauthorised', message: anyString() })
    expect(await contents(db)).toEqual(before)
  })

  test('an invalid file is a 400 invalid_shop_file naming each bad field, and the shop is served unchanged', async () => {
    const before = await contents(db)
    const file = shopFile()
    file.config.button_color = 'blurple'
    Object.assign(file.orders[0]!.line_items[0]!, { price: 25 })
    const response = await post(file)
    expect(response.statusCode).toBe(400)
    const body = response.json<{ error: string; message: string }>()
    expect(body.error).toBe('invalid_shop_file')
    expect(body.message).toContain('orders[0].line_items[0].price: must be a decimal amount')
    // The semantic checks run once the shape is right: the colour is reported when the price is fixed.
    file.orders[0]!.line_items[0]!.price = '25.00'
    const second = await post(file)
    expect(second.statusCode).toBe(400)
    expect(second.json<ApiError>().message).toContain('config.button_color: must be a CSS colour')
    expect(await contents(db)).toEqual(before)
    expect((await config(SHOP)).json<PortalConfig>().button_color).toBe('#1f5fbf')
  })

  test('a body that is not a shop file at all is a 400, never a 500', async () => {
    const notJson = await app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: { ...bearer(ADMIN_TOKEN), 'content-type': 'application/json' },
      payload: '{"shop": ',
    })
    expect(notJson.statusCode).toBe(400)
    const array = await post([shopFile()])
    expect(array.statusCode).toBe(400)
    expect(array.json<ApiError>().message).toContain('file: must be a JSON object')
  })

  test('a date in the year 0000 is a 400 naming the field, never a 500 (nor stored as 1 BC), and nothing changes', async () => {
    const before = await contents(db)
    const file = shopFile()
    file.config.button_color = '#abcdef'
    file.orders[1]!.processed_at = '0000-06-01T00:00:00Z'
    const response = await post(file)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: 'invalid_shop_file',
      message: `orders[1].processed_at: ${DATE_RANGE_MESSAGE}`,
    })
    expect(await contents(db)).toEqual(before)
    expect((await config(SHOP)).json<PortalConfig>().button_color).toBe('#1f5fbf')
  })

  test('a valid new shop is a 201 and its configuration is served at once', async () => {
    expect((await config('gadgets')).statusCode).toBe(404)
    const file = shopFile()
    file.shop = 'gadgets'
    file.config.portal_id = 'portal-gadgets'
    file.config.button_color = '#008800'
    const response = await post(file)
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({
      ok: true,
      shop: 'gadgets',
      orders: 4,
      added: 4,
      updated: 0,
      removed: 0,
      kept: [],
    })
    const served = await config('gadgets')
    expect(served.statusCode).toBe(200)
    expect(served.json<PortalConfig>()).toMatchObject({
      shop: 'gadgets',
      portal_id: 'portal-gadgets',
      button_color: '#008800',
    })
  })

  test('DELETE /admin/shops/{shop} deletes the shop whole, its returns and events too; an import then starts it afresh', async () => {
    await portalReturn(db, SHOP, '#1001', 'li-1001-002')
    const outbox = () => db.query<{ id: string }>('SELECT id FROM outbox WHERE shop_id = $1', [SHOP])
    await db.query(
      `INSERT INTO outbox (id, shop_id, event, channel, target, payload, created_at, due_at)
       VALUES ('evt-1', $1, 'return.created', 'email', 'email', '{}', $2, $2)`,
      [SHOP, NOW],
    )
    const remove = (shop: string, token: string | null = ADMIN_TOKEN) =>
      app.inject({ method: 'DELETE', url: `/admin/shops/${shop}`, headers: token === null ? {} : bearer(token) })

    expect((await remove(SHOP, null)).statusCode).toBe(401)
    expect((await remove(SHOP, 'wrong-token')).statusCode).toBe(401)
    expect(await counts(db)).toMatchObject({ shops: 1, returns: 3 })
    expect(await outbox()).toEqual([{ id: 'evt-1' }])

    expect((await remove(SHOP)).statusCode).toBe(204)
    expect(await counts(db)).toEqual({ shops: 0, orders: 0, returns: 0, return_items: 0 })
    expect(await outbox()).toEqual([])
    expect((await config(SHOP)).statusCode).toBe(404)
    expect((await remove(SHOP)).json<ApiError>()).toEqual({
      error: 'not_found',
      message: `There is no shop "${SHOP}".`,
    })

    const again = await post(shopFile())
    expect(again.json()).toEqual({ ok: true, shop: SHOP, orders: 4, added: 4, updated: 0, removed: 0, kept: [] })
    expect(await counts(db)).toEqual({ shops: 1, orders: 4, returns: 2, return_items: 3 })
  })

  test('a re-imported shop is served at once, although the shop was cached just before', async () => {
    expect((await config(SHOP)).json<PortalConfig>().button_color).toBe('#1f5fbf')
    const file = shopFile()
    file.config.button_color = '#123456'
    expect((await post(file)).statusCode).toBe(201)
    expect((await config(SHOP)).json<PortalConfig>().button_color).toBe('#123456')
  })
})
