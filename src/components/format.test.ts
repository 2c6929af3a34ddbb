import { bonusFraction, formatMoney, formatPercent } from './format'

test.each([
  [{ amount: '45', currency_code: 'EUR' }, 'en', '€45.00'],
  [{ amount: '11.5', currency_code: 'EUR' }, 'de', '11,50 €'],
  [{ amount: '1234.5', currency_code: 'USD' }, 'en', '$1,234.50'],
  [{ amount: '100', currency_code: 'JPY' }, 'en', '¥100.00'],
  [{ amount: '3', currency_code: 'NOPE' }, 'en', '3.00 NOPE'],
])('formatMoney(%j, %s) is %s', (money, locale, expected) => {
  expect(formatMoney(money, locale).replace(/\u00a0/g, ' ')).toBe(expected)
})

test.each([
  [0.1, 'en', '10%'],
  [0.125, 'en', '12.5%'],
  [0.1, 'de', '10 %'],
])('formatPercent(%s, %s) is %s', (fraction, locale, expected) => {
  expect(formatPercent(fraction, locale).replace(/\u00a0/g, ' ')).toBe(expected)
})

test.each([
  [1.1, 0.1],
  [1.25, 0.25],
  [1, 0],
  [null, 0],
  [undefined, 0],
  [0.9, 0],
])('bonusFraction(%s) is %s', (multiplier, expected) => {
  expect(bonusFraction(multiplier)).toBe(expected)
})
