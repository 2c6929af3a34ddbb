import { keepsItem, keepThreshold } from './keepItems'
import { computeRefund, type RefundInput, type ReturnedLine } from './refund'

test.each([
  ['below the threshold, refunded: kept', 990, 1000, false, true],
  ['equal to the threshold: sent back', 1000, 1000, false, false],
  ['above the threshold: sent back', 1001, 1000, false, false],
  ['below the threshold but exchanged: sent back', 990, 1000, true, false],
  ['no threshold: sent back', 1, null, false, false],
  ['a free item with a threshold: kept', 0, 1, false, true],
])('keepsItem: %s', (_name, unitPaid, threshold, exchanged, expected) => {
  expect(keepsItem({ unitPaid, threshold, exchanged })).toBe(expected)
})

test.each([
  [{ return_window_days: 30, return_fee: '0', prices_include_tax: true, upsell_enabled: false }, null],
  [
    {
      return_window_days: 30,
      return_fee: '0',
      prices_include_tax: true,
      upsell_enabled: false,
      keep_item_below: '10.00',
    },
    1000,
  ],
  [
    { return_window_days: 30, return_fee: '0', prices_include_tax: true, upsell_enabled: false, keep_item_below: '0' },
    0,
  ],
])('keepThreshold(%j) is %p', (settings, expected) => {
  expect(keepThreshold(settings, 'EUR')).toBe(expected)
})

const order = {
  pricesIncludeTax: true,
  discount: 0,
  lines: [
    { id: 'socks', quantity: 3, unitPrice: 333, taxRate: '0.19' },
    { id: 'coat', quantity: 1, unitPrice: 9000, taxRate: '0.19' },
  ],
}
const input = (returned: ReturnedLine[]): RefundInput => ({
  order,
  returned,
  returnFee: 395,
  multiplier: null,
  refundMethod: null,
  upsellPrice: 0,
})
const kept = (lineId: string, quantity: number): ReturnedLine => ({ lineId, quantity, exchanged: false, kept: true })
const sent = (lineId: string, quantity: number): ReturnedLine => ({ lineId, quantity, exchanged: false })

test.each<[string, ReturnedLine[], { returnFee: number; keptValue: number; refundValue: number }]>([
  [
    'every refunded unit kept: no fee, kept value is the whole refund',
    [kept('socks', 3)],
    { returnFee: 0, keptValue: 999, refundValue: 999 },
  ],
  [
    'kept and sent: the fee for the parcel, kept value its part',
    [kept('socks', 2), sent('coat', 1)],
    { returnFee: 395, keptValue: 666, refundValue: 666 + 9000 - 395 },
  ],
  ['nothing kept: kept value zero', [sent('coat', 1)], { returnFee: 395, keptValue: 0, refundValue: 9000 - 395 }],
  [
    'a kept item beside an exchange: no fee (nothing refunded is sent)',
    [kept('socks', 1), { lineId: 'coat', quantity: 1, exchanged: true }],
    { returnFee: 0, keptValue: 333, refundValue: 333 },
  ],
])('computeRefund with kept units: %s', (_name, returned, expected) => {
  const figures = computeRefund(input(returned))
  expect(figures).toMatchObject(expected)
  expect(figures.keptValue).toBeLessThanOrEqual(figures.itemsSubtotal + figures.tax)
})

test('computeRefund: an exchanged line marked kept is an impossible return', () => {
  expect(() => computeRefund(input([{ lineId: 'socks', quantity: 1, exchanged: true, kept: true }]))).toThrow(
    /cannot be kept/,
  )
})
