import type { ReturnStatusRefund } from '../../../contract/api'
import type { InspectionRequest } from '../../../contract/staff'
import {
  deductionMinor,
  deductionPercent,
  dropOffCode,
  heldExchanges,
  holdingConditions,
  inspectionProblems,
  mergedDeductions,
  planInspection,
  refundAfterDeductions,
  refundedWithInspection,
  returnNumber,
  reviewRefusal,
  type InspectableLine,
  type PricedLine,
  type SettledLine,
} from './inspection'
import { qrCodeValue } from './label'
import { lessDeductions } from './returnStatus'

type Item = InspectionRequest['items'][number]
const item = (line_item_id: string, overrides: Partial<Item> = {}): Item => ({
  line_item_id,
  condition: 'opened',
  disposition: 'refurbish',
  ...overrides,
})
/** An item inspected unit by unit. */
const byUnit = (line_item_id: string, units: NonNullable<Item['units']>, overrides: Partial<Item> = {}): Item => ({
  line_item_id,
  units,
  ...overrides,
})

describe('deductionMinor', () => {
  it.each([
    ['10% of 45.00', 4500, 10, 450],
    ['10% of 19.99 rounds down', 1999, 10, 199],
    ['33% of 10.01 rounds down', 1001, 33, 330],
    ['50% of 0.01 is nothing', 1, 50, 0],
    ['0% takes nothing', 4500, 0, 0],
    ['100% takes it all', 4500, 100, 4500],
    ['no float error on the largest amount', Number.MAX_SAFE_INTEGER, 100, Number.MAX_SAFE_INTEGER],
    ['no float error on 7% of 1.00', 100, 7, 7],
  ])('%s', (_name, paid, percent, expected) => {
    expect(deductionMinor(paid, percent)).toBe(expected)
  })
})

describe('deductionPercent', () => {
  it.each([
    ['a condition the policy names', { opened: 10, damaged: 50 }, 'damaged', 50],
    ['a condition it does not name takes nothing', { opened: 10 }, 'wrong_item', 0],
    ['as new, named with 0', { as_new: 0 }, 'as_new', 0],
    ['no deductions in the policy', undefined, 'opened', 0],
  ] as const)('%s', (_name, deductions, condition, expected) => {
    expect(deductionPercent(deductions, condition)).toBe(expected)
  })
})

describe('refundAfterDeductions', () => {
  it.each([
    ['nothing taken', 5000, [], 5000],
    ['one deduction', 5000, [450], 4550],
    ['several', 5000, [450, 1000], 3550],
    ['never below zero', 1000, [300, 800], 0],
  ])('%s', (_name, before, deductions, expected) => {
    expect(refundAfterDeductions(before, deductions)).toBe(expected)
  })
})

describe('reviewRefusal', () => {
  it.each([
    ['never flagged', null, null],
    ['approved', 'approved', null],
    ['waiting for review', 'pending', /waiting for review/],
    ['rejected', 'rejected', /rejected/],
  ] as const)('%s', (_name, review, expected) => {
    const refusal = reviewRefusal(review)
    if (expected === null) expect(refusal).toBeNull()
    else expect(refusal).toMatch(expected)
  })
})

describe('inspectionProblems', () => {
  const line = (overrides: Partial<InspectableLine> = {}): InspectableLine => ({
    kept: false,
    state: 'in_transit',
    inspected: false,
    quantity: 1,
    ...overrides,
  })
  const lines = new Map<string, InspectableLine>([
    ['sent', line()],
    ['pair', line({ quantity: 2 })],
    ['arrived', line({ state: 'received' })],
    ['waiting', line({ state: 'requested' })],
    ['kept', line({ kept: true, state: 'refunded' })],
    ['done', line({ state: 'received', inspected: true })],
    ['paid', line({ state: 'refunded' })],
  ])
  const photos = new Map([
    ['photo-of-sent', 'sent'],
    ['photo-of-arrived', 'arrived'],
  ])
  it.each([
    ['items on their way, arrived or not yet sent', [item('sent'), item('arrived'), item('waiting')], []],
    ['a photo staff took of the item', [item('sent', { photo_ids: ['photo-of-sent'] })], []],
    ['an unknown line', [item('other')], ['items[0].line_item_id: "other" is not an item of this return']],
    [
      'a kept item',
      [item('sent'), item('kept')],
      ['items[1].line_item_id: "kept" is kept by the shopper (never sent back), so it is not inspected'],
    ],
    ['an item inspected before', [item('done')], ['items[0].line_item_id: "done" is already inspected']],
    ['an item refunded already', [item('paid')], ['items[0].line_item_id: "paid" is already refunded']],
    ['a line listed twice', [item('sent'), item('sent')], ['items[1].line_item_id: "sent" is listed twice']],
    [
      "a photo of another item, and one that is not the return's",
      [item('sent', { photo_ids: ['photo-of-arrived', 'shoppers-photo'] })],
      [
        'items[0].photo_ids[0]: "photo-of-arrived" is not a photo staff took of this item of this return',
        'items[0].photo_ids[1]: "shoppers-photo" is not a photo staff took of this item of this return',
      ],
    ],
    [
      'each unit of a pair',
      [byUnit('pair', [{ condition: 'as_new', disposition: 'restock' }, { condition: 'missing' }])],
      [],
    ],
    [
      'units not one for each unit returned',
      [byUnit('pair', [{ condition: 'as_new', disposition: 'restock' }])],
      ['items[0].units: one for each of the 2 units returned, not 1'],
    ],
    [
      'a unit without its disposition',
      [byUnit('pair', [{ condition: 'as_new', disposition: 'restock' }, { condition: 'damaged' }])],
      ['items[0].units[1].disposition: say what becomes of the item (restock, refurbish or dispose)'],
    ],
    [
      "the line's condition and its units' too",
      [item('pair', { units: [{ condition: 'as_new', disposition: 'restock' }, { condition: 'missing' }] })],
      ['items[0]: give the condition of the item or of each of its units, not both'],
    ],
    ['neither', [{ line_item_id: 'pair' }], ['items[0].condition: say what condition the item came back in']],
    [
      'every problem, each named',
      [item('other'), item('kept'), item('done')],
      [
        'items[0].line_item_id: "other" is not an item of this return',
        'items[1].line_item_id: "kept" is kept by the shopper (never sent back), so it is not inspected',
        'items[2].line_item_id: "done" is already inspected',
      ],
    ],
  ])('%s', (_name, items, expected) => {
    expect(inspectionProblems(items, lines, photos)).toEqual(expected)
  })
})

describe('planInspection', () => {
  const priced = (overrides: Partial<PricedLine> = {}): PricedLine => ({
    unitPaidMinor: 4500,
    quantity: 1,
    exchanged: false,
    catalogueVariantId: 'tee-m',
    ...overrides,
  })
  const lines = new Map<string, PricedLine>([
    ['tee', priced()],
    ['swap', priced({ exchanged: true })],
    ['gone', priced({ catalogueVariantId: null })],
    ['pair', priced({ unitPaidMinor: 1999, quantity: 2 })],
  ])
  const policy = { deductions: { opened: 10, damaged: 50 } }
  it.each([
    ['opened: 10% of 45.00', item('tee'), true, { percent: 10, deduction_minor: 450 }],
    // 10% of 19.99 is 1.999: 1.99 for each unit (decision 0085), not 3.99 for the two.
    ['two units, each rounded down', item('pair'), true, { percent: 10, deduction_minor: 398, quantity: 2, unit: 0 }],
    [
      'as new: the policy names nothing',
      item('tee', { condition: 'as_new' }),
      true,
      { percent: 0, deduction_minor: 0 },
    ],
    ['an exchange refunds nothing to take from', item('swap'), true, { percent: 0, deduction_minor: 0 }],
    ['a return that refunds nothing', item('tee', { condition: 'damaged' }), false, { percent: 0, deduction_minor: 0 }],
    [
      'restock: the variant goes back on sale',
      item('tee', { disposition: 'restock' }),
      true,
      { restock_variant_id: 'tee-m' },
    ],
    [
      'restock of a variant not in the catalogue',
      item('gone', { disposition: 'restock' }),
      true,
      { restock_variant_id: null },
    ],
    ['dispose: nothing restocked', item('tee', { disposition: 'dispose' }), true, { restock_variant_id: null }],
    ['a note trimmed; a blank one is none', item('tee', { note: '   ' }), true, { note: null }],
    ['photos kept in order', item('tee', { photo_ids: ['b', 'a'] }), true, { photo_ids: ['b', 'a'] }],
    [
      'missing: all of it taken unless the shop says otherwise, nothing restocked, never arrived',
      item('tee', { condition: 'missing', disposition: 'restock' }),
      true,
      { percent: 100, deduction_minor: 4500, disposition: null, restock_variant_id: null, arrived: false },
    ],
    ['an exchange found to be the wrong item is held', item('swap', { condition: 'wrong_item' }), true, { held: true }],
    ['an exchange found missing is held', item('swap', { condition: 'missing' }), true, { held: true }],
    ['an exchange found opened goes on', item('swap'), true, { held: false, arrived: true }],
    ['a refund is never held', item('tee', { condition: 'wrong_item' }), true, { held: false }],
  ])('%s', (_name, request, refunds, expected) => {
    const [planned] = planInspection([request], lines, policy, refunds)
    // A line inspected as a whole is one unit row, unit 0, standing for every unit.
    expect(planned!.units).toHaveLength(1)
    expect({ ...planned, ...planned!.units[0] }).toMatchObject(expected)
  })

  describe('unit by unit', () => {
    const units = new Map<string, PricedLine>([
      ['three', priced({ unitPaidMinor: 1999, quantity: 3 })],
      ['swap', priced({ exchanged: true, quantity: 2 })],
    ])
    const plan = (request: Item, refunds = true) => planInspection([request], units, policy, refunds)[0]!

    it("takes each unit's percent of its own price, rounded down, and sums them", () => {
      const planned = plan(
        byUnit('three', [
          { condition: 'damaged', disposition: 'dispose' },
          { condition: 'opened', disposition: 'refurbish' },
          { condition: 'as_new', disposition: 'restock' },
        ]),
      )
      // 50% of 19.99 is 9.995, 10% is 1.999: 9.99 + 1.99 + 0.
      expect(planned.units.map((unit) => [unit.unit, unit.quantity, unit.percent, unit.deduction_minor])).toEqual([
        [1, 1, 50, 999],
        [2, 1, 10, 199],
        [3, 1, 0, 0],
      ])
      expect(planned.deduction_minor).toBe(1198)
    })

    it('restocks only the restocked units: the line names its variant when one is', () => {
      const planned = plan(
        byUnit('three', [
          { condition: 'damaged', disposition: 'dispose' },
          { condition: 'as_new', disposition: 'restock' },
          { condition: 'missing', disposition: 'restock' },
        ]),
      )
      expect(planned.units.map((unit) => [unit.disposition, unit.restock_variant_id])).toEqual([
        ['dispose', null],
        ['restock', 'tee-m'],
        [null, null],
      ])
      expect(planned).toMatchObject({ restock_variant_id: 'tee-m', arrived: true, held: false })
    })

    it('an item is received when any unit came back, not when every one is missing', () => {
      expect(plan(byUnit('swap', [{ condition: 'missing' }, { condition: 'missing' }])).arrived).toBe(false)
    })

    it('holds an exchange when any unit is in a holding condition, named by the first', () => {
      const held = plan(
        byUnit('swap', [
          { condition: 'as_new', disposition: 'restock' },
          { condition: 'wrong_item', disposition: 'dispose' },
        ]),
      )
      expect(held).toMatchObject({ held: true, held_condition: 'wrong_item', deduction_minor: 0 })
      const fine = plan(
        byUnit('swap', [
          { condition: 'as_new', disposition: 'restock' },
          { condition: 'opened', disposition: 'restock' },
        ]),
      )
      expect(fine).toMatchObject({ held: false, held_condition: null })
    })

    it('takes nothing from a return that refunds nothing', () => {
      expect(
        plan(byUnit('three', [{ condition: 'missing' }, { condition: 'missing' }, { condition: 'missing' }]), false)
          .deduction_minor,
      ).toBe(0)
    })
  })
})

describe('mergedDeductions', () => {
  it('merges the units in one condition, leaves out those that take nothing, keeps the order found', () => {
    expect(
      mergedDeductions([
        { condition: 'damaged', percent: 50, deduction_minor: 999 },
        { condition: 'as_new', percent: 0, deduction_minor: 0 },
        { condition: 'opened', percent: 10, deduction_minor: 199 },
        { condition: 'damaged', percent: 50, deduction_minor: 999 },
      ]),
    ).toEqual([
      { condition: 'damaged', percent: 50, deduction_minor: 1998 },
      { condition: 'opened', percent: 10, deduction_minor: 199 },
    ])
  })
})

describe('heldExchanges', () => {
  const line = {
    line_item_id: 'swap',
    title: 'Tee · S',
    exchanged: true,
    exchange_variant_title: 'L',
    state: 'received' as const,
  }
  it.each([
    ['one unit of two in a holding condition', ['as_new', 'wrong_item'], 'wrong_item'],
    ['the first holding unit names it', ['missing', 'wrong_item'], 'missing'],
    ['no unit in one', ['as_new', 'opened'], null],
  ] as const)('%s', (_name, conditions, expected) => {
    const rows = conditions.map((condition) => ({ line_item_id: 'swap', condition }))
    expect(heldExchanges([line], rows, {}).map((held) => held.condition)).toEqual(expected ? [expected] : [])
  })
})

describe('dropOffCode', () => {
  it.each([
    ['as printed', 'RB-DY1MDQ2X', 'RB-DY1MDQ2X'],
    ['in lower case', 'rb-dy1mdq2x', 'RB-DY1MDQ2X'],
    ['without RB-', 'DY1MDQ2X', 'RB-DY1MDQ2X'],
    ['with spaces and dashes', ' RB DY1M-DQ2X ', 'RB-DY1MDQ2X'],
    ['I and L read as 1', 'RB-DYIMDQ2X', 'RB-DY1MDQ2X'],
    ['l read as 1', 'rb-dylmdq2x', 'RB-DY1MDQ2X'],
    ['O read as 0', 'RB-DYOMDQ2X', 'RB-DY0MDQ2X'],
    ['eight digits that start with R and B are the code itself', 'RB1MDQ2X', 'RB-RB1MDQ2X'],
    ['one digit short', 'RB-DY1MDQ2', null],
    ['one digit more', 'RB-DY1MDQ2XA', null],
    ['U is in no code', 'RB-DYUMDQ2X', null],
    ['a return number', '#1001-R1', null],
    ['empty', '  ', null],
  ])('%s', (_name, typed, expected) => {
    expect(dropOffCode(typed)).toBe(expected)
  })

  it.each(['3f1c2b9e-8d4a-4c1e-9b7a-2e5d6f8a9c01', 'b2c1-0000', 'another return'])(
    'reads the code of return %s as printed, and as typed in lower case',
    (id) => {
      const code = qrCodeValue(id)
      expect(dropOffCode(code)).toBe(code)
      expect(dropOffCode(code.toLowerCase().replace('rb-', ''))).toBe(code)
    },
  )
})

describe('returnNumber', () => {
  it.each([
    ['as the console shows it', '#1001-R1', { orderName: '1001', number: 1 }],
    ['without #', '1001-R2', { orderName: '1001', number: 2 }],
    ['in lower case, with spaces', ' #eu-1001-r12 ', { orderName: 'EU-1001', number: 12 }],
    ['no return part', '#1001', null],
    ['return 0', '#1001-R0', null],
    ['no order part', '#-R1', null],
    ['a number too long to be one', '#1001-R1234567890', null],
  ])('%s', (_name, typed, expected) => {
    expect(returnNumber(typed)).toEqual(expected)
  })
})

describe('lessDeductions', () => {
  const refund: ReturnStatusRefund = {
    method: 'original_payment',
    amount: { amount: '45.00', currency_code: 'EUR' },
    timing: null,
    expected: null,
  }
  const taken = (line_item_id: string, amount_minor: number) => ({
    line_item_id,
    title: 'Classic Tee',
    condition: 'opened' as const,
    percent: 10,
    amount_minor,
  })
  it.each([
    ['nothing inspected: as it was', refund, [], refund],
    ['deductions of nothing: as it was', refund, [taken('a', 0)], refund],
    ['no refund: none', null, [taken('a', 450)], null],
    [
      'one deduction: the amount after it, the deduction and the amount before',
      refund,
      [taken('a', 450), taken('b', 0)],
      {
        ...refund,
        amount: { amount: '40.50', currency_code: 'EUR' },
        deductions: [
          {
            line_item_id: 'a',
            title: 'Classic Tee',
            condition: 'opened',
            percent: 10,
            amount: { amount: '4.50', currency_code: 'EUR' },
          },
        ],
        before_deductions: refund.amount,
      },
    ],
    [
      'more than the refund: nothing back, never below',
      refund,
      [taken('a', 4000), taken('b', 4000)],
      expect.objectContaining({ amount: { amount: '0.00', currency_code: 'EUR' }, before_deductions: refund.amount }),
    ],
  ])('%s', (_name, given, deductions, expected) => {
    expect(lessDeductions(given, deductions)).toEqual(expected)
  })
})

describe('holdingConditions and refundedWithInspection', () => {
  it.each([
    ['a policy without hold', {}, ['wrong_item', 'missing']],
    ['a policy that adds damaged', { hold: ['damaged' as const] }, ['wrong_item', 'missing', 'damaged']],
  ])('%s holds %j', (_name, policy, expected) => {
    expect([...holdingConditions(policy)]).toEqual(expected)
  })

  const planned = (line_item_id: string, held = false) =>
    ({ ...planInspection([item(line_item_id)], new Map(), {}, false)[0]!, held }) as const
  const line = (line_item_id: string, overrides: Partial<SettledLine> = {}): SettledLine => ({
    line_item_id,
    state: 'requested',
    kept: false,
    held: false,
    inspected: false,
    ...overrides,
  })
  it.each([
    ['the items inspected now', [planned('a')], [line('a')], ['a']],
    ['a kept item with them', [planned('a')], [line('a'), line('mug', { kept: true })], ['a', 'mug']],
    ['not an exchange held now', [planned('a', true)], [line('a')], []],
    [
      'an item received earlier',
      [planned('a')],
      [line('a'), line('b', { state: 'received', inspected: true })],
      ['a', 'b'],
    ],
    [
      'not one held earlier',
      [planned('a')],
      [line('a'), line('b', { state: 'received', inspected: true, held: true })],
      ['a'],
    ],
    ['not one still to come', [planned('a')], [line('a'), line('b', { state: 'in_transit' })], ['a']],
    ['not one refunded already', [planned('a')], [line('a'), line('mug', { kept: true, state: 'refunded' })], ['a']],
  ])('refunds %s', (_name, now, lines, expected) => {
    expect(refundedWithInspection(now, lines)).toEqual(expected)
  })
})
