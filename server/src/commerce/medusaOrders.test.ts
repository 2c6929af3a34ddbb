import type { MedusaOrder, MedusaOrderItem } from './medusa'
import { addressOf, engineOrderOf, fulfilledAt } from './medusaOrders'

const item = (change: Partial<MedusaOrderItem> = {}): MedusaOrderItem => ({
  id: 'ordli_1',
  variantId: 'variant_m',
  productId: 'prod_tee',
  title: 'Organic tee',
  productTitle: 'Organic tee',
  variantTitle: 'M',
  thumbnail: null,
  quantity: 2,
  fulfilledQuantity: 2,
  unitPriceMinor: 2550,
  taxInclusive: false,
  taxRatePercent: 19,
  discountMinor: 0,
  ...change,
})

const ORDER: MedusaOrder = {
  id: 'order_01',
  displayId: 12,
  email: 'ada@example.com',
  currency: 'EUR',
  items: [item()],
  payments: [],
  fulfillmentStatus: 'shipped',
  createdAt: '2026-11-20T10:00:00.000Z',
  fulfillments: [
    { id: 'ful_1', createdAt: '2026-11-21T09:00:00.000Z', shippedAt: '2026-11-21T12:00:00.000Z', canceledAt: null },
    { id: 'ful_2', createdAt: '2026-11-22T09:00:00.000Z', shippedAt: null, canceledAt: '2026-11-22T10:00:00.000Z' },
  ],
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Shopper',
    company: null,
    address1: 'Hauptstraße 5',
    address2: null,
    city: 'Berlin',
    province: null,
    postalCode: '10115',
    countryCode: 'de',
  },
}

test('a Medusa order as the domain’s engine order: Medusa’s ids, its number, the tax rate as a fraction', () => {
  const variants = new Map([
    [
      'prod_tee',
      [
        {
          id: 'variant_m',
          title: 'M',
          options: [{ name: 'Size', value: 'M' }],
          priceMinor: 2550,
          available: true,
          thumbnail: null,
        },
      ],
    ],
  ])
  const engine = engineOrderOf(ORDER, variants)
  expect(engine).toMatchObject({
    id: 'order_01',
    number: '12',
    currency: 'EUR',
    fulfilledAt: '2026-11-21T09:00:00.000Z',
    shippingAddress: { name: 'Ada Shopper', country_code: 'DE', postal_code: '10115' },
    lines: [{ id: 'ordli_1', variantId: 'variant_m', quantity: 2, unitPriceMinor: 2550, taxRate: 0.19 }],
    products: [{ id: 'prod_tee', title: 'Organic tee', variants: [{ id: 'variant_m', priceMinor: 2550 }] }],
  })
})

test('fulfilled when every unit is, at the last fulfilment not canceled', () => {
  expect(fulfilledAt(ORDER)).toBe('2026-11-21T09:00:00.000Z')
  expect(fulfilledAt({ ...ORDER, items: [item({ fulfilledQuantity: 1 })] })).toBeNull()
  expect(fulfilledAt({ ...ORDER, fulfillments: [] })).toBeNull()
  expect(
    fulfilledAt({
      ...ORDER,
      fulfillments: [{ ...ORDER.fulfillments[0]!, createdAt: '2026-11-23T00:00:00.000Z' }, ORDER.fulfillments[0]!],
    }),
  ).toBe('2026-11-23T00:00:00.000Z')
})

test('an address without a part the label needs is none', () => {
  expect(addressOf(null)).toBeNull()
  expect(addressOf({ ...ORDER.shippingAddress!, city: null })).toBeNull()
  expect(addressOf({ ...ORDER.shippingAddress!, firstName: null, lastName: null, company: 'Acme' })).toMatchObject({
    name: 'Acme',
  })
})
