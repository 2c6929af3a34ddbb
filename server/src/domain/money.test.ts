import fc from 'fast-check'
import { fromMinor, minorDigits, moneyBag, parseRate, toMinor } from './money'

test.each([
  ['EUR', 2],
  ['USD', 2],
  ['JPY', 0],
  ['KWD', 3],
])('minorDigits: %s has %i decimals', (currency, digits) => {
  expect(minorDigits(currency)).toBe(digits)
})

test('minorDigits: an unknown currency code throws RangeError', () => {
  expect(() => minorDigits('EURO')).toThrow(RangeError)
})

test.each([
  ['cents', '19.99', 'EUR', 1999],
  ['a float trap (0.29 * 100 is 28.999…)', '0.29', 'EUR', 29],
  ['one decimal is padded', '25.5', 'EUR', 2550],
  ['no decimals', '25', 'EUR', 2500],
  ['zero', '0.00', 'EUR', 0],
  ['leading zeros', '007.50', 'EUR', 750],
  ['yen have no decimals', '1500', 'JPY', 1500],
  ['dinar have three', '1.234', 'KWD', 1234],
  ['large amounts stay exact', '90071992547409.91', 'EUR', 9007199254740991],
])('toMinor: %s, "%s" %s is %i', (_name, amount, currency, minor) => {
  expect(toMinor(amount, currency)).toBe(minor)
})

test.each([
  ['negative', '-1.00', 'EUR'],
  ['empty', '', 'EUR'],
  ['comma decimal', '1,50', 'EUR'],
  ['exponent', '1e3', 'EUR'],
  ['plus sign', '+1.00', 'EUR'],
  ['surrounding space', ' 1.00', 'EUR'],
  ['trailing point', '1.', 'EUR'],
  ['leading point', '.5', 'EUR'],
  ['three decimals in euros', '1.005', 'EUR'],
  ['any decimal in yen', '1500.0', 'JPY'],
  ['beyond safe integers', '90071992547409.92', 'EUR'],
  ['unknown currency', '1.00', 'EURO'],
])('toMinor: %s ("%s" %s) throws RangeError', (_name, amount, currency) => {
  expect(() => toMinor(amount, currency)).toThrow(RangeError)
})

test.each([
  [2500, 'EUR', '25.00'],
  [1999, 'EUR', '19.99'],
  [5, 'EUR', '0.05'],
  [0, 'EUR', '0.00'],
  [-5, 'EUR', '-0.05'],
  [1500, 'JPY', '1500'],
  [0, 'JPY', '0'],
  [1234, 'KWD', '1.234'],
  [7, 'KWD', '0.007'],
])('fromMinor: %i %s is "%s"', (minor, currency, amount) => {
  expect(fromMinor(minor, currency)).toBe(amount)
})

test.each([[1.5], [Number.NaN], [Number.MAX_SAFE_INTEGER + 1]])(
  'fromMinor: %d is not whole minor units and throws RangeError',
  (minor) => {
    expect(() => fromMinor(minor, 'EUR')).toThrow(RangeError)
  },
)

test('fromMinor and toMinor: round trip for any amount in any digit count', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.constantFrom('EUR', 'JPY', 'KWD'),
      (minor, currency) => {
        expect(toMinor(fromMinor(minor, currency), currency)).toBe(minor)
      },
    ),
  )
})

test('moneyBag: shop and presentment money are the same amount in the shop currency', () => {
  const money = { amount: '45.00', currency_code: 'EUR' }
  expect(moneyBag(4500, 'EUR')).toEqual({ shop_money: money, presentment_money: money })
})

test.each([
  ['0.19', 19n, 100n],
  ['0.075', 75n, 1000n],
  ['1.1', 11n, 10n],
  ['0', 0n, 1n],
  ['2', 2n, 1n],
])('parseRate: "%s" is exactly %i/%i', (rate, num, den) => {
  expect(parseRate(rate)).toEqual({ num, den })
})

test.each([['-0.19'], ['19%'], ['0,19'], [''], ['.5'], ['1e-1']])('parseRate: "%s" throws RangeError', (rate) => {
  expect(() => parseRate(rate)).toThrow(RangeError)
})
