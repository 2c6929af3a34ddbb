import { fromMinor } from '../../../contract/money'
import { engineOrderNumber, mergedProduct, orderFromEngine, type EngineOrder } from './engineOrders'

const TEE = 'prod_tee'
const order = (change: Partial<EngineOrder> = {}): EngineOrder => ({
  id: 'order_01',
  number: '7',
  email: 'Ada@Example.com',
  currency: 'EUR',
  createdAt: '2026-11-20T10:00:00.000Z',
  fulfilledAt: '2026-11-21T09:00:00.000Z',
  shippingAddress: {
    name: 'Ada Shopper',
    line1: 'Hauptstraße 5',
    city: 'Berlin',
    postal_code: '10115',
    country_code: 'DE',
  },
  lines: [
    {
      id: 'ordli_tee',
      variantId: 'variant_m',
      productId: TEE,
      title: 'Organic tee',
      variantTitle: 'M',
      imageSrc: null,
      quantity: 2,
      unitPriceMinor: 2550,
      taxInclusive: true,
      taxRate: 0.19,
      discountMinor: 0,
    },
  ],
  products: [
    {
      id: TEE,
      title: 'Organic tee',
      imageSrc: 'https://img.example/tee.jpg',
      variants: [
        {
          id: 'variant_s',
          title: 'S',
          options: [{ name: 'Size', value: 'S' }],
          priceMinor: 2550,
          available: false,
          imageSrc: null,
        },
        {
          id: 'variant_m',
          title: 'M',
          options: [{ name: 'Size', value: 'M' }],
          priceMinor: 2550,
          available: true,
          imageSrc: null,
        },
        {
          id: 'variant_l',
          title: 'L',
          options: [{ name: 'Size', value: 'L' }],
          priceMinor: 2700,
          available: true,
          imageSrc: null,
        },
        // No price in the shop's currency: not offered.
        {
          id: 'variant_xl',
          title: 'XL',
          options: [{ name: 'Size', value: 'XL' }],
          priceMinor: null,
          available: true,
          imageSrc: null,
        },
      ],
    },
  ],
  ...change,
})

const EU = { currency_code: 'EUR', settings: { prices_include_tax: true } }

test('an engine order becomes the shop file’s order: the engine’s ids, "#<number>", its amounts in minor units', () => {
  const mapped = orderFromEngine(EU, order())
  expect(mapped).toEqual({
    ok: true,
    order: {
      name: '#7',
      email: 'Ada@Example.com',
      processed_at: '2026-11-20T10:00:00.000Z',
      fulfilled_at: '2026-11-21T09:00:00.000Z',
      shipping_address: order().shippingAddress,
      line_items: [
        {
          id: 'ordli_tee',
          variant_id: 'variant_m',
          title: 'Organic tee',
          variant_title: 'M',
          quantity: 2,
          price: 2550,
          tax_rate: '0.19',
        },
      ],
    },
    products: [
      {
        id: TEE,
        title: 'Organic tee',
        image_src: 'https://img.example/tee.jpg',
        variants: [
          { id: 'variant_s', title: 'S', options: [{ name: 'Size', value: 'S' }], price: '25.50', available: false },
          { id: 'variant_m', title: 'M', options: [{ name: 'Size', value: 'M' }], price: '25.50', available: true },
          { id: 'variant_l', title: 'L', options: [{ name: 'Size', value: 'L' }], price: '27.00', available: true },
        ],
      },
    ],
  })
})

test('prices are shown in the shop’s terms: tax added for a shop whose prices include it, taken off for one whose do not', () => {
  const net = order({
    lines: [{ ...order().lines[0]!, taxInclusive: false, unitPriceMinor: 2000, discountMinor: 500 }],
  })
  const gross = orderFromEngine(EU, net)
  if (!gross.ok) throw new Error(gross.problem)
  expect(fromMinor(gross.order.line_items[0]!.price, 'EUR')).toBe('23.80')
  expect(fromMinor(gross.order.discount!, 'EUR')).toBe('5.95')
  // The list prices of the product are in the same terms as its lines.
  expect(gross.products[0]!.variants.map((variant) => variant.price)).toEqual(['30.35', '30.35', '32.13'])
  const us = orderFromEngine({ currency_code: 'EUR', settings: { prices_include_tax: false } }, order())
  if (!us.ok) throw new Error(us.problem)
  expect(fromMinor(us.order.line_items[0]!.price, 'EUR')).toBe('21.43')
})

test('a line whose variant the engine no longer lists is a custom line; a line of no units is left out', () => {
  const mapped = orderFromEngine(
    EU,
    order({
      lines: [
        { ...order().lines[0]!, variantId: 'variant_gone' },
        { ...order().lines[0]!, id: 'ordli_removed', quantity: 0 },
      ],
    }),
  )
  if (!mapped.ok) throw new Error(mapped.problem)
  expect(mapped.order.line_items).toHaveLength(1)
  expect(mapped.order.line_items[0]!.variant_id).toBeNull()
})

test('an order that cannot be taken says why: another currency, no items, a tax rate of 100%', () => {
  expect(orderFromEngine(EU, order({ currency: 'USD' }))).toEqual({
    ok: false,
    problem: 'the order is in USD, the shop in EUR',
  })
  expect(orderFromEngine(EU, order({ lines: [] }))).toMatchObject({ ok: false })
  expect(orderFromEngine(EU, order({ lines: [{ ...order().lines[0]!, taxRate: 1 }] }))).toMatchObject({ ok: false })
})

test('a not yet fulfilled order keeps fulfilled_at null; JPY amounts have no decimals', () => {
  const mapped = orderFromEngine(
    { currency_code: 'JPY', settings: { prices_include_tax: true } },
    order({ currency: 'JPY', fulfilledAt: null, lines: [{ ...order().lines[0]!, unitPriceMinor: 1200 }] }),
  )
  if (!mapped.ok) throw new Error(mapped.problem)
  expect(mapped.order.fulfilled_at).toBeNull()
  expect(fromMinor(mapped.order.line_items[0]!.price, 'JPY')).toBe('1200')
})

test('the stored product keeps its tags and flags, and a variant the engine dropped stays, not available', () => {
  const fresh = orderFromEngine(EU, order())
  if (!fresh.ok) throw new Error(fresh.problem)
  const stored = {
    id: TEE,
    title: 'Old title',
    tags: ['final-sale'],
    upsell: false,
    variants: [{ id: 'variant_old', options: [{ name: 'Size', value: 'XS' }], price: '20.00' }],
  }
  const merged = mergedProduct(stored, fresh.products[0]!)
  expect(merged).toMatchObject({ id: TEE, title: 'Organic tee', tags: ['final-sale'], upsell: false })
  expect(merged.variants.map((variant) => [variant.id, variant.available])).toEqual([
    ['variant_s', false],
    ['variant_m', true],
    ['variant_l', true],
    ['variant_old', false],
  ])
  expect(mergedProduct(undefined, fresh.products[0]!)).toBe(fresh.products[0])
})

test.each([
  ['1001', '1001'],
  ['7', '7'],
  ['0012', null],
  ['AC1001', null],
  ['', null],
  ['1234567890123456', null],
])('engineOrderNumber(%p) is %p', (key, number) => {
  expect(engineOrderNumber(key)).toBe(number)
})
