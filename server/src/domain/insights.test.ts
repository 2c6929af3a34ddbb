import type { ReturnOrder } from '../../../contract/api'
import { moneyBag } from '../../../contract/money'
import { moneyMoves, outcomesWithin, type MoneyMoves } from './insights'

const at = (iso: string) => new Date(`${iso}T12:00:00.000Z`)
const eur = (minor: number) => moneyBag(minor, 'EUR')
const AT_ONCE = { from_days: 0, to_days: 0, business_days: false, after: 'submit' as const }

const answer = (overrides: Partial<ReturnOrder> = {}): ReturnOrder => ({
  id: 'r',
  name: '#1-R1',
  status: 'requested',
  items: [],
  refund_method: 'original_payment',
  refund_value: eur(2000),
  store_credit_value: null,
  breakdown: {
    items_subtotal: eur(2000),
    tax: eur(0),
    return_fee: eur(0),
    bonus: eur(0),
    upsell: eur(0),
    total: eur(2000),
  },
  created_at: null,
  ...overrides,
})
const line = (id: string, events: [string, string][] = [], exchange: string | null = null) => ({
  line_item_id: id,
  quantity: 1,
  exchange_variant_id: exchange,
  events: events.map(([state, day]) => ({ state: state as 'received', at: at(day) })),
})
const moves = (overrides: Partial<MoneyMoves>): MoneyMoves => ({
  createdAt: at('2026-11-02'),
  approvedAt: null,
  answer: answer(),
  lines: [line('a')],
  unitPrices: new Map([
    ['a', 2000],
    ['b', 1500],
  ]),
  deductedMinor: 0,
  currency: 'EUR',
  ...overrides,
})

test.each<[string, Partial<MoneyMoves>, ReturnType<typeof moneyMoves>]>([
  ['asked for and not received: nothing moved', {}, { refund: null, exchanges: [], upsell: null }],
  [
    'received and not refunded: nothing moved',
    { lines: [line('a', [['received', '2026-11-05']])] },
    { refund: null, exchanges: [], upsell: null },
  ],
  [
    'refunded: the total less deductions, when the last item was refunded',
    {
      lines: [line('a', [['refunded', '2026-11-09']]), line('b', [['refunded', '2026-11-07']])],
      deductedMinor: 250,
    },
    { refund: { method: 'original_payment', minor: 1750, at: at('2026-11-09') }, exchanges: [], upsell: null },
  ],
  [
    'deductions never take a refund below zero',
    { lines: [line('a', [['refunded', '2026-11-09']])], deductedMinor: 5000 },
    { refund: { method: 'original_payment', minor: 0, at: at('2026-11-09') }, exchanges: [], upsell: null },
  ],
  [
    'refunded at once: at the submission, before anything arrived',
    { answer: answer({ refund_timing: { original_payment: AT_ONCE } }) },
    { refund: { method: 'original_payment', minor: 2000, at: at('2026-11-02') }, exchanges: [], upsell: null },
  ],
  [
    'refunded at once after a review: when staff approved it',
    { answer: answer({ refund_timing: { original_payment: AT_ONCE } }), approvedAt: at('2026-11-04') },
    { refund: { method: 'original_payment', minor: 2000, at: at('2026-11-04') }, exchanges: [], upsell: null },
  ],
  [
    'an exchange: its item’s value when the new item was sent; the new item bought with it once all is done',
    {
      answer: answer({
        refund_method: 'store_credit',
        new_item: { variant_id: 'x', product_title: 'Mug', title: '', image_src: null, price: eur(900) },
      }),
      lines: [line('a', [['refunded', '2026-11-06']], 'tee-l'), line('b', [['refunded', '2026-11-08']])],
    },
    {
      refund: { method: 'store_credit', minor: 2000, at: at('2026-11-08') },
      exchanges: [{ minor: 2000, at: at('2026-11-06') }],
      upsell: { minor: 900, at: at('2026-11-08') },
    },
  ],
])('moneyMoves: %s', (_name, given, expected) => {
  expect(moneyMoves(moves(given))).toEqual(expected)
})

test('outcomesWithin: only what moved within [from, until), by method', () => {
  const happened = [
    moneyMoves(moves({ lines: [line('a', [['refunded', '2026-11-09']])] })),
    moneyMoves(
      moves({ answer: answer({ refund_method: 'store_credit' }), lines: [line('a', [['refunded', '2026-12-01']])] }),
    ),
    moneyMoves(
      moves({ answer: answer({ refund_method: 'store_credit' }), lines: [line('a', [['refunded', '2026-11-30']])] }),
    ),
  ]
  expect(outcomesWithin(happened, at('2026-11-01'), new Date('2026-12-01T00:00:00Z'))).toEqual({
    refunded: 2000,
    store_credit: 2000,
    exchanges: 0,
    upsells: 0,
  })
})
