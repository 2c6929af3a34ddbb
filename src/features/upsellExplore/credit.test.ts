import { buildVariant, money } from '../../testing/builders'
import { fitsCredit, variantLabel } from './credit'

describe('fitsCredit', () => {
  test.each([
    ['cheaper', money('20.00'), money('27.50'), true],
    ['equal to the cent', money('27.50'), money('27.50'), true],
    ['one cent more', money('27.51'), money('27.50'), false],
    ['floating point edge', money('0.30'), money('0.3'), true],
    ['another currency', money('1.00', 'USD'), money('27.50'), false],
  ])('a price %s', (_name, price, credit, expected) => {
    expect(fitsCredit(price, credit)).toBe(expected)
  })

  test('falls back to the shop currency when the shopper paid in another', () => {
    const price = {
      shop_money: { amount: '20.00', currency_code: 'EUR' },
      presentment_money: { amount: '21.00', currency_code: 'CHF' },
    }
    expect(fitsCredit(price, money('25.00'))).toBe(true)
  })
})

describe('variantLabel', () => {
  test.each([
    ['one option', buildVariant({ options: [{ name: 'Size', value: 'M' }] }), 'Size M'],
    [
      'two options',
      buildVariant({
        options: [
          { name: 'Size', value: 'M' },
          { name: 'Colour', value: 'Blue' },
        ],
      }),
      'Size M, Colour Blue',
    ],
    ['no options', buildVariant({ title: 'One size', options: [] }), 'One size'],
  ])('%s', (_name, variant, expected) => {
    expect(variantLabel(variant)).toBe(expected)
  })
})
