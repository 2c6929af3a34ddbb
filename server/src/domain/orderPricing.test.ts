import { unitPricesPaid } from './orderPricing'

describe('unitPricesPaid', () => {
  test.each([
    ['no discount: the unit price', 0, [{ id: 'a', quantity: 2, unitPrice: 2500, taxRate: '0.19' }], { a: 2500 }],
    [
      'a 10.00 discount over 40.00 and 60.00 lines: 4.00 and 6.00 off',
      1000,
      [
        { id: 'a', quantity: 2, unitPrice: 2000, taxRate: '0.19' },
        { id: 'b', quantity: 1, unitPrice: 6000, taxRate: '0.19' },
      ],
      { a: 1800, b: 5400 },
    ],
    [
      'a share that does not divide by the units is rounded up, in the shopper’s favour',
      100,
      [{ id: 'a', quantity: 3, unitPrice: 1000, taxRate: '0' }],
      { a: 967 },
    ],
  ])('%s', (_name, discount, lines, expected) => {
    expect(Object.fromEntries(unitPricesPaid({ pricesIncludeTax: true, discount, lines }))).toEqual(expected)
  })
})
