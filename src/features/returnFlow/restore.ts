import type { ReturnOrder, VerifiedOrder } from '../../api/contract'
import { initialLaunch, initialState, type ChosenItem, type Launch, type ReturnFlowState, type UpsellChoice } from './returnFlowSlice'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'

function restoreLaunch(value: unknown): Launch {
  if (!isRecord(value)) return initialLaunch
  return {
    lang: isString(value.lang) ? value.lang : null,
    testMode: value.testMode === true,
    configOverride: isString(value.configOverride) ? value.configOverride : null,
  }
}

function looksLikeOrder(value: unknown): value is VerifiedOrder {
  return (
    isRecord(value) &&
    isString(value.order_name) &&
    isString(value.token) &&
    Array.isArray(value.line_items) &&
    value.line_items.every((item) => isRecord(item) && isString(item.id) && Number.isInteger(item.returnable_quantity)) &&
    (value.exchange_data === null || (isRecord(value.exchange_data) && isRecord(value.exchange_data.options))) &&
    Array.isArray(value.return_reasons)
  )
}

function looksLikeReturnOrder(value: unknown): value is ReturnOrder {
  return isRecord(value) && isRecord(value.refund_value) && isRecord(value.breakdown) && Array.isArray(value.items)
}

function restoreItem(value: unknown, lines: ReadonlyMap<string, VerifiedOrder['line_items'][number]>): ChosenItem | null {
  if (!isRecord(value) || !isString(value.lineItemId)) return null
  const line = lines.get(value.lineItemId)
  const quantity = value.quantity
  if (!line || typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > line.returnable_quantity) return null
  const reason = isRecord(value.reason) && isString(value.reason.id) && isString(value.reason.comment) ? { id: value.reason.id, comment: value.reason.comment } : null
  const exchange = value.exchange
  const restoredExchange: ChosenItem['exchange'] =
    isRecord(exchange) && exchange.kind === 'exchange' && isString(exchange.variantId)
      ? { kind: 'exchange', variantId: exchange.variantId }
      : isRecord(exchange) && exchange.kind === 'refund'
        ? { kind: 'refund' }
        : null
  return { lineItemId: line.id, quantity, reason, exchange: restoredExchange }
}

function restoreUpsell(value: unknown): UpsellChoice | null {
  if (!isRecord(value)) return null
  if (value.kind === 'declined') return { kind: 'declined' }
  if (value.kind === 'accepted') return { kind: 'accepted', variantId: isString(value.variantId) ? value.variantId : null }
  return null
}

/**
 * Turns whatever sessionStorage held (an older version, a foreign shape, garbage) into a valid
 * flow state: what can be trusted is kept, the rest falls back to the initial state.
 */
export function restoreReturnFlow(value: unknown): ReturnFlowState {
  if (!isRecord(value)) return initialState
  const launch = restoreLaunch(value.launch)
  const order = looksLikeOrder(value.order) ? value.order : null
  if (!order) return { ...initialState, launch }
  // Lines by id: a reload of a 1,000-line order restores in linear time.
  const lines = new Map(order.line_items.map((line) => [line.id, line]))
  const items = Array.isArray(value.items) ? value.items.map((item) => restoreItem(item, lines)) : []
  // A flow whose items do not all restore is not the flow the shopper left: keep only the order.
  if (items.some((item) => item === null)) return { ...initialState, launch, order, readOnly: value.readOnly === true }
  return {
    launch,
    order,
    items: items as ChosenItem[],
    upsell: restoreUpsell(value.upsell),
    refundMethod: value.refundMethod === 'original_payment' || value.refundMethod === 'store_credit' ? value.refundMethod : null,
    quote: looksLikeReturnOrder(value.quote) ? value.quote : null,
    idempotencyKey: isString(value.idempotencyKey) ? value.idempotencyKey : null,
    submitted: looksLikeReturnOrder(value.submitted) ? value.submitted : null,
    readOnly: value.readOnly === true,
  }
}
