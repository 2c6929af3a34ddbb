import { fromMinor, minorDigits, toMinor } from './money'

const eur = (amount: string) => ({ amount, currency_code: 'EUR' })

describe('toMinor', () => {
  test.each([
    ['19.99', 1999],
    // Parsed, not multiplied: 19.99 * 100 is 1998.9999999999998 in floating point.
    ['0.29', 29],
    ['0.3', 30],
    ['12', 1200],
    ['0.00', 0],
    ['-3.95', -395],
  ])('%s EUR is %d cents', (amount, minor) => {
    expect(toMinor(eur(amount))).toBe(minor)
  })

  test('follows the currency’s decimals', () => {
    expect(toMinor({ amount: '1500', currency_code: 'JPY' })).toBe(1500)
    expect(toMinor({ amount: '1.250', currency_code: 'KWD' })).toBe(1250)
  })

  test.each([[''], ['abc'], ['1,50'], ['1.999'], ['1e3'], [' 1.00'], ['99999999999999999.00']])(
    'reads %p as no amount',
    (amount) => {
      expect(toMinor(eur(amount))).toBeNull()
    },
  )
})

describe('fromMinor', () => {
  test.each([
    [1999, 'EUR', '19.99'],
    [5, 'EUR', '0.05'],
    [0, 'EUR', '0.00'],
    [-395, 'EUR', '-3.95'],
    [1500, 'JPY', '1500'],
    [1250, 'KWD', '1.250'],
  ])('%d %s is %s', (minor, currency, amount) => {
    expect(fromMinor(minor, currency)).toEqual({ amount, currency_code: currency })
  })

  test('gives back what toMinor read', () => {
    for (const amount of ['0.01', '10.15', '27.50', '1234.56'])
      expect(fromMinor(toMinor(eur(amount))!, 'EUR').amount).toBe(amount)
  })
})

test('an unknown currency code counts 2 decimals', () => {
  expect(minorDigits('NOPE')).toBe(2)
})
