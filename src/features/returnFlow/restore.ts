import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Check } from '@sinclair/typebox/value'
import type { ExchangeData, LineItem, ReturnOrder, VerifiedOrder } from '../../../contract/api'
import {
  ChosenItem,
  ChosenReason,
  ExchangeChoice,
  Launch,
  PhotoIds,
  ReturnFlowState,
  StoredOrder,
  StoredReturnOrder,
  SubmittedReturn,
  UpsellAccepted,
  UpsellDeclined,
  type UpsellChoice,
} from '../../../contract/returnFlow'
import { parseLang } from '../../../contract/subdomain'
import { initialLaunch, initialState } from './returnFlowSlice'

/*
 * What sessionStorage holds is checked against the flow's schemas (contract/returnFlow.ts), part
 * by part: a part that does not hold falls back to its initial value, the rest is kept. What a
 * schema cannot say (that the parts hold together) is checked as code.
 */

/** Any object: a part of the stored state before its fields are checked. */
const Fields = Type.Record(Type.String(), Type.Unknown())

/** A chosen item whose line and quantity hold; its reason and its exchange are kept only where they hold too. */
const StoredItem = Type.Object({
  ...ChosenItem.properties,
  reason: Type.Optional(Type.Unknown()),
  exchange: Type.Optional(Type.Unknown()),
})
/** A reason whose id and comment hold; its photo ids are kept only where they hold too. */
const StoredReason = Type.Object({ ...ChosenReason.properties, photoIds: Type.Optional(Type.Unknown()) })
/** An accepted upsell offer whose replacement is kept only where it holds. */
const StoredAccepted = Type.Object({ ...UpsellAccepted.properties, variantId: Type.Optional(Type.Unknown()) })

/** `value` where it has the schema's shape, otherwise `fallback`. */
const checked = <T extends TSchema>(schema: T, value: unknown, fallback: Static<T>): Static<T> =>
  Check(schema, value) ? value : fallback

function restoreLaunch(value: unknown): Launch {
  if (!Check(Fields, value)) return initialLaunch
  return {
    // The URL's rule: a language tag goes into the configuration's path and Intl's locale.
    lang: parseLang(checked(Launch.properties.lang, value.lang, null)),
    testMode: checked(Launch.properties.testMode, value.testMode, false),
    configOverride: checked(Launch.properties.configOverride, value.configOverride, null),
  }
}

/**
 * The stored order, where it has the API's shape (the screens read every field: one of the wrong
 * type would break a screen on every reload, the error card, not a start) and holds together.
 */
function restoreOrder(value: unknown): VerifiedOrder | null {
  if (!Check(StoredOrder, value)) return null
  const lines = value.line_items
  // Lines are found by id: two lines with one id would be one line to the flow.
  if (new Set(lines.map((line) => line.id)).size !== lines.length) return null
  if (lines.some((line) => line.returnable_quantity > line.quantity)) return null
  const data = value.exchange_data
  if (data === null) return value
  // Every variant an option names is described (the exchange screen shows its title and price).
  return Object.values(data.options).every((ids) => ids.every((id) => Object.hasOwn(data.variants, id))) ? value : null
}

/** Whether each refund timing of a return order runs forward: it starts no later than it ends. */
export const refundTimingsHold = (order: ReturnOrder): boolean =>
  Object.values(order.refund_timing ?? {}).every((timing) => timing.from_days <= timing.to_days)

function restoreItem(
  value: unknown,
  lines: ReadonlyMap<string, LineItem>,
  exchangeData: ExchangeData | null,
): ChosenItem | null {
  if (!Check(StoredItem, value)) return null
  const line = lines.get(value.lineItemId)
  if (!line || value.quantity > line.returnable_quantity) return null
  const reason = Check(StoredReason, value.reason)
    ? {
        id: value.reason.id,
        comment: value.reason.comment,
        // Photo ids of the upload's shape, each once, at most what an item takes; anything else is dropped.
        ...(Check(PhotoIds, value.reason.photoIds) ? { photoIds: value.reason.photoIds } : {}),
      }
    : null
  const exchange = value.exchange
  // As the reducer has it: an exchange only for a variant the item is offered.
  const options = exchangeData?.options ?? {}
  const offered = line.variant_id !== null && Object.hasOwn(options, line.variant_id) ? options[line.variant_id]! : []
  const restoredExchange: ExchangeChoice | null = !Check(ExchangeChoice, exchange)
    ? null
    : exchange.kind === 'refund'
      ? { kind: 'refund' }
      : offered.includes(exchange.variantId)
        ? { kind: 'exchange', variantId: exchange.variantId }
        : null
  return { lineItemId: line.id, quantity: value.quantity, reason, exchange: restoredExchange }
}

function restoreUpsell(value: unknown): UpsellChoice | null {
  if (Check(UpsellDeclined, value)) return { kind: 'declined' }
  // Accepted with a replacement that does not hold: accepted, no replacement picked yet.
  if (Check(StoredAccepted, value))
    return { kind: 'accepted', variantId: checked(UpsellAccepted.properties.variantId, value.variantId, null) }
  return null
}

/**
 * Turns whatever sessionStorage held (an older version, a foreign shape, garbage) into a valid
 * flow state: what can be trusted is kept, the rest falls back to the initial state. A state
 * stored before a field was added (a keep flag, a refund timing, a photo, a read-only replay)
 * restores with that field absent or at its initial value.
 */
export function restoreReturnFlow(value: unknown): ReturnFlowState {
  if (!Check(Fields, value)) return initialState
  const launch = restoreLaunch(value.launch)
  const order = restoreOrder(value.order)
  if (!order) return { ...initialState, launch }
  // Lines by id: a reload of a 1,000-line order restores in linear time.
  const lines = new Map(order.line_items.map((line) => [line.id, line]))
  const items = Array.isArray(value.items)
    ? value.items.map((item) => restoreItem(item, lines, order.exchange_data))
    : []
  // A flow whose items do not all restore (or name a line twice) is not the flow the shopper
  // left: keep only the order (and a support replay stays read-only).
  const chosen = new Set(items.map((item) => item?.lineItemId))
  const readOnly = checked(ReturnFlowState.properties.readOnly, value.readOnly, false)
  if (items.some((item) => item === null) || chosen.size !== items.length)
    return { ...initialState, launch, order, readOnly }
  const { properties } = ReturnFlowState
  return {
    launch,
    order,
    items: items as ChosenItem[],
    upsell: restoreUpsell(value.upsell),
    refundMethod: checked(properties.refundMethod, value.refundMethod, null),
    quote: Check(StoredReturnOrder, value.quote) && refundTimingsHold(value.quote) ? value.quote : null,
    idempotencyKey: checked(properties.idempotencyKey, value.idempotencyKey, null),
    submitted: Check(SubmittedReturn, value.submitted) && refundTimingsHold(value.submitted) ? value.submitted : null,
    readOnly,
  }
}
