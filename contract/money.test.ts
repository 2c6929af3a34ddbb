import fc from 'fast-check'
import {
  formatMoney,
  formatShopperMoney,
  fromMinor,
  minorDigits,
  moneyBag,
  moneyOf,
  parseRate,
  readMinor,
  sumMoney,
  toMinor,
} from './money'

const eur = (amount: string) => ({ amount, currency_code: 'EUR' })
const kwd = (amount: string) => ({ amount, currency_code: 'KWD' })
const spaced = (text: string) => text.replace(/\u00a0/g, ' ')

test.each([
  ['EUR', 2],
  ['USD', 2],
  ['JPY', 0],
  ['KWD', 3],
  ['BHD', 3],
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
  ['19.99', 'EUR', 1999],
  ['-3.95', 'EUR', -395],
  ['0.3', 'EUR', 30],
  ['1500', 'JPY', 1500],
  ['1.250', 'KWD', 1250],
  ['3', 'NOPE', 300],
])('readMinor: "%s" %s is %i', (amount, currency_code, minor) => {
  expect(readMinor({ amount, currency_code })).toBe(minor)
})

test.each([[''], ['abc'], ['1,50'], ['1.999'], ['1e3'], [' 1.00'], ['99999999999999999.00']])(
  'readMinor: %p is no amount',
  (amount) => {
    expect(readMinor(eur(amount))).toBeNull()
  },
)

test.each([
  [2500, 'EUR', '25.00'],
  [5, 'EUR', '0.05'],
  [-5, 'EUR', '-0.05'],
  [1500, 'JPY', '1500'],
  [0, 'JPY', '0'],
  [1234, 'KWD', '1.234'],
  [7, 'KWD', '0.007'],
])('fromMinor: %i %s is "%s"', (minor, currency, amount) => {
  expect(fromMinor(minor, currency)).toBe(amount)
  expect(moneyOf(minor, currency)).toEqual({ amount, currency_code: currency })
})

test.each([[1.5], [Number.NaN], [Number.MAX_SAFE_INTEGER + 1]])('fromMinor: %d throws RangeError', (minor) => {
  expect(() => fromMinor(minor, 'EUR')).toThrow(RangeError)
})

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
  expect(moneyBag(4500, 'EUR')).toEqual({ shop_money: eur('45.00'), presentment_money: eur('45.00') })
})

describe('sumMoney', () => {
  test('adds in minor units: ten times 0.10 is exactly 1.00', () => {
    expect(
      sumMoney(
        Array.from({ length: 10 }, () => eur('0.10')),
        'EUR',
      ),
    ).toEqual(eur('1.00'))
  })

  test('keeps a three-decimal currency’s last digit', () => {
    expect(sumMoney([kwd('1.255'), kwd('0.001'), kwd('2')], 'KWD')).toEqual(kwd('3.256'))
  })

  test('of nothing is zero', () => {
    expect(sumMoney([], 'JPY')).toEqual({ amount: '0', currency_code: 'JPY' })
  })

  test.each([
    ['another currency', { amount: '1.00', currency_code: 'USD' }],
    ['no amount', eur('abc')],
  ])('refuses %s rather than skip it', (_name, money) => {
    expect(() => sumMoney([eur('1.00'), money], 'EUR')).toThrow(RangeError)
  })
})

test.each([
  ['0.19', 19n, 100n],
  ['0.075', 75n, 1000n],
  ['1.1', 11n, 10n],
  ['0', 0n, 1n],
])('parseRate: "%s" is exactly %i/%i', (rate, num, den) => {
  expect(parseRate(rate)).toEqual({ num, den })
})

test.each([['-0.19'], ['19%'], ['0,19'], [''], ['.5'], ['1e-1']])('parseRate: "%s" throws RangeError', (rate) => {
  expect(() => parseRate(rate)).toThrow(RangeError)
})

test.each([
  [kwd('1.255'), 'en', 'KWD 1.255'],
  [kwd('3'), 'en', 'KWD 3.000'],
  [{ amount: '1500', currency_code: 'JPY' }, 'en', '¥1,500'],
  [eur('45'), 'en', '€45.00'],
  [eur('11.5'), 'de', '11,50 €'],
  [eur('90071992547409.91'), 'en', '€90,071,992,547,409.91'],
  [{ amount: '3', currency_code: 'NOPE' }, 'en', '3.00 NOPE'],
])('formatMoney (staff): %j in %s is %s, with the currency’s decimals', (money, locale, expected) => {
  expect(spaced(formatMoney(money, locale))).toBe(expected)
})

test.each([
  [eur('45'), 'en', '€45.00'],
  [eur('11.5'), 'de', '11,50 €'],
  [{ amount: '1234.5', currency_code: 'USD' }, 'en', '$1,234.50'],
  [{ amount: '100', currency_code: 'JPY' }, 'en', '¥100.00'],
  [{ amount: '3', currency_code: 'NOPE' }, 'en', '3.00 NOPE'],
])('formatShopperMoney: %j in %s is %s, always 2 decimals (rules §13.2)', (money, locale, expected) => {
  expect(spaced(formatShopperMoney(money, locale))).toBe(expected)
})
