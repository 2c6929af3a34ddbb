import { PHOTO_ID_PATTERN, PHOTOS_PER_ITEM, REFUND_METHODS } from '../../../contract/constants'
import type {
  ExchangeData,
  LineItem,
  Money,
  MoneyBag,
  RefundTiming,
  RefundTimings,
  ReturnOrder,
  ReturnOrderItem,
  ReturnReason,
  Variant,
  VariantOption,
  VerifiedOrder,
} from '../../../contract/api'
import { REASON_DEPTH } from '../../../contract/reasonTree'
import type { Launch } from '../../../contract/launch'
import { parseLang } from '../../../contract/subdomain'
import {
  initialLaunch,
  initialState,
  type ChosenItem,
  type ReturnFlowState,
  type UpsellChoice,
} from './returnFlowSlice'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string'
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0
const isListOf = <T>(v: unknown, guard: (item: unknown) => item is T): v is T[] => Array.isArray(v) && v.every(guard)
const isRecordOf = <T>(v: unknown, guard: (item: unknown) => item is T): v is Record<string, T> =>
  isRecord(v) && Object.values(v).every(guard)

function restoreLaunch(value: unknown): Launch {
  if (!isRecord(value)) return initialLaunch
  return {
    // The URL's rule: a language tag goes into the configuration's path and Intl's locale.
    lang: isString(value.lang) ? parseLang(value.lang) : null,
    testMode: value.testMode === true,
    configOverride: isString(value.configOverride) ? value.configOverride : null,
  }
}

// The contract's shapes, field by field: the screens read every one of them, and a field of the
// wrong type in a restored order would break a screen on every reload (the error card, not a start).
const isMoney = (v: unknown): v is Money => isRecord(v) && isString(v.amount) && isString(v.currency_code)
const isMoneyBag = (v: unknown): v is MoneyBag => isRecord(v) && isMoney(v.shop_money) && isMoney(v.presentment_money)

const isLineItem = (v: unknown): v is LineItem =>
  isRecord(v) &&
  isString(v.id) &&
  isStringOrNull(v.variant_id) &&
  isStringOrNull(v.product_src) &&
  isStringOrNull(v.exchange_variant_id) &&
  isString(v.title) &&
  isStringOrNull(v.variant_title) &&
  isCount(v.quantity) &&
  isCount(v.returnable_quantity) &&
  v.returnable_quantity <= v.quantity &&
  isMoneyBag(v.price) &&
  isStringOrNull(v.ineligible_reason) &&
  (v.keep_if_refunded === undefined || typeof v.keep_if_refunded === 'boolean')

const isVariant = (v: unknown): v is Variant =>
  isRecord(v) &&
  isString(v.id) &&
  isString(v.product_id) &&
  isString(v.product_title) &&
  isString(v.title) &&
  isListOf(
    v.options,
    (option): option is VariantOption => isRecord(option) && isString(option.name) && isString(option.value),
  ) &&
  isMoneyBag(v.price) &&
  isStringOrNull(v.image_src) &&
  typeof v.available === 'boolean'

function isExchangeData(v: unknown): v is ExchangeData {
  if (!isRecord(v) || typeof v.upsell_enabled !== 'boolean' || !isRecordOf(v.variants, isVariant)) return false
  const variants = v.variants
  // Every variant an option names is described (the exchange screen shows its title and price).
  return isRecordOf(
    v.options,
    (ids): ids is string[] => isListOf(ids, isString) && ids.every((id) => Object.hasOwn(variants, id)),
  )
}

/** A reason and its sub-reasons, as deep as the API gives them and no deeper. */
const isReason = (v: unknown, depth = 1): v is ReturnReason =>
  isRecord(v) &&
  isString(v.id) &&
  isString(v.label) &&
  typeof v.comment_required === 'boolean' &&
  (v.fit === undefined || v.fit === 'too_small' || v.fit === 'too_large') &&
  (v.photos_required === undefined || (isCount(v.photos_required) && v.photos_required <= PHOTOS_PER_ITEM)) &&
  (v.children === undefined ||
    (depth < REASON_DEPTH && Array.isArray(v.children) && v.children.every((child) => isReason(child, depth + 1))))

/** Photo ids of the upload's shape, each once, at most what an item takes; anything else is dropped. */
const isPhotoIds = (v: unknown): v is string[] =>
  isListOf(v, isString) &&
  v.length > 0 &&
  v.length <= PHOTOS_PER_ITEM &&
  v.every((id) => PHOTO_ID_PATTERN.test(id)) &&
  new Set(v).size === v.length

function looksLikeOrder(v: unknown): v is VerifiedOrder {
  if (!isRecord(v)) return false
  const fields =
    isString(v.order_id) &&
    isString(v.order_name) &&
    isString(v.processed_at) &&
    isString(v.currency_code) &&
    isString(v.token) &&
    isString(v.token_expires_at)
  if (
    !fields ||
    !isListOf(v.line_items, isLineItem) ||
    !isListOf(v.return_reasons, (reason): reason is ReturnReason => isReason(reason))
  )
    return false
  // Lines are found by id: two lines with one id would be one line to the flow.
  return (
    new Set(v.line_items.map((line) => line.id)).size === v.line_items.length &&
    (v.exchange_data === null || isExchangeData(v.exchange_data))
  )
}

const isReturnOrderItem = (v: unknown): v is ReturnOrderItem =>
  isRecord(v) &&
  isString(v.line_item_id) &&
  isString(v.title) &&
  isStringOrNull(v.variant_title) &&
  isCount(v.quantity) &&
  isString(v.reason_id) &&
  isString(v.reason_label) &&
  isStringOrNull(v.comment) &&
  isStringOrNull(v.exchange_variant_id) &&
  isStringOrNull(v.exchange_variant_title) &&
  (v.keep === undefined || typeof v.keep === 'boolean')

const BREAKDOWN = ['items_subtotal', 'tax', 'return_fee', 'bonus', 'upsell', 'total'] as const

const isDays = (v: unknown): v is number => isCount(v) && v <= 365
const isRefundTiming = (v: unknown): v is RefundTiming =>
  isRecord(v) &&
  isDays(v.from_days) &&
  isDays(v.to_days) &&
  v.from_days <= v.to_days &&
  typeof v.business_days === 'boolean' &&
  (v.after === 'submit' || v.after === 'receipt')
/** Absent (a shop without timing), or a timing for known methods only. */
const isRefundTimings = (v: unknown): v is RefundTimings | undefined =>
  v === undefined ||
  (isRecord(v) &&
    Object.entries(v).every(
      ([method, timing]) => (REFUND_METHODS as readonly string[]).includes(method) && isRefundTiming(timing),
    ))

const looksLikeReturnOrder = (v: unknown): v is ReturnOrder =>
  isRecord(v) &&
  isStringOrNull(v.id) &&
  isStringOrNull(v.name) &&
  (v.status === 'quote' || v.status === 'requested') &&
  isListOf(v.items, isReturnOrderItem) &&
  (v.refund_method === null || v.refund_method === 'original_payment' || v.refund_method === 'store_credit') &&
  isMoneyBag(v.refund_value) &&
  (v.store_credit_value === null || isMoneyBag(v.store_credit_value)) &&
  isRecord(v.breakdown) &&
  BREAKDOWN.every((part) => isMoneyBag((v.breakdown as Record<string, unknown>)[part])) &&
  (v.breakdown.kept_items === undefined || isMoneyBag(v.breakdown.kept_items)) &&
  isStringOrNull(v.created_at) &&
  isRefundTimings(v.refund_timing)

/** A submitted return is one the server made: it has an id and a name (the instructions need both). */
const looksLikeSubmitted = (v: unknown): v is ReturnOrder =>
  looksLikeReturnOrder(v) && v.status === 'requested' && isString(v.id) && isString(v.name)

function restoreItem(
  value: unknown,
  lines: ReadonlyMap<string, VerifiedOrder['line_items'][number]>,
  exchangeData: ExchangeData | null,
): ChosenItem | null {
  if (!isRecord(value) || !isString(value.lineItemId)) return null
  const line = lines.get(value.lineItemId)
  const quantity = value.quantity
  if (
    !line ||
    typeof quantity !== 'number' ||
    !Number.isInteger(quantity) ||
    quantity < 1 ||
    quantity > line.returnable_quantity
  )
    return null
  const reason: ChosenItem['reason'] =
    isRecord(value.reason) && isString(value.reason.id) && isString(value.reason.comment)
      ? {
          id: value.reason.id,
          comment: value.reason.comment,
          ...(isPhotoIds(value.reason.photoIds) ? { photoIds: value.reason.photoIds } : {}),
        }
      : null
  const exchange = value.exchange
  // As the reducer has it: an exchange only for a variant the item is offered.
  const offered = line.variant_id !== null && exchangeData !== null ? (exchangeData.options[line.variant_id] ?? []) : []
  const restoredExchange: ChosenItem['exchange'] =
    isRecord(exchange) &&
    exchange.kind === 'exchange' &&
    isString(exchange.variantId) &&
    offered.includes(exchange.variantId)
      ? { kind: 'exchange', variantId: exchange.variantId }
      : isRecord(exchange) && exchange.kind === 'refund'
        ? { kind: 'refund' }
        : null
  return { lineItemId: line.id, quantity, reason, exchange: restoredExchange }
}

function restoreUpsell(value: unknown): UpsellChoice | null {
  if (!isRecord(value)) return null
  if (value.kind === 'declined') return { kind: 'declined' }
  if (value.kind === 'accepted')
    return { kind: 'accepted', variantId: isString(value.variantId) ? value.variantId : null }
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
  const items = Array.isArray(value.items)
    ? value.items.map((item) => restoreItem(item, lines, order.exchange_data))
    : []
  // A flow whose items do not all restore (or name a line twice) is not the flow the shopper
  // left: keep only the order (and a support replay stays read-only).
  const chosen = new Set(items.map((item) => item?.lineItemId))
  const readOnly = value.readOnly === true
  if (items.some((item) => item === null) || chosen.size !== items.length)
    return { ...initialState, launch, order, readOnly }
  return {
    launch,
    order,
    items: items as ChosenItem[],
    upsell: restoreUpsell(value.upsell),
    refundMethod:
      value.refundMethod === 'original_payment' || value.refundMethod === 'store_credit' ? value.refundMethod : null,
    quote: looksLikeReturnOrder(value.quote) ? value.quote : null,
    // The server's rule for the key: anything else would be refused (or not even sent, as a header).
    idempotencyKey:
      isString(value.idempotencyKey) && /^[A-Za-z0-9_-]{8,128}$/.test(value.idempotencyKey)
        ? value.idempotencyKey
        : null,
    submitted: looksLikeSubmitted(value.submitted) ? value.submitted : null,
    readOnly,
  }
}
