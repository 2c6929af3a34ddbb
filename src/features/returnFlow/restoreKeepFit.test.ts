import type { ReturnOrder } from '../../../contract/api'
import { buildFlow, buildLineItem, buildOrder, buildQuote, buildSubmittedReturn, money } from '../../testing/builders'
import { restoreReturnFlow } from './restore'

const order = buildOrder({
  line_items: [buildLineItem({ id: 'socks' })],
  return_reasons: [
    { id: 'too_small', label: 'Too small', comment_required: false, fit: 'too_small' },
    { id: 'other', label: 'Other', comment_required: false },
  ],
})
const item = {
  line_item_id: 'socks',
  title: 'Cotton Socks',
  variant_title: null,
  quantity: 1,
  reason_id: 'other',
  reason_label: 'Other',
  comment: null,
  exchange_variant_id: null,
  exchange_variant_title: null,
}
const keptQuote = (keep: unknown, kept: unknown = money('9.90')) =>
  ({
    ...buildQuote('9.90', { items: [{ ...item, keep } as ReturnOrder['items'][number]] }),
    breakdown: { ...buildQuote('9.90').breakdown, kept_items: kept },
  }) as ReturnOrder
const persisted = (value: object) => JSON.parse(JSON.stringify(value)) as unknown

test('reasons with fit markers, kept items and the kept part of a quote are restored as they were', () => {
  const state = buildFlow({
    order,
    quote: keptQuote(true),
    submitted: buildSubmittedReturn({ items: [{ ...item, keep: true }] }),
  })
  expect(restoreReturnFlow(persisted(state))).toEqual(state)
})

test('a quote stored before keep-item returns (no keep flag, no kept part) is still trusted', () => {
  const state = buildFlow({ order, quote: buildQuote('9.90', { items: [item] }) })
  expect(restoreReturnFlow(persisted(state)).quote).toEqual(state.quote)
})

test.each([
  [
    'a fit marker the portal does not know',
    { ...order, return_reasons: [{ id: 'too_small', label: 'Too small', comment_required: false, fit: 'tiny' }] },
  ],
  [
    'a fit marker of the wrong type',
    { ...order, return_reasons: [{ id: 'too_small', label: 'Too small', comment_required: false, fit: 1 }] },
  ],
])('an order with %s is not trusted', (_name, broken) => {
  expect(restoreReturnFlow(persisted(buildFlow({ order: broken as never }))).order).toBeNull()
})

test.each([
  ['a keep flag that is not true or false', keptQuote('yes')],
  ['a kept part that is not money', keptQuote(true, '9.90')],
])('a quote with %s is dropped (it is asked for again), the order kept', (_name, quote) => {
  const restored = restoreReturnFlow(persisted(buildFlow({ order, quote })))
  expect(restored.quote).toBeNull()
  expect(restored.order).toEqual(order)
})
