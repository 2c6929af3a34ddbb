import { PHOTO_ID_PATTERN, PHOTOS_PER_ITEM } from '../../contract/constants'
import { findLeafReason, REASON_DEPTH } from '../../contract/reasonTree'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'

/**
 * restoreReturnFlow trusts the order and return orders once they look right (sessionStorage is
 * written by the portal itself). A support code comes from anyone, so before its state reaches the
 * screens every field they read is checked here, and each choice against what the order offers.
 */

type Check = (value: unknown) => boolean
export type FlowWithOrder = ReturnFlowState & { order: NonNullable<ReturnFlowState['order']> }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const string: Check = (value) => typeof value === 'string'
const boolean: Check = (value) => typeof value === 'boolean'
const count: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value)
/** A field added later: absent in older state, else of its type. */
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value)
const oneOf =
  (...allowed: unknown[]): Check =>
  (value) =>
    allowed.includes(value)
const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check)
const recordOf =
  (check: Check): Check =>
  (value) =>
    isRecord(value) && Object.values(value).every(check)
/** An object whose named fields pass their checks (other fields are ignored by the screens). */
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isRecord(value) && Object.entries(fields).every(([name, check]) => check(value[name]))

const matches =
  (pattern: RegExp): Check =>
  (value) =>
    typeof value === 'string' && pattern.test(value)
const money = shape({ amount: matches(/^-?\d{1,15}(\.\d{1,4})?$/), currency_code: matches(/^[A-Z]{3}$/) })
const moneyBag = shape({ shop_money: money, presentment_money: money })

const lineItem = shape({
  id: string,
  variant_id: nullable(string),
  product_src: nullable(string),
  exchange_variant_id: nullable(string),
  title: string,
  variant_title: nullable(string),
  quantity: count,
  returnable_quantity: count,
  price: moneyBag,
  ineligible_reason: oneOf(null, 'final_sale', 'return_window_closed', 'already_returned', 'not_fulfilled'),
  keep_if_refunded: optional(boolean),
})

const variant = shape({
  id: string,
  product_id: string,
  product_title: string,
  title: string,
  options: arrayOf(shape({ name: string, value: string })),
  price: moneyBag,
  image_src: nullable(string),
  available: boolean,
})

/** A reason: photos asked 1 to 3 at most, sub-reasons no deeper than the API gives them. */
function reasonShape(depth: number): Check {
  const fields = shape({
    id: string,
    label: string,
    comment_required: boolean,
    fit: optional(oneOf('too_small', 'too_large')),
  })
  const photos = (value: unknown) =>
    value === undefined || (count(value) && (value as number) >= 1 && (value as number) <= PHOTOS_PER_ITEM)
  const children = (value: unknown) =>
    value === undefined || (depth < REASON_DEPTH && arrayOf(reasonShape(depth + 1))(value))
  return (value) =>
    fields(value) &&
    photos((value as Record<string, unknown>).photos_required) &&
    children((value as Record<string, unknown>).children)
}

const order = shape({
  order_id: string,
  order_name: string,
  processed_at: string,
  currency_code: matches(/^[A-Z]{3}$/),
  line_items: arrayOf(lineItem),
  exchange_data: nullable(
    shape({ options: recordOf(arrayOf(string)), upsell_enabled: boolean, variants: recordOf(variant) }),
  ),
  return_reasons: arrayOf(reasonShape(1)),
  token: string,
  token_expires_at: string,
})

const days: Check = (value) => count(value) && (value as number) <= 365
const refundTiming: Check = (value) =>
  shape({ from_days: days, to_days: days, business_days: boolean, after: oneOf('submit', 'receipt') })(value) &&
  (value as { from_days: number }).from_days <= (value as { to_days: number }).to_days
/** Only the known methods: a field the screens do not expect is a code that was tampered with. */
const refundTimings: Check = (value) =>
  isRecord(value) &&
  Object.keys(value).every((method) => method === 'original_payment' || method === 'store_credit') &&
  Object.values(value).every(refundTiming)

const returnOrder = shape({
  id: nullable(string),
  name: nullable(string),
  status: oneOf('quote', 'requested'),
  items: arrayOf(
    shape({
      line_item_id: string,
      title: string,
      variant_title: nullable(string),
      quantity: count,
      reason_id: string,
      reason_label: string,
      comment: nullable(string),
      exchange_variant_id: nullable(string),
      exchange_variant_title: nullable(string),
      keep: optional(boolean),
    }),
  ),
  refund_method: oneOf(null, 'original_payment', 'store_credit'),
  refund_value: moneyBag,
  store_credit_value: nullable(moneyBag),
  breakdown: shape({
    items_subtotal: moneyBag,
    tax: moneyBag,
    return_fee: moneyBag,
    bonus: moneyBag,
    upsell: moneyBag,
    total: moneyBag,
    kept_items: optional(moneyBag),
  }),
  created_at: nullable(string),
  refund_timing: optional(refundTimings),
})

/** Each chosen item's reason is one of the order's and its exchange one the order offers for it. */
function choicesOffered(flow: FlowWithOrder): boolean {
  const lines = new Map(flow.order.line_items.map((line) => [line.id, line]))
  return flow.items.every((item) => {
    // A chosen reason is a leaf; its photos are ids at most (never images), as many as an item takes.
    if (item.reason && !findLeafReason(flow.order.return_reasons, item.reason.id)) return false
    const photoIds = item.reason?.photoIds
    if (photoIds !== undefined && !(arrayOf(matches(PHOTO_ID_PATTERN))(photoIds) && photoIds.length <= PHOTOS_PER_ITEM))
      return false
    if (item.exchange?.kind !== 'exchange') return true
    const variantId = lines.get(item.lineItemId)?.variant_id
    return Boolean(variantId && flow.order.exchange_data?.options[variantId]?.includes(item.exchange.variantId))
  })
}

/** Whether a restored flow has an order, and every field the screens read has the contract's type. */
export function isCompleteFlow(flow: ReturnFlowState): flow is FlowWithOrder {
  return (
    order(flow.order) &&
    nullable(returnOrder)(flow.quote) &&
    nullable(returnOrder)(flow.submitted) &&
    choicesOffered(flow as FlowWithOrder)
  )
}
