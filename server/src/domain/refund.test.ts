import fc from 'fast-check'
import { parseRate } from '../../../contract/money'
import {
  allocateDiscount,
  computeRefund,
  type OrderPricing,
  type PricedLine,
  type RefundFigures,
  type RefundInput,
  type ReturnedLine,
} from './refund'

const line = (id: string, unitPrice: number, quantity = 1, taxRate = '0'): PricedLine => ({
  id,
  unitPrice,
  quantity,
  taxRate,
})
const order = (lines: PricedLine[], more: Partial<OrderPricing> = {}): OrderPricing => ({
  pricesIncludeTax: false,
  discount: 0,
  lines,
  ...more,
})
const refunded = (lineId: string, quantity = 1): ReturnedLine => ({ lineId, quantity, exchanged: false })
const exchanged = (lineId: string, quantity = 1): ReturnedLine => ({ lineId, quantity, exchanged: true })
const input = (pricing: OrderPricing, returned: ReturnedLine[], more: Partial<RefundInput> = {}): RefundInput => ({
  order: pricing,
  returned,
  returnFee: 0,
  multiplier: null,
  refundMethod: null,
  upsellPrice: 0,
  ...more,
})
const inclusive = { pricesIncludeTax: true }

test.each([
  ['no discount: every share is zero', [line('a', 1000), line('b', 500)], 0, [0, 0]],
  ['two lines share in proportion to their totals', [line('a', 1500, 2), line('b', 1000)], 400, [300, 100]],
  [
    'three equal lines: the 1 cent remainder goes to one line, sum exact',
    [line('a', 1000), line('b', 1000), line('c', 1000)],
    100,
    [34, 33, 33],
  ],
  [
    'the remainder goes to the largest fractional share',
    [line('a', 1000), line('b', 2000), line('c', 3000)],
    10,
    [2, 3, 5],
  ],
  ['quantity counts: 2 × 500 weighs as much as 1 × 1000', [line('a', 500, 2), line('b', 1000)], 101, [51, 50]],
  ['a free line gets no share', [line('a', 0), line('b', 1000)], 100, [0, 100]],
  ['the whole order discounted away', [line('a', 300), line('b', 700)], 1000, [300, 700]],
  ['JPY: ¥100 over ¥3300 and ¥500', [line('a', 1100, 3), line('b', 500)], 100, [87, 13]],
])('allocateDiscount: %s', (_name, lines, discount, expected) => {
  const shares = allocateDiscount(order(lines, { discount }))
  expect(lines.map((l) => shares.get(l.id))).toEqual(expected)
  expect(expected.reduce((a, b) => a + b, 0)).toBe(discount)
})

test.each([
  ['discount above the order total', order([line('a', 100)], { discount: 101 }), /exceeds/],
  ['negative discount', order([line('a', 100)], { discount: -1 }), /discount/],
  ['fractional discount', order([line('a', 100)], { discount: 0.5 }), /discount/],
  ['a line id twice', order([line('a', 100), line('a', 200)]), /twice/],
  ['a line of quantity 0', order([line('a', 100, 0)]), /line a/],
])('allocateDiscount: %s throws RangeError', (_name, pricing, message) => {
  expect(() => allocateDiscount(pricing)).toThrow(RangeError)
  expect(() => allocateDiscount(pricing)).toThrow(message)
})

const one = (price: number, rate = '0') => order([line('a', price, 1, rate)])
const twoLines = order([line('a', 2000), line('b', 3000)])

test.each<[string, RefundInput, Partial<RefundFigures>]>([
  [
    'tax-exclusive: tax added on top',
    input(order([line('a', 1000, 2, '0.10')]), [refunded('a', 2)]),
    { itemsSubtotal: 2000, tax: 200, refundValue: 2200, total: 2200 },
  ],
  [
    'tax-inclusive: tax taken out of the price',
    input(order([line('a', 1190, 1, '0.19')], inclusive), [refunded('a')]),
    { itemsSubtotal: 1000, tax: 190, refundValue: 1190 },
  ],
  [
    'tax-inclusive, odd price: tax rounded up, refund is exactly the price paid',
    input(order([line('a', 1000, 1, '0.19')], inclusive), [refunded('a')]),
    { itemsSubtotal: 840, tax: 160, refundValue: 1000 },
  ],
  [
    'partial quantity: 1 of 3 gets a third of the discounted line, rounded up',
    input(order([line('a', 1000, 3)], { discount: 100 }), [refunded('a')]),
    { itemsSubtotal: 967, tax: 0, refundValue: 967 },
  ],
  [
    'partial quantity: discount shared by lines is not counted twice',
    input(order([line('a', 1500, 2, '0.2'), line('b', 1000, 1, '0.2')], { discount: 400 }), [refunded('a')]),
    { itemsSubtotal: 1350, tax: 270, refundValue: 1620 },
  ],
  [
    'partial quantity, tax-exclusive: subtotal and tax rounded on their sum',
    input(order([line('a', 1000, 3, '0.19')], { discount: 1 }), [refunded('a')]),
    { itemsSubtotal: 1000, tax: 190, refundValue: 1190 },
  ],
  [
    'three equal lines: the line that took the remainder cent refunds 966',
    input(order([line('a', 1000), line('b', 1000), line('c', 1000)], { discount: 100 }), [refunded('a')]),
    { refundValue: 966 },
  ],
  [
    'two lines of 63.27 tax: 127 rounded once, not 128 per line',
    input(order([line('a', 333, 1, '0.19'), line('b', 333, 1, '0.19')]), [refunded('a'), refunded('b')]),
    { itemsSubtotal: 666, tax: 127, refundValue: 793 },
  ],
  [
    'mixed rates: tax per line rate',
    input(order([line('a', 1000, 1, '0.07'), line('b', 1000, 1, '0.19')], inclusive), [refunded('a'), refunded('b')]),
    { itemsSubtotal: 1774, tax: 226, refundValue: 2000 },
  ],
  [
    'return fee charged on a refund',
    input(one(2000), [refunded('a')], { returnFee: 500 }),
    { itemsSubtotal: 2000, returnFee: 500, refundValue: 1500, total: 1500 },
  ],
  [
    'return fee not charged on exchanges only',
    input(one(2000), [exchanged('a')], { returnFee: 500 }),
    { itemsSubtotal: 0, returnFee: 0, refundValue: 0, total: 0 },
  ],
  [
    'return fee charged once for a refund plus an exchange',
    input(twoLines, [refunded('a'), exchanged('b')], { returnFee: 500 }),
    { itemsSubtotal: 2000, returnFee: 500, refundValue: 1500 },
  ],
  [
    'return fee capped at items and tax: refund 0, not negative',
    input(one(300), [refunded('a')], { returnFee: 500 }),
    { returnFee: 300, refundValue: 0, total: 0 },
  ],
  [
    'partly refunded, partly exchanged line: only refunded units count',
    input(order([line('a', 1000, 3)]), [refunded('a'), exchanged('a', 2)]),
    { itemsSubtotal: 1000, refundValue: 1000 },
  ],
  [
    'multiplier, original payment chosen: credit quoted, no bonus',
    input(one(1000), [refunded('a')], { multiplier: '1.1', refundMethod: 'original_payment' }),
    { storeCreditValue: 1100, bonus: 0, total: 1000 },
  ],
  [
    'multiplier, method not chosen yet: both quoted, no bonus',
    input(one(1000), [refunded('a')], { multiplier: '1.1' }),
    { storeCreditValue: 1100, bonus: 0, total: 1000 },
  ],
  [
    'gift-card bonus with store credit',
    input(one(1000), [refunded('a')], { multiplier: '1.1', refundMethod: 'store_credit' }),
    { storeCreditValue: 1100, bonus: 100, total: 1100 },
  ],
  [
    'gift-card bonus rounded up: 1005 × 1.15 = 1155.75',
    input(one(1005), [refunded('a')], { multiplier: '1.15', refundMethod: 'store_credit' }),
    { storeCreditValue: 1156, bonus: 151, total: 1156 },
  ],
  [
    'bonus on the refund after the fee',
    input(one(2000), [refunded('a')], { returnFee: 500, multiplier: '1.1', refundMethod: 'store_credit' }),
    { refundValue: 1500, storeCreditValue: 1650, bonus: 150 },
  ],
  [
    'store credit without multiplier: no bonus',
    input(one(1000), [refunded('a')], { refundMethod: 'store_credit' }),
    { storeCreditValue: null, bonus: 0, total: 1000 },
  ],
  // A new item is paid from the credit (refund × multiplier); what is left is refunded as chosen:
  // 5500 − 3000 = 2500 as store credit, or 5000 − 3000 / 1.1 = 2272.7… → 2273 to the original payment.
  [
    'upsell, method not chosen yet: both remainders quoted',
    input(one(5000), [refunded('a')], { multiplier: '1.1', upsellPrice: 3000 }),
    { refundValue: 2273, storeCreditValue: 2500, credit: 5500, upsell: 3000, total: 2273 },
  ],
  [
    'upsell, rest as store credit: the bonus on all of it',
    input(one(5000), [refunded('a')], { multiplier: '1.1', upsellPrice: 3000, refundMethod: 'store_credit' }),
    { refundValue: 2273, storeCreditValue: 2500, bonus: 500, upsell: 3000, total: 2500 },
  ],
  [
    'upsell, rest to the original payment: the bonus on the new item only',
    input(one(5000), [refunded('a')], { multiplier: '1.1', upsellPrice: 3000, refundMethod: 'original_payment' }),
    { refundValue: 2273, storeCreditValue: 2500, bonus: 273, upsell: 3000, total: 2273 },
  ],
  [
    '#1001 tee (21.05) and a 12.00 new item: 11.16 as credit, 10.15 to the card',
    input(one(2105), [refunded('a')], { multiplier: '1.1', upsellPrice: 1200 }),
    { refundValue: 1015, storeCreditValue: 1116, credit: 2316 },
  ],
  [
    'upsell taking the whole credit: nothing left to refund',
    input(one(2000), [refunded('a')], { multiplier: '1.1', upsellPrice: 2200 }),
    { refundValue: 0, storeCreditValue: 0, bonus: 200, total: 0 },
  ],
  [
    'upsell taking the whole rounded-up credit: 1005 × 1.15 = 1155.75 → 1156',
    input(one(1005), [refunded('a')], { multiplier: '1.15', upsellPrice: 1156 }),
    { refundValue: 0, storeCreditValue: 0, total: 0 },
  ],
  [
    'upsell one cent under the credit: one cent left either way',
    input(one(2105), [refunded('a')], { multiplier: '1.1', upsellPrice: 2315 }),
    { refundValue: 1, storeCreditValue: 1 },
  ],
  [
    'upsell without multiplier: credit equals refund',
    input(one(5000), [refunded('a')], { upsellPrice: 3000, refundMethod: 'original_payment' }),
    { refundValue: 2000, storeCreditValue: null, bonus: 0, upsell: 3000, total: 2000 },
  ],
  [
    'upsell dearer than the credit: total stops at 0',
    input(one(2000), [refunded('a')], { multiplier: '1.1', upsellPrice: 5000 }),
    { refundValue: 0, storeCreditValue: 0, credit: 2200, bonus: 200, upsell: 5000, total: 0 },
  ],
  [
    'exchange only with an upsell: no fee, total 0',
    input(one(2000), [exchanged('a')], { returnFee: 500, upsellPrice: 2000 }),
    { returnFee: 0, refundValue: 0, total: 0 },
  ],
  [
    'nothing returned: all zero',
    input(one(2000), []),
    { itemsSubtotal: 0, tax: 0, returnFee: 0, refundValue: 0, total: 0 },
  ],
  [
    'JPY, inclusive 10%: 1 of 3, ¥100 off, ¥300 fee, credit × 1.1',
    input(order([line('a', 1100, 3, '0.10')], { pricesIncludeTax: true, discount: 100 }), [refunded('a')], {
      returnFee: 300,
      multiplier: '1.1',
      refundMethod: 'store_credit',
    }),
    { itemsSubtotal: 970, tax: 97, returnFee: 300, refundValue: 767, storeCreditValue: 844, bonus: 77, total: 844 },
  ],
])('computeRefund: %s', (_name, refundInput, expected) => {
  const figures = computeRefund(refundInput)
  expect(figures).toMatchObject(expected)
  // Without a new item the refund is items + tax − fee; a new item takes its share of it.
  if (refundInput.upsellPrice === 0)
    expect(figures.refundValue).toBe(figures.itemsSubtotal + figures.tax - figures.returnFee)
})

test.each<[string, Partial<RefundInput> & { returned: ReturnedLine[] }, RegExp]>([
  ['an unknown line', { returned: [refunded('ghost')] }, /line ghost/],
  ['quantity 0', { returned: [refunded('a', 0)] }, /line a/],
  ['more units than bought', { returned: [refunded('a', 3)] }, /line a: 3 units returned but only 2 bought/],
  ['a fractional quantity', { returned: [refunded('a', 1.5)] }, /line a/],
  [
    'refund plus exchange of the same line above its quantity',
    { returned: [refunded('a', 2), exchanged('a')] },
    /line a/,
  ],
  ['a malformed multiplier', { returned: [refunded('a')], multiplier: '1,1' }, /1,1/],
  ['a multiplier below 1', { returned: [refunded('a')], multiplier: '0.9' }, /below 1/],
  ['a negative return fee', { returned: [refunded('a')], returnFee: -100 }, /return fee/],
  ['a fractional upsell price', { returned: [refunded('a')], upsellPrice: 10.5 }, /upsell/],
])('computeRefund: %s throws RangeError', (_name, more, message) => {
  const run = () => computeRefund(input(order([line('a', 1000, 2)]), more.returned, more))
  expect(run).toThrow(RangeError)
  expect(run).toThrow(message)
})

test('computeRefund: a malformed tax rate throws RangeError naming the line', () => {
  expect(() => computeRefund(input(order([line('a', 1000, 1, '19%')]), [refunded('a')]))).toThrow(
    /line a: tax rate "19%"/,
  )
})

/** Random orders: up to 6 lines, tax rates 0 to 30 %, any discount, any mix of refunded and exchanged units. */
const randomInput = fc
  .record({
    lines: fc.array(
      fc.record({
        price: fc.nat(100_000),
        quantity: fc.integer({ min: 1, max: 5 }),
        rate: fc.nat(300),
        kept: fc.nat(),
        swapped: fc.nat(),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    pricesIncludeTax: fc.boolean(),
    discountSeed: fc.nat(),
    returnFee: fc.nat(2000),
    multiplier: fc.option(fc.nat(150).map((m) => `1.${String(m).padStart(3, '0')}`)),
    refundMethod: fc.constantFrom('original_payment' as const, 'store_credit' as const, null),
    upsellPrice: fc.oneof(fc.constant(0), fc.nat(50_000)),
  })
  .map(({ lines, discountSeed, pricesIncludeTax, ...rest }): RefundInput => {
    const priced = lines.map((l, i) => line(`l${i}`, l.price, l.quantity, `0.${String(l.rate).padStart(3, '0')}`))
    const total = lines.reduce((sum, l) => sum + l.price * l.quantity, 0)
    const returned = lines.flatMap((l, i) => {
      const back = l.kept % (l.quantity + 1)
      const swap = l.swapped % (l.quantity - back + 1)
      return [...(back ? [refunded(`l${i}`, back)] : []), ...(swap ? [exchanged(`l${i}`, swap)] : [])]
    })
    return { order: { pricesIncludeTax, discount: discountSeed % (total + 1), lines: priced }, returned, ...rest }
  })

/** The exact gross (what the refunded units cost) and tax, as unreduced bigint fractions. */
function exactRefund({ order: pricing, returned }: RefundInput) {
  const shares = allocateDiscount(pricing)
  let gross = { num: 0n, den: 1n }
  let tax = { num: 0n, den: 1n }
  const plus = (a: typeof gross, num: bigint, den: bigint) => ({ num: a.num * den + num * a.den, den: a.den * den })
  for (const item of returned.filter((r) => !r.exchanged)) {
    const l = pricing.lines.find((candidate) => candidate.id === item.lineId)!
    const rate = parseRate(l.taxRate)
    const net = BigInt(l.unitPrice * l.quantity - shares.get(l.id)!) * BigInt(item.quantity)
    const taxDen = pricing.pricesIncludeTax ? BigInt(l.quantity) * (rate.den + rate.num) : BigInt(l.quantity) * rate.den
    tax = plus(tax, net * rate.num, taxDen)
    gross = plus(gross, net, BigInt(l.quantity))
    if (!pricing.pricesIncludeTax) gross = plus(gross, net * rate.num, taxDen)
  }
  return { gross, tax }
}

/** How far a rounded figure lies above an exact fraction, in units of 1/den: 0 <= it < den means within [0, 1) minor unit. */
const above = (rounded: number, exact: { num: bigint; den: bigint }) => BigInt(rounded) * exact.den - exact.num

test('allocateDiscount, random orders: shares sum exactly to the discount, each within one unit of its exact share', () => {
  fc.assert(
    fc.property(randomInput, ({ order: pricing }) => {
      const shares = allocateDiscount(pricing)
      const totals = pricing.lines.map((l) => BigInt(l.unitPrice * l.quantity))
      const sum = totals.reduce((a, b) => a + b, 0n)
      expect([...shares.values()].reduce((a, b) => a + b, 0)).toBe(pricing.discount)
      pricing.lines.forEach((l, i) => {
        const error = BigInt(shares.get(l.id)!) * sum - BigInt(pricing.discount) * totals[i]!
        // an all-free order has nothing to discount: every share is 0
        expect(sum === 0n ? error === 0n : error < sum && error > -sum).toBe(true)
      })
    }),
    { numRuns: 1000 },
  )
})

test('computeRefund, random orders: each figure rounded up by less than one minor unit, and the figures add up', () => {
  fc.assert(
    fc.property(randomInput, (refundInput) => {
      const figures = computeRefund(refundInput)
      const { gross, tax } = exactRefund(refundInput)
      const itemsAndTax = figures.itemsSubtotal + figures.tax
      expect(above(itemsAndTax, gross) >= 0n && above(itemsAndTax, gross) < gross.den).toBe(true)
      expect(above(figures.tax, tax) >= 0n && above(figures.tax, tax) < tax.den).toBe(true)
      expect(figures.itemsSubtotal).toBeGreaterThanOrEqual(0)
      expect(figures.returnFee).toBe(
        refundInput.returned.some((r) => !r.exchanged) ? Math.min(refundInput.returnFee, itemsAndTax) : 0,
      )
      const refund = itemsAndTax - figures.returnFee
      const upsell = refundInput.upsellPrice
      const m = refundInput.multiplier === null ? { num: 1n, den: 1n } : parseRate(refundInput.multiplier)
      // The credit: the refund times the multiplier, rounded up once.
      const credit = { num: BigInt(refund) * m.num, den: m.den }
      expect(above(figures.credit, credit) >= 0n && above(figures.credit, credit) < credit.den).toBe(true)
      // What the new item leaves: as store credit exactly credit − price; to the original payment
      // refund − price / multiplier, rounded up once; both 0 when the item takes it all.
      expect(figures.storeCreditValue).toBe(
        refundInput.multiplier === null ? null : Math.max(0, figures.credit - upsell),
      )
      const left = { num: BigInt(refund) * m.num - BigInt(upsell) * m.den, den: m.num }
      if (left.num <= 0n) expect(figures.refundValue).toBe(0)
      else expect(above(figures.refundValue, left) >= 0n && above(figures.refundValue, left) < left.den).toBe(true)
      if (upsell === 0) expect(figures.refundValue).toBe(refund)
      expect(figures.refundValue).toBeLessThanOrEqual(figures.storeCreditValue ?? figures.refundValue)
      expect(figures.bonus).toBeGreaterThanOrEqual(0)
      expect(figures.total).toBe(
        refundInput.refundMethod === 'store_credit'
          ? (figures.storeCreditValue ?? figures.refundValue)
          : figures.refundValue,
      )
      // The breakdown adds up whenever the new item fits the credit (priceReturn refuses it otherwise).
      if (upsell <= figures.credit) expect(refund + figures.bonus - upsell).toBe(figures.total)
    }),
    { numRuns: 2000 },
  )
})

test('computeRefund, random orders returned whole: the refund is exactly what was paid, no drift', () => {
  fc.assert(
    fc.property(randomInput, (refundInput) => {
      const { order: pricing } = refundInput
      const figures = computeRefund({
        ...refundInput,
        returned: pricing.lines.map((l) => refunded(l.id, l.quantity)),
        returnFee: 0,
      })
      const paid = pricing.lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0) - pricing.discount
      expect(pricing.pricesIncludeTax ? figures.itemsSubtotal + figures.tax : figures.itemsSubtotal).toBe(paid)
    }),
    { numRuns: 1000 },
  )
})
