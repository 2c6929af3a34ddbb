import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { PortalConfig, ReturnOrder, ReturnStatus, VerifiedOrder } from '../../contract/api'
import { allReasons } from '../../contract/reasonTree'
import { buildApp } from '../src/app'
import { signStatus } from '../src/domain/token'
import { DEMO_SHOP_FILES, readDemoShop, seedDemoShops } from '../src/import/demoShops'
import type { ShopFile } from '../src/import/shopFile'
import { normaliseOrderName, validateShopFile } from '../src/import/validateShopFile'
import type { Database } from '../src/storage/database'
import { bearer, NOW, openTestDatabase, verify, type TestApi } from './harness'
import { anyString } from './matchers'

/**
 * A test of the demo data itself: the shops `npm start` loads on a first start (server/demo/)
 * are valid, and the demo orders README lists under "Trying it" behave as it says. Every other
 * server test builds the data it relies on (builders.ts), so the demo shops can change freely
 * as long as README and this file change with them.
 */

const SECRET = Buffer.from('test-secret')
const DAY_MS = 86_400_000
const DEMO = { shop: 'demo', portal_id: 'portal-demo' }
const ACME = { shop: 'acme', portal_id: 'portal-acme' }
const [DEMO_PATH, ACME_PATH] = DEMO_SHOP_FILES as [string, string]
const demoFile = () => readDemoShop(DEMO_PATH) as ShopFile
const acmeFile = () => readDemoShop(ACME_PATH) as ShopFile

const orderOf = (file: ShopFile, name: string) => {
  const found = file.orders.find((o) => normaliseOrderName(o.name) === normaliseOrderName(name))
  if (!found) throw new Error(`no order ${name}`)
  return found
}
const productOf = (file: ShopFile, variantId: string | null) =>
  file.catalogue.find((p) => p.variants.some((v) => v.id === variantId))

describe('the demo shop files', () => {
  it.each(DEMO_SHOP_FILES.map((path) => [basename(path), path]))('%s is a valid shop file', (_name, path) => {
    const result = validateShopFile(readDemoShop(path))
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it('demo: shop settings and configuration', () => {
    const demo = demoFile()
    expect(demo).toMatchObject({
      shop: 'demo',
      currency_code: 'EUR',
      settings: { prices_include_tax: true, upsell_enabled: true, return_window_days: 30, return_fee: '3.95' },
      config: { portal_id: 'portal-demo', button_color: '#1f5fbf', gift_card_value_multiplier: 1.1 },
    })
    expect(demo.config.order_prefix).toBeUndefined()
    expect(Object.keys(demo.config_variants ?? {})).toEqual(['de'])
    expect(demo.catalogue.length).toBeGreaterThanOrEqual(12)
    // every text of the base configuration has a German version
    const de = demo.config_variants?.de ?? {}
    for (const [field, value] of Object.entries(demo.config)) {
      if (typeof value === 'string' && /_(text|message)$/.test(field))
        expect({ field, de: de[field as keyof typeof de] }).toEqual({ field, de: anyString() })
    }
    // Every reason and sub-reason has its German label.
    expect(Object.keys(demo.return_reason_variants?.de ?? {}).sort()).toEqual(
      allReasons(demo.return_reasons)
        .map((r) => r.id)
        .sort(),
    )
  })

  it('demo: the orders README lists', () => {
    const demo = demoFile()
    const o1001 = orderOf(demo, '#1001')
    expect(o1001).toMatchObject({ email: 'jane@example.com', fulfilled_at: 'now-5d' })
    const [tee, mug, shirt] = o1001.line_items
    expect(tee).toMatchObject({ variant_id: 'classic-tee-m', quantity: 2, price: '25.00' })
    expect(productOf(demo, 'classic-tee-m')?.variants.map((v) => [v.options[0]?.value, v.available ?? true])).toEqual([
      ['S', true],
      ['M', true],
      ['L', true],
      ['XL', false],
    ])
    expect(mug).toMatchObject({ quantity: 1, price: '14.00' })
    expect(productOf(demo, mug?.variant_id ?? null)).toMatchObject({ title: 'Ceramic Mug', exchangeable: false })
    expect(shirt).toMatchObject({ final_sale: true })
    expect(orderOf(demo, '#1002')).toMatchObject({ email: 'sam@example.com', fulfilled_at: null })
    expect(orderOf(demo, '#1003')).toMatchObject({ email: 'old@example.com', fulfilled_at: 'now-65d' })
    const o1004 = orderOf(demo, '#1004')
    const returned = (o1004.returns ?? []).flat()
    for (const line of o1004.line_items) {
      expect(returned.filter((r) => r.line_item_id === line.id).reduce((n, r) => n + r.quantity, 0)).toBe(line.quantity)
    }
    const o1005 = orderOf(demo, '#1005')
    expect(o1005.line_items).toHaveLength(1)
    expect(productOf(demo, o1005.line_items[0]?.variant_id ?? null)?.variants).toHaveLength(1)
    const o1006 = orderOf(demo, '#1006')
    expect(o1006.line_items).toHaveLength(150)
    expect(o1006.line_items[0]?.id).toBe('li-1006-001')
    const multiVariant = o1006.line_items.filter((l) => {
      const product = productOf(demo, l.variant_id)
      return product && product.exchangeable !== false && product.variants.length > 1 && !l.final_sale
    })
    expect(multiVariant).toHaveLength(50)
  })

  it('demo: some upsell products cost more than a Classic Tee refund plus the bonus, most less', () => {
    const credit = 25 * 1.1
    const prices = demoFile()
      .catalogue.filter((p) => p.upsell !== false)
      .map((p) => Math.min(...p.variants.map((v) => Number(v.price))))
    const above = prices.filter((p) => p > credit).length
    expect(above).toBeGreaterThan(0)
    expect(above).toBeLessThan(prices.length / 2)
  })

  it('acme: order prefix AC, US tax, no upsell, no fee', () => {
    const acme = acmeFile()
    expect(acme).toMatchObject({
      shop: 'acme',
      currency_code: 'USD',
      settings: { prices_include_tax: false, upsell_enabled: false, return_fee: '0.00', return_window_days: 30 },
      config: { portal_id: 'portal-acme', order_prefix: 'AC' },
    })
    expect(acme.config.button_color).toBeUndefined()
    expect(acme.config.gift_card_value_multiplier).toBeUndefined()
    const ac1001 = orderOf(acme, 'AC1001')
    expect(ac1001.email).toBe('ada@example.com')
    expect(ac1001.line_items).toHaveLength(2)
    for (const line of ac1001.line_items) expect(productOf(acme, line.variant_id)?.variants.length).toBeGreaterThan(1)
    const exc = orderOf(acme, 'EXC2001')
    expect(exc.email).toBe('ada@example.com')
    expect(exc.line_items).toHaveLength(1)
    expect(exc.line_items[0]?.exchange_variant_id).toEqual(anyString())
    expect(exc.line_items.every((l) => l.tax_rate === '0.0725')).toBe(true)
  })

  it('use only the images that exist under server/demo/assets', () => {
    const assets = new Set(readdirSync(join(__dirname, '../demo/assets')).map((name) => `/demo-assets/${name}`))
    for (const path of DEMO_SHOP_FILES)
      for (const [src] of readFileSync(path, 'utf8').matchAll(/\/demo-assets\/[^"]*/g)) expect(assets).toContain(src)
  })
})

describe('the demo shops as a first start loads them', () => {
  let db: Database
  let api: TestApi
  beforeAll(async () => {
    db = await openTestDatabase('pglite')
    expect(await seedDemoShops(db, NOW)).toEqual(['demo', 'acme'])
    const app = await buildApp({
      db,
      secret: SECRET,
      now: () => NOW,
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    api = {
      app,
      db,
      async close() {
        await app.close()
        await db.close()
      },
    }
  })
  afterAll(() => api.close())

  const verified = async (order_name: string, email: string, shop = DEMO) => {
    const response = await verify(api.app, { order_name, email, ...shop })
    expect([order_name, response.statusCode]).toEqual([order_name, 200])
    return response.json<VerifiedOrder>()
  }
  const config = async (id: string) =>
    (await api.app.inject({ method: 'GET', url: `/portal-registration/config/${id}` })).json<PortalConfig>()

  test('a second start loads nothing: the shops are there', async () => {
    expect(await seedDemoShops(db, NOW)).toEqual([])
  })

  test('demo.localhost is the demo shop (blue button, 10 % store-credit bonus); ?lang=de its German variant', async () => {
    expect(await config('demo')).toMatchObject({
      shop: 'demo',
      portal_id: 'portal-demo',
      button_color: '#1f5fbf',
      gift_card_value_multiplier: 1.1,
    })
    const german = await config('demo-de')
    expect(german.start_return_message).toBe('Starten Sie Ihre Rücksendung')
    expect(german.button_color).toBe('#1f5fbf')
  })

  test('acme.localhost is the Acme shop: order prefix AC, no button colour', async () => {
    const acme = await config('acme')
    expect(acme.order_prefix).toBe('AC')
    expect(acme.button_color).toBeUndefined()
  })

  test('#1001 jane@example.com starts a full return: a tee in M (XL out of stock), a mug, a final-sale shirt', async () => {
    const order = await verified('#1001', 'jane@example.com')
    expect(order.line_items.map((line) => [line.title, line.returnable_quantity, line.ineligible_reason])).toEqual([
      ['Classic Tee', 2, null],
      ['Ceramic Mug', 1, null],
      ['Linen Shirt', 0, 'final_sale'],
    ])
    const options = order.exchange_data!.options['classic-tee-m']!
    expect(
      options.map((id) => [order.exchange_data!.variants[id]!.title, order.exchange_data!.variants[id]!.available]),
    ).toEqual([
      ['S', true],
      ['M', true],
      ['L', true],
      ['XL', false],
    ])
    expect(order.exchange_data!.upsell_enabled).toBe(true)
  })

  test.each([
    ['#1002', 'sam@example.com', 'order_not_fulfilled'],
    ['#1003', 'old@example.com', 'order_too_old'],
    ['#1004', 'repeat@example.com', 'order_already_has_return'],
  ])('%s %s is refused: %s', async (order_name, email, error) => {
    const response = await verify(api.app, { order_name, email, ...DEMO })
    expect([response.statusCode, response.json()]).toEqual([400, { error }])
  })

  test('#1005 solo@example.com: one item, no exchange', async () => {
    const order = await verified('#1005', 'solo@example.com')
    expect(order.line_items).toHaveLength(1)
    const line = order.line_items[0]!
    expect(order.exchange_data!.options[line.variant_id!] ?? [line.variant_id]).toEqual([line.variant_id])
  })

  test('#1006 bulk@example.com: 150 items, a third of them exchangeable', async () => {
    const order = await verified('#1006', 'bulk@example.com')
    expect(order.line_items).toHaveLength(150)
    const exchangeable = order.line_items.filter(
      (line) => (order.exchange_data!.options[line.variant_id ?? '']?.length ?? 0) > 1,
    )
    expect(exchangeable).toHaveLength(50)
  })

  test('#1007 track@example.com: a return in transit, the hoodie exchanged, the sneakers refunded; the beanie can still go', async () => {
    const [row] = await db.query<{ id: string }>(
      "SELECT r.id FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = 'demo' AND o.name = '#1007'",
    )
    const response = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${row!.id}/status?signature=${signStatus(SECRET, row!.id)}`,
    })
    expect(response.statusCode).toBe(200)
    const view = response.json<ReturnStatus>()
    expect(view.return_name).toBe('#1007-R1')
    expect(view.created_at).toBe(new Date(NOW.getTime() - 3 * DAY_MS).toISOString())
    expect(view.items.map((item) => [item.title, item.variant_title, item.exchange_variant_title, item.state])).toEqual(
      [
        ['Everyday Hoodie', 'M', 'L', 'in_transit'],
        ['Court Sneakers', '41', null, 'in_transit'],
      ],
    )
    expect(view.items[1]!.history).toEqual([
      { state: 'requested', at: new Date(NOW.getTime() - 3 * DAY_MS).toISOString() },
      { state: 'in_transit', at: new Date(NOW.getTime() - 2 * DAY_MS).toISOString() },
    ])
    // 89.00 less the 3.95 fee, 5–10 business days after receipt: no dates while in transit.
    expect(view.refund).toMatchObject({
      method: 'original_payment',
      amount: { amount: '85.05', currency_code: 'EUR' },
      timing: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
      expected: null,
    })
    const again = await verified('#1007', 'track@example.com')
    expect(again.line_items.map((line) => [line.title, line.returnable_quantity])).toEqual([
      ['Everyday Hoodie', 0],
      ['Court Sneakers', 0],
      ['Wool Beanie', 1],
    ])
  })

  test('refunds: store credit at once, the original payment 5–10 business days after receipt', async () => {
    const order = await verified('#1001', 'jane@example.com')
    const quote = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      headers: bearer(order.token),
      payload: { items: [{ line_item_id: order.line_items[1]!.id, quantity: 1, reason_id: 'changed_mind' }] },
    })
    expect(quote.json<ReturnOrder>().refund_timing).toEqual({
      original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
      store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
    })
  })

  test('#1010 keep@example.com: the socks under the €10.00 threshold are kept if refunded, the beanie goes back', async () => {
    const order = await verified('#1010', 'keep@example.com')
    expect(order.line_items.map((line) => [line.title, line.keep_if_refunded ?? false])).toEqual([
      ['Cotton Socks', true],
      ['Wool Beanie', false],
    ])
  })

  test('#1011 fit@example.com: sneakers in 41 (42 out of stock), a rain jacket in M (S out of stock), and the fit reasons', async () => {
    const order = await verified('#1011', 'fit@example.com')
    const data = order.exchange_data!
    expect(order.line_items.map((line) => line.variant_id)).toEqual(['sneakers-41', 'rain-jacket-m'])
    expect(data.options['sneakers-41']!.map((id) => [data.variants[id]!.title, data.variants[id]!.available])).toEqual([
      ['40', true],
      ['41', true],
      ['42', false],
      ['43', true],
      ['44', true],
    ])
    expect(data.variants['rain-jacket-s']!.available).toBe(false)
    expect(order.return_reasons.filter((reason) => reason.fit).map((reason) => [reason.label, reason.fit])).toEqual([
      ['Too small', 'too_small'],
      ['Too large', 'too_large'],
    ])
  })

  test('AC1001 ada@example.com starts a return at Acme (US dollars, no upsell); EXC2001 is an exchange order', async () => {
    const ac = await verified('AC1001', 'ada@example.com', ACME)
    expect(ac.currency_code).toBe('USD')
    expect(ac.exchange_data!.upsell_enabled).toBe(false)
    const exc = await verified('EXC2001', 'ada@example.com', ACME)
    expect(exc.line_items).toHaveLength(1)
    expect(exc.line_items[0]!.exchange_variant_id).not.toBeNull()
  })
})
