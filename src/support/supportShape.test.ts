import type { ReturnOrder } from '../../contract/api'
import { buildFlow, buildLineItem, buildOrder, buildQuote, money } from '../testing/builders'
import { isCompleteFlow } from './supportShape'

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
const order = (fit?: unknown) =>
  buildOrder({
    line_items: [buildLineItem({ id: 'socks' })],
    return_reasons: [
      { id: 'other', label: 'Other', comment_required: false, ...(fit === undefined ? {} : { fit }) } as never,
    ],
  })
const quote = (keep?: unknown, kept?: unknown) =>
  ({
    ...buildQuote('9.90', { items: [{ ...item, ...(keep === undefined ? {} : { keep }) } as never] }),
    breakdown: { ...buildQuote('9.90').breakdown, ...(kept === undefined ? {} : { kept_items: kept }) },
  }) as ReturnOrder

test.each([
  ['no fit marker, no keep flag (as before)', order(), quote()],
  ['a fit marker and a kept item with its part', order('too_large'), quote(true, money('9.90'))],
])('a support code’s flow with %s is complete', (_name, verified, quoted) => {
  expect(isCompleteFlow(buildFlow({ order: verified, quote: quoted }))).toBe(true)
})

test.each([
  ['a fit marker the portal does not know', order('huge'), quote()],
  ['a keep flag that is not true or false', order(), quote(1)],
  ['a kept part that is not money', order(), quote(true, { amount: 'lots' })],
])('a support code’s flow with %s is refused', (_name, verified, quoted) => {
  expect(isCompleteFlow(buildFlow({ order: verified, quote: quoted }))).toBe(false)
})
