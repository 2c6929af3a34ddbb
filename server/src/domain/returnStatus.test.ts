import { itemStates } from '../../../contract/constants'
import type { ReturnOrder, ReturnStatusItem } from '../../../contract/api'
import {
  addDays,
  expectedWindow,
  issuedAtSubmission,
  lineHistory,
  lineState,
  refundedUnreceived,
  staffMovePlan,
  statusRefund,
  transitionProblems,
} from './returnStatus'

const day = (iso: string) => new Date(`${iso}T12:00:00.000Z`)
const FRIDAY = day('2026-11-20')

describe('addDays', () => {
  test.each([
    ['0 business days is the day itself', FRIDAY, 0, true, '2026-11-20'],
    ['1 business day after a Friday is the Monday', FRIDAY, 1, true, '2026-11-23'],
    ['5 business days after a Friday is the next Friday', FRIDAY, 5, true, '2026-11-27'],
    ['10 business days after a Friday is two Fridays on', FRIDAY, 10, true, '2026-12-04'],
    ['1 business day after a Saturday is the Monday', day('2026-11-21'), 1, true, '2026-11-23'],
    ['3 calendar days after a Friday is the Monday', FRIDAY, 3, false, '2026-11-23'],
  ])('%s', (_name, from, days, business, expected) => {
    expect(addDays(from, days, business).toISOString().slice(0, 10)).toBe(expected)
  })
})

test('expectedWindow counts both ends from the anchor', () => {
  expect(expectedWindow({ from_days: 5, to_days: 10, business_days: true, after: 'receipt' }, FRIDAY)).toEqual({
    from: '2026-11-27',
    to: '2026-12-04',
  })
})

describe('line states', () => {
  const events = [
    { state: 'received' as const, at: day('2026-11-22') },
    { state: 'in_transit' as const, at: day('2026-11-21') },
  ]
  test('a line is requested until something is recorded, then at its furthest state', () => {
    expect(lineState({ events: [] })).toBe('requested')
    expect(lineState({ events })).toBe('received')
  })
  test('the history starts at the return’s creation and lists the states in order', () => {
    expect(lineHistory({ events }, FRIDAY).map((step) => step.state)).toEqual(['requested', 'in_transit', 'received'])
  })
  test.each([
    ['forward, skipping a state', [], 'received', []],
    [
      'to the state it is in',
      [{ state: 'in_transit' as const, at: FRIDAY }],
      'in_transit',
      ['line_item_ids: "a" is already in transit'],
    ],
    ['backwards', events, 'in_transit', ['line_item_ids: "a" is already received']],
  ])('moving %s', (_name, lineEvents, target, problems) => {
    expect(transitionProblems([{ line_item_id: 'a', events: lineEvents }], target as 'received')).toEqual(problems)
  })

  const received = { line_item_id: 'tee', events: [{ state: 'received' as const, at: FRIDAY }] }
  const sent = { line_item_id: 'mug', events: [] }
  const kept = { line_item_id: 'socks', events: [] }
  const names: Record<string, string> = { tee: 'Classic Tee · M', mug: 'Ceramic Mug', socks: 'Socks' }
  test.each([
    [
      'the rest moves, the one moved first is named',
      [received, sent],
      'received',
      ['mug'],
      ['Classic Tee · M is already received'],
    ],
    [
      'a kept item is never received',
      [kept],
      'received',
      [],
      ['Socks is kept by the shopper (not sent back), so it is never received'],
    ],
    ['a kept item may be refunded', [kept, received], 'refunded', ['socks', 'tee'], []],
  ])('a staff move: %s', (_name, lines, target, moving, skipped) => {
    const plan = staffMovePlan(lines, target as 'received', new Set(['socks']), (id) => names[id]!)
    expect({ moving: plan.moving.map((line) => line.line_item_id), skipped: plan.skipped }).toEqual({ moving, skipped })
  })

  test.each([
    [
      'refunding: the items sent back and not received (kept and received ones need no question)',
      'refunded',
      ['mug', 'box'],
    ],
    ['any other move: none', 'received', []],
  ])('items not received, %s', (_name, target, expected) => {
    const lines = [
      received,
      sent,
      kept,
      { line_item_id: 'box', events: [{ state: 'in_transit' as const, at: FRIDAY }] },
    ]
    const unreceived = refundedUnreceived(lines, target as 'refunded', new Set(['socks']))
    expect(unreceived.map((line) => line.line_item_id)).toEqual(expected)
  })
})

describe('statusRefund', () => {
  const money = (amount: string) => ({
    shop_money: { amount, currency_code: 'EUR' },
    presentment_money: { amount, currency_code: 'EUR' },
  })
  const answer = (overrides: Partial<ReturnOrder>): ReturnOrder => ({
    id: 'r',
    name: '#1-R1',
    status: 'requested',
    items: [],
    refund_method: null,
    refund_value: money('10.00'),
    store_credit_value: null,
    breakdown: {
      items_subtotal: money('10.00'),
      tax: money('0.00'),
      return_fee: money('0.00'),
      bonus: money('0.00'),
      upsell: money('0.00'),
      total: money('10.00'),
    },
    created_at: null,
    ...overrides,
  })
  const line = { line_item_id: 'a', quantity: 1, exchange_variant_id: null, events: [] }

  test('nothing refunded (an exchange only, or an imported return without an answer) is null', () => {
    expect(
      statusRefund(answer({ breakdown: { ...answer({}).breakdown, total: money('0.00') } }), [line], FRIDAY),
    ).toBeNull()
    expect(statusRefund(null, [line], FRIDAY)).toBeNull()
  })
  test('a shop without timing gives the amount and method only; no method chosen means the original payment', () => {
    expect(statusRefund(answer({}), [line], FRIDAY)).toEqual({
      method: 'original_payment',
      amount: money('10.00').presentment_money,
      timing: null,
      expected: null,
    })
  })
  test('timing after receipt has dates once every refunded item arrived; an exchanged one does not count', () => {
    const timing = { from_days: 1, to_days: 2, business_days: false, after: 'receipt' as const }
    const withTiming = answer({ refund_timing: { original_payment: timing } })
    const exchanged = { ...line, line_item_id: 'b', exchange_variant_id: 'x' }
    expect(statusRefund(withTiming, [line, exchanged], FRIDAY)!.expected).toBeNull()
    const received = { ...line, events: [{ state: 'received' as const, at: FRIDAY }] }
    expect(statusRefund(withTiming, [received, exchanged], FRIDAY)!.expected).toEqual({
      from: '2026-11-21',
      to: '2026-11-22',
    })
  })
})

describe('issuedAtSubmission', () => {
  const at = '2026-11-20T10:00:00.000Z'
  const item = (keep: boolean): ReturnStatusItem => ({
    line_item_id: 'a',
    title: 'Mug',
    variant_title: null,
    quantity: 1,
    image_src: null,
    exchange_variant_title: null,
    keep,
    states: [...itemStates(keep)],
    state: 'requested',
    history: [{ state: 'requested', at }],
  })
  test.each([
    [
      'sent back: the parcel’s steps, no refund still to come',
      item(false),
      false,
      { states: ['requested', 'in_transit', 'received'], state: 'requested' },
    ],
    [
      'kept: refunded at the submission',
      item(true),
      false,
      {
        states: ['requested', 'refunded'],
        state: 'refunded',
        history: [
          { state: 'requested', at },
          { state: 'refunded', at },
        ],
      },
    ],
    [
      'exchanged: untouched',
      item(false),
      true,
      { states: ['requested', 'in_transit', 'received', 'refunded'], state: 'requested' },
    ],
  ] as const)('%s', (_name, value, exchanged, expected) => {
    expect(issuedAtSubmission(value, exchanged, at)).toMatchObject(expected)
  })
})
