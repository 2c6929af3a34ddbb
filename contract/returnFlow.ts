/**
 * The return flow's state: what the portal keeps in sessionStorage (redux-persist) and what a
 * support code carries. The slice's state types are derived from these schemas; the restore chunk
 * checks a stored state against them (src/features/returnFlow/restore.ts), the support code's
 * checks against stricter ones built the same way (`./supportCode`).
 *
 * The portal's start bundle must not import this module by value (only `import type`): the schema
 * library comes with the restore chunk, fetched only when there is a session to restore.
 */
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox'
import {
  ExchangeData,
  LineItem,
  Money,
  RefundBreakdown,
  RefundMethod,
  RefundTiming,
  ReturnItemRequest,
  ReturnOrder,
  ReturnOrderItem,
  ReturnReason,
  Variant,
  VerifiedOrder,
  type Ineligibility,
} from './api'
import { PHOTOS_PER_ITEM } from './constants'

/** The schema, or null. */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** What the start screen was opened with; later screens keep it (language, Test Mode, Preview). */
export const Launch = Type.Object({
  lang: Nullable(Type.String()),
  testMode: Type.Boolean(),
  /** the raw `config` query value, decoded and checked where it is used */
  configOverride: Nullable(Type.String()),
})
export type Launch = Static<typeof Launch>

/** How an item's exchange step ended. */
export const ExchangeChoice = Type.Union([
  Type.Object({ kind: Type.Literal('exchange'), variantId: Type.String() }),
  Type.Object({ kind: Type.Literal('refund') }),
])
export type ExchangeChoice = Static<typeof ExchangeChoice>

export const UpsellDeclined = Type.Object({ kind: Type.Literal('declined') })
/** The offer accepted; the replacement is null until one is picked. */
export const UpsellAccepted = Type.Object({ kind: Type.Literal('accepted'), variantId: Nullable(Type.String()) })
/** The upsell offer: declined, or accepted (null in the state: not shown yet). */
export const UpsellChoice = Type.Union([UpsellDeclined, UpsellAccepted])
export type UpsellChoice = Static<typeof UpsellChoice>

/** The photos of a chosen reason: ids as the API takes them (never images), each once, at most what an item takes. */
export const PhotoIds = Type.Array(ReturnItemRequest.properties.photo_ids.items, {
  minItems: 1,
  maxItems: PHOTOS_PER_ITEM,
  uniqueItems: true,
})

/** The chosen leaf reason; photo ids only when the reason asks for photos. */
export const ChosenReason = Type.Object({
  id: Type.String(),
  comment: Type.String(),
  photoIds: Type.Optional(PhotoIds),
})

/** One chosen line item and what the shopper said about it. */
export const ChosenItem = Type.Object({
  lineItemId: Type.String(),
  /** at least 1, at most the line's returnable quantity */
  quantity: Type.Integer({ minimum: 1 }),
  reason: Nullable(ChosenReason),
  exchange: Nullable(ExchangeChoice),
})
export type ChosenItem = Static<typeof ChosenItem>

/** The server's rule for a submit's Idempotency-Key: anything else would be refused (or not even sent, as a header). */
export const IdempotencyKey = Type.String({ pattern: '^[A-Za-z0-9_-]{8,128}$' })

/** The shopper's session. Persisted to sessionStorage: only what the flow needs, no e-mail. */
export const ReturnFlowState = Type.Object({
  launch: Launch,
  order: Nullable(VerifiedOrder),
  /** chosen items, in the order they appear in the order */
  items: Type.Array(ChosenItem),
  upsell: Nullable(UpsellChoice),
  refundMethod: Nullable(RefundMethod),
  /** the stored return order: the server's quote for the current choices (null: unknown) */
  quote: Nullable(ReturnOrder),
  /** the key that makes a submit, and every retry of it, one return */
  idempotencyKey: Nullable(IdempotencyKey),
  /** the return as created by the server */
  submitted: Nullable(ReturnOrder),
  /** a support agent's replay of a shopper's session (a support code): it can look, never submit */
  readOnly: Type.Boolean(),
})
export type ReturnFlowState = Static<typeof ReturnFlowState>

/** A schema whose values are of type T. */
type Schema<T> = TSchema & { static: T }

/** How strictly the API's answers held in a stored flow are read back: each source sets its own. */
export interface ReadBackBounds {
  /** an amount of money */
  money: Schema<Money>
  /** the order's currency */
  currency: Schema<string>
  /** a count of units */
  count: Schema<number>
  /** the photos a reason asks for */
  photosAsked: Schema<number>
  /** why a line item cannot be returned */
  ineligibility: Schema<Ineligibility | null>
}

/** A refund's waiting time: whole days, at most a year, as a shop can set it. */
const RefundDays = Type.Integer({ minimum: 0, maximum: 365 })

/**
 * The refund timing of each method the shop sets it for, and of no other (a field the screens do
 * not expect). That `from_days` is not after `to_days` is checked as code.
 */
const KnownRefundTimings = Type.Partial(
  Type.Record(RefundMethod, Type.Object({ ...RefundTiming.properties, from_days: RefundDays, to_days: RefundDays })),
  { additionalProperties: false },
)

/**
 * The verified order and a return order as a stored flow holds them: the API's shapes, every field
 * the screens read, within `bounds`; the reasons' tree no deeper than the API gives it.
 */
export function readBack(bounds: ReadBackBounds) {
  const MoneyBag = Type.Object({ shop_money: bounds.money, presentment_money: bounds.money })
  const Line = Type.Object({
    ...LineItem.properties,
    quantity: bounds.count,
    returnable_quantity: bounds.count,
    price: MoneyBag,
    ineligible_reason: bounds.ineligibility,
  })
  const Exchanges = Type.Object({
    ...ExchangeData.properties,
    variants: Type.Record(Type.String(), Type.Object({ ...Variant.properties, price: MoneyBag })),
  })
  // ReturnReason is recursive (TypeBox types it by its values only): its fields but the children,
  // then a reason, its sub-reasons and theirs (REASON_DEPTH in src/api/reasonTree.ts), none deeper.
  const { children: _children, ...reasonFields } = ReturnReason.properties as TProperties
  const reason = (children: TSchema) =>
    Type.Object({
      ...reasonFields,
      photos_required: Type.Optional(bounds.photosAsked),
      children: Type.Optional(children),
    })
  const Reasons = Type.Unsafe<ReturnReason[]>(Type.Array(reason(Type.Array(reason(Type.Array(reason(Type.Never())))))))
  const order = Type.Object({
    ...VerifiedOrder.properties,
    currency_code: bounds.currency,
    line_items: Type.Array(Line),
    exchange_data: Nullable(Exchanges),
    return_reasons: Reasons,
  })
  const returnOrder = Type.Object({
    ...ReturnOrder.properties,
    items: Type.Array(Type.Object({ ...ReturnOrderItem.properties, quantity: bounds.count })),
    refund_value: MoneyBag,
    store_credit_value: Nullable(MoneyBag),
    breakdown: Type.Object({
      ...RefundBreakdown.properties,
      items_subtotal: MoneyBag,
      tax: MoneyBag,
      return_fee: MoneyBag,
      bonus: MoneyBag,
      upsell: MoneyBag,
      total: MoneyBag,
      kept_items: Type.Optional(MoneyBag),
    }),
    refund_timing: Type.Optional(KnownRefundTimings),
  })
  return { order, returnOrder }
}

/**
 * sessionStorage is written by the portal itself: its order and return orders are trusted once
 * they have the API's shape. An ineligibility this portal does not know yet is any text (the
 * products screen says the item cannot be returned, for another reason).
 */
const stored = readBack({
  money: Money,
  currency: VerifiedOrder.properties.currency_code,
  count: Type.Integer({ minimum: 0 }),
  photosAsked: Type.Integer({ minimum: 0, maximum: PHOTOS_PER_ITEM }),
  ineligibility: Type.Unsafe<Ineligibility | null>(Nullable(Type.String())),
})

/** A stored verified order. That its lines, options and quantities hold together is checked as code. */
export const StoredOrder = stored.order

/** A stored return order (a quote). */
export const StoredReturnOrder = stored.returnOrder

/** A submitted return is one the server made: it has an id and a name (the instructions need both). */
export const SubmittedReturn = Type.Object({
  ...StoredReturnOrder.properties,
  id: Type.String(),
  name: Type.String(),
  status: Type.Literal('requested'),
})
