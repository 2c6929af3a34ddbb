import { buildLineItem, money } from '../../testing/builders'
import { blockedReason, blockedRule, formatOrderDate, productRows } from './productRows'

test.each([
  ['final sale', { ineligible_reason: 'final_sale', returnable_quantity: 0 }, 'ineligible.final_sale'],
  [
    'return window closed',
    { ineligible_reason: 'return_window_closed', returnable_quantity: 0 },
    'ineligible.return_window_closed',
  ],
  [
    'already returned',
    { ineligible_reason: 'already_returned', returnable_quantity: 0 },
    'ineligible.already_returned',
  ],
  ['not delivered', { ineligible_reason: 'not_fulfilled', returnable_quantity: 0 }, 'ineligible.not_fulfilled'],
  ['no reason but nothing left', { ineligible_reason: null, returnable_quantity: 0 }, 'ineligible.nothingLeft'],
  ['returnable', { ineligible_reason: null, returnable_quantity: 2 }, null],
] as const)('blockedReason: %s', (_name, line, expected) => {
  expect(blockedReason(line)).toBe(expected)
})

test.each([
  ['a final-sale rule', { ineligible_reason: 'final_sale', ineligible_rule: 'Swimwear' }, 'Swimwear'],
  ['a window rule', { ineligible_reason: 'return_window_closed', ineligible_rule: ' Sale items ' }, 'Sale items'],
  ['no rule', { ineligible_reason: 'final_sale' }, null],
  ['an empty rule', { ineligible_reason: 'final_sale', ineligible_rule: '  ' }, null],
  ['a rule on a returnable line', { ineligible_reason: null, ineligible_rule: 'Swimwear' }, null],
] as const)('blockedRule: %s', (_name, line, expected) => {
  expect(blockedRule(line)).toBe(expected)
})

test('productRows: an ineligible item offers no units even if the server sent some', () => {
  const [row] = productRows([buildLineItem({ ineligible_reason: 'final_sale', returnable_quantity: 2 })], 'en')
  expect(row).toMatchObject({ maxQuantity: 0, blockedReason: 'ineligible.final_sale', blockedRule: null })
})

test('productRows: a rule goes with its reason, and only with one', () => {
  const rows = productRows(
    [
      buildLineItem({ ineligible_reason: 'final_sale', ineligible_rule: 'Swimwear', returnable_quantity: 0 }),
      buildLineItem({ ineligible_reason: null, ineligible_rule: 'Swimwear', returnable_quantity: 0 }),
    ],
    'en',
  )
  expect(rows.map(({ blockedReason, blockedRule }) => [blockedReason, blockedRule])).toEqual([
    ['ineligible.final_sale', 'Swimwear'],
    ['ineligible.nothingLeft', null],
  ])
})

test('productRows: prices are formatted in the given language and images kept only when http(s)', () => {
  const rows = productRows(
    [
      buildLineItem({ price: money('1234.5'), product_src: 'https://cdn.example.com/a.png' }),
      buildLineItem({ price: money('1234.5'), product_src: 'data:image/png;base64,AA' }),
    ],
    'de',
  )
  expect(rows.map((row) => [row.price.replace(/\s/g, ' '), row.image])).toEqual([
    ['1.234,50 €', 'https://cdn.example.com/a.png'],
    ['1.234,50 €', null],
  ])
})

test.each([
  ['en', 'November 10, 2026'],
  ['de', '10. November 2026'],
  ['not a language!', 'November 10, 2026'],
])('formatOrderDate in %s', (locale, expected) => {
  expect(formatOrderDate('2026-11-10T10:00:00.000Z', locale)).toBe(expected)
})

test('formatOrderDate: not a date gives null', () => {
  expect(formatOrderDate('yesterday', 'en')).toBeNull()
})
