/**
 * The Portal API's shapes, written once: JSON schemas (TypeBox) that the server validates requests
 * and serialises answers with, and the TypeScript types the portal and the server are written
 * against, derived from them. Field names are snake_case on the wire.
 *
 * The portal's start bundle must not import this module by value (only `import type`): the schema
 * library would not fit its byte budget. Plain constants are in `./constants`.
 */
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox'
import {
  CONFIG_ID_PATTERN,
  IDEMPOTENCY_KEY_PATTERN,
  INELIGIBILITIES,
  INSPECTION_CONDITIONS,
  NEW_ITEM_STATES,
  PHOTO_ID_PATTERN,
  PHOTOS_PER_ITEM,
  REASON_FITS,
  REFUND_AFTER,
  REFUND_METHODS,
  RETURN_PROBLEMS,
  RETURN_ITEM_STATES,
  RETURN_ID_PATTERN,
  RETURN_ORDER_STATUSES,
  REVIEW_STATES,
  RETURN_ENDINGS,
  SIGNATURE_PATTERN,
  VERIFY_ERROR_CODES,
} from './constants'

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> }

/** One of a constant list of strings, each a literal (so a record keyed by it lists its keys). */
export const oneOf = <const T extends readonly string[]>(values: T): TUnion<Literals<T>> =>
  Type.Union(values.map((value) => Type.Literal(value))) as TUnion<Literals<T>>

/** The schema, or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** A count: a whole number. */
const Count = Type.Integer()

/** A decimal amount as a string ("45.00") in a currency (ISO 4217). */
export const Money = Type.Object({ amount: Type.String(), currency_code: Type.String() })
export type Money = Static<typeof Money>

/** An amount in the shop's currency and in the currency the shopper paid in. */
export const MoneyBag = Type.Object({ shop_money: Money, presentment_money: Money })
export type MoneyBag = Static<typeof MoneyBag>

/** GET /portal-registration/config/{id}: the portal's configuration. Every field but shop and portal_id is optional. */
export const PortalConfig = Type.Object({
  shop: Type.String(),
  portal_id: Type.String(),
  favicon_src: Type.Optional(Type.String()),
  document_title_text: Type.Optional(Type.String()),
  background_src: Type.Optional(Type.String()),
  logo_src: Type.Optional(Type.String()),
  website_url: Type.Optional(Type.String()),
  start_return_message: Type.Optional(Type.String()),
  order_placeholder_text: Type.Optional(Type.String()),
  order_tooltip_text: Type.Optional(Type.String()),
  start_return_button_message: Type.Optional(Type.String()),
  button_color: Type.Optional(Type.String()),
  need_help_message: Type.Optional(Type.String()),
  order_prefix: Type.Optional(Type.String()),
  /** e.g. 1.1: store credit is worth the refund times this. Absent or null: no store credit bonus. */
  gift_card_value_multiplier: Type.Optional(Nullable(Type.Number())),
  invalid_order_message: Type.Optional(Type.String()),
  order_not_fulfilled_message: Type.Optional(Type.String()),
  order_too_old_message: Type.Optional(Type.String()),
  order_already_has_return_message: Type.Optional(Type.String()),
  default_error_message: Type.Optional(Type.String()),
})
export type PortalConfig = Static<typeof PortalConfig>

/** A required text field of a request, at most `maxLength` characters. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength })

/** GET /portal-registration/config/{id}: the path's id. */
export const ConfigIdParams = Type.Object({ id: Type.String({ pattern: CONFIG_ID_PATTERN.source }) })
export type ConfigIdParams = Static<typeof ConfigIdParams>

/** POST /portal-registration/verify */
export const VerifyRequest = Type.Object(
  { order_name: Text(100), email: Text(320), shop: Text(64), portal_id: Text(128) },
  { additionalProperties: false },
)
export type VerifyRequest = Static<typeof VerifyRequest>

/** The 400 codes of verify. Anything else shows default_error_message. */
export const VerifyErrorCode = oneOf(VERIFY_ERROR_CODES)
export type VerifyErrorCode = Static<typeof VerifyErrorCode>

/** Every error answer of the API: { error: code, message?: human words naming the bad field }. */
export const ApiError = Type.Object({ error: Type.String(), message: Type.Optional(Type.String()) })
export type ApiError = Static<typeof ApiError>

/**
 * One choice of a return request that no longer holds: `field` is the request's field as a
 * developer reads it (`items[0].exchange_variant_id`, `upsell_variant_id`), `problem` what is
 * wrong with it, `message` the same in words.
 */
export const ReturnProblem = Type.Object({
  field: Type.String(),
  problem: oneOf(RETURN_PROBLEMS),
  message: Type.String(),
})
export type ReturnProblem = Static<typeof ReturnProblem>

/**
 * A return already made of this order that took units a refused request asks for (another tab,
 * another device): its status link is `/status/{id}#{status_token}`.
 */
export const EarlierReturn = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status_token: Type.String(),
  /** the request's line items this return took units of */
  line_item_ids: Type.Array(Type.String()),
})
export type EarlierReturn = Static<typeof EarlierReturn>

/**
 * The 422 of quote and submit: every problem of the request, and all of them in one message; when
 * some items are refused because units went in earlier returns, those returns (absent otherwise).
 */
export const InvalidReturn = Type.Object({
  error: Type.Literal('invalid_return'),
  message: Type.String(),
  problems: Type.Array(ReturnProblem),
  returns: Type.Optional(Type.Array(EarlierReturn)),
})
export type InvalidReturn = Static<typeof InvalidReturn>

/**
 * POST /portal-registration/support-token (no body, or {}), authorised by the shopper's token: a
 * read-only token for the same order and shop with the same expiry. It quotes and reads the
 * catalogue and instructions; submit answers it `403 { error: 'read_only_session' }`.
 */
export const SupportToken = Type.Object({
  token: Type.String(),
  /** ISO 8601, the presented token's own expiry */
  token_expires_at: Type.String(),
})
export type SupportToken = Static<typeof SupportToken>

/**
 * POST /portal-registration/support-references: the shopper's support code (made in the browser,
 * with a read-only token), kept by the API for the shop's staff (docs/support.md).
 */
export const SupportReferenceRequest = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64 * 1024, pattern: '^RB1\\.[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
)
export type SupportReferenceRequest = Static<typeof SupportReferenceRequest>

/** The short reference the shopper reads out (`7KQ2-9XHD`), and until when it opens the session. */
export const SupportReference = Type.Object({ reference: Type.String(), expires_at: Type.String() })
export type SupportReference = Static<typeof SupportReference>

/** Why a line item cannot be returned; null when it can. Decided by the server. */
export const Ineligibility = oneOf(INELIGIBILITIES)
export type Ineligibility = Static<typeof Ineligibility>

export const VariantOption = Type.Object({ name: Type.String(), value: Type.String() })
export type VariantOption = Static<typeof VariantOption>

export const LineItem = Type.Object({
  id: Type.String(),
  /** null for a custom item without a variant */
  variant_id: Nullable(Type.String()),
  product_src: Nullable(Type.String()),
  /** for an exchange order: the variant this line was exchanged from; otherwise null */
  exchange_variant_id: Nullable(Type.String()),
  title: Type.String(),
  variant_title: Nullable(Type.String()),
  /** units bought */
  quantity: Count,
  /** units that can still be returned (0 when ineligible) */
  returnable_quantity: Count,
  /** price paid per unit after discounts, tax included as the shop shows it */
  price: MoneyBag,
  ineligible_reason: Nullable(Ineligibility),
  /**
   * the shop's words for the rule that made it ineligible, a final-sale or window rule of its
   * policy by product tag ("Swimwear"); absent for the shop's own window and every other reason
   */
  ineligible_rule: Type.Optional(Type.String()),
  /**
   * the bought variant's options as the catalogue has them (`[]` for a variant without options);
   * absent when the catalogue does not know the variant. A line without a size option is not
   * offered the reasons that say it did not fit.
   */
  options: Type.Optional(Type.Array(VariantOption)),
  /**
   * true: refunded (not exchanged), this item stays with the shopper, who sends nothing back (the
   * shop's keep_item_below); absent: it comes back. The quote says it again for each item.
   */
  keep_if_refunded: Type.Optional(Type.Boolean()),
})
export type LineItem = Static<typeof LineItem>

/** A variant named in exchange_data.options or in the catalogue. */
export const Variant = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  product_title: Type.String(),
  /** e.g. "M / Blue" */
  title: Type.String(),
  options: Type.Array(VariantOption),
  price: MoneyBag,
  image_src: Nullable(Type.String()),
  available: Type.Boolean(),
})
export type Variant = Static<typeof Variant>

export const ExchangeData = Type.Object({
  /** for each variant id of the order: the variant ids it may be exchanged for (may include itself) */
  options: Type.Record(Type.String(), Type.Array(Type.String())),
  upsell_enabled: Type.Boolean(),
  /** every variant named in options, by id */
  variants: Type.Record(Type.String(), Variant),
})
export type ExchangeData = Static<typeof ExchangeData>

/** A reason that says the item did not fit: the exchange step then suggests the next size up or down. */
export const ReasonFit = oneOf(REASON_FITS)
export type ReasonFit = Static<typeof ReasonFit>

/** A reason's own fields, its sub-reasons aside (the shop file lists the same, with its limits). */
export const ReturnReasonFields = {
  id: Type.String(),
  label: Type.String(),
  comment_required: Type.Boolean(),
  /** set when the reason says the item was too small or too large; absent otherwise */
  fit: Type.Optional(ReasonFit),
  /** photos the shopper must add (1 to 3); absent: none asked */
  photos_required: Type.Optional(Count),
}

export const ReturnReason = Type.Recursive(
  (This) =>
    Type.Object({
      ...ReturnReasonFields,
      /** sub-reasons: a reason with children is a heading, only a leaf can be chosen */
      children: Type.Optional(Type.Array(This)),
    }),
  { $id: 'ReturnReason' },
)
export type ReturnReason = Static<typeof ReturnReason>

/** GET /portal-registration/photos/{id}: the path's id. */
export const PhotoIdParams = Type.Object({ id: Type.String({ pattern: PHOTO_ID_PATTERN.source }) })
export type PhotoIdParams = Static<typeof PhotoIdParams>

/** POST /portal-registration/photos (raw image body): the stored photo. */
export const UploadedPhoto = Type.Object({ id: Type.String(), content_type: Type.String(), size: Count })
export type UploadedPhoto = Static<typeof UploadedPhoto>

/** The answer of verify. */
export const VerifiedOrder = Type.Object({
  order_id: Type.String(),
  order_name: Type.String(),
  /**
   * the order's e-mail, which the shopper has just given: filled in when the session must be
   * verified again (absent from sessions stored before it was sent)
   */
  email: Type.Optional(Type.String()),
  /** ISO 8601 */
  processed_at: Type.String(),
  currency_code: Type.String(),
  line_items: Type.Array(LineItem),
  exchange_data: Nullable(ExchangeData),
  return_reasons: Type.Array(ReturnReason),
  /** short-lived bearer token for the later calls; reaches only this order */
  token: Type.String(),
  /** ISO 8601 */
  token_expires_at: Type.String(),
})
export type VerifiedOrder = Static<typeof VerifiedOrder>

export const RefundMethod = oneOf(REFUND_METHODS)
export type RefundMethod = Static<typeof RefundMethod>

/**
 * When the money of one refund method arrives, as the shop sets it (`settings.refund_timing`):
 * `from_days` to `to_days` (business days, Monday to Friday, unless `business_days` is false)
 * after the return is submitted or after its items are received. 0 to 0 means at once.
 */
export const RefundTiming = Type.Object({
  from_days: Count,
  to_days: Count,
  business_days: Type.Boolean(),
  after: oneOf(REFUND_AFTER),
})
export type RefundTiming = Static<typeof RefundTiming>

/** The timing of each method the shop sets it for; a method without one shows no timing. */
export const RefundTimings = Type.Partial(Type.Record(RefundMethod, RefundTiming))
export type RefundTimings = Static<typeof RefundTimings>

/** An id in a request: 1 to 128 characters. */
const RequestId = Text(128)

export const ReturnItemRequest = Type.Object(
  {
    line_item_id: RequestId,
    quantity: Type.Integer({ minimum: 1, maximum: 10_000 }),
    reason_id: RequestId,
    comment: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    /** exchange this item for that variant instead of a refund */
    exchange_variant_id: Type.Optional(Nullable(RequestId)),
    /** photos uploaded for this order (POST /portal-registration/photos), when the reason asks for them */
    photo_ids: Type.Optional(
      Type.Array(Type.String({ pattern: PHOTO_ID_PATTERN.source }), { maxItems: PHOTOS_PER_ITEM }),
    ),
  },
  { additionalProperties: false },
)
export type ReturnItemRequest = Static<typeof ReturnItemRequest>

/**
 * The body of POST /portal-registration/returns/quote and POST /portal-registration/returns.
 * Authorised by `Authorization: Bearer <token>`.
 */
export const ReturnRequest = Type.Object(
  {
    items: Type.Array(ReturnItemRequest, { minItems: 1, maxItems: 1000 }),
    /** the upsell chosen in exploration: a catalogue variant paid for with the refund plus bonus */
    upsell_variant_id: Type.Optional(Nullable(RequestId)),
    /** null or absent: not chosen yet (the quote then gives both amounts) */
    refund_method: Type.Optional(Nullable(RefundMethod)),
  },
  { additionalProperties: false },
)
export type ReturnRequest = Static<typeof ReturnRequest>

/**
 * POST /portal-registration/returns/quote: the choices, and in a preview (`?config=`) the previewed
 * gift-card multiplier to price with instead of the shop's. A submit takes no multiplier: a return
 * is always priced with the shop's own (docs/decisions/0042-previewed-bonus.md).
 */
export const QuoteRequest = Type.Object(
  {
    ...ReturnRequest.properties,
    preview_multiplier: Type.Optional(Type.Number({ minimum: 1, maximum: 10 })),
  },
  { additionalProperties: false },
)
export type QuoteRequest = Static<typeof QuoteRequest>

/** POST /portal-registration/returns: the key that makes a submit, and every retry of it, one return. */
export const SubmitHeaders = Type.Object({
  'idempotency-key': Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN.source }),
})
export type SubmitHeaders = Static<typeof SubmitHeaders>

/** /portal-registration/returns/{id}/…: the path's id. */
export const ReturnIdParams = Type.Object({ id: Type.String({ pattern: RETURN_ID_PATTERN.source }) })
export type ReturnIdParams = Static<typeof ReturnIdParams>

/** GET /portal-registration/returns/{id}/label.pdf?expires=…&signature=…: a signed label link. */
export const LabelQuery = Type.Object({
  /** seconds since 1970 */
  expires: Type.String({ pattern: '^[0-9]{1,12}$' }),
  signature: Type.String({ pattern: SIGNATURE_PATTERN.source }),
})
export type LabelQuery = Static<typeof LabelQuery>

/** GET /portal-registration/returns/{id}/status?signature=…: the status link's signature. */
export const StatusQuery = Type.Object({ signature: Type.String({ pattern: SIGNATURE_PATTERN.source }) })
export type StatusQuery = Static<typeof StatusQuery>

/** Refund breakdown, computed by the server in integer minor units. */
export const RefundBreakdown = Type.Object({
  /** value of the returned items that are refunded (not exchanged), tax excluded */
  items_subtotal: MoneyBag,
  /** tax on those items */
  tax: MoneyBag,
  /** fee charged by the shop on refunded items (never on exchanges); zero or positive */
  return_fee: MoneyBag,
  /**
   * true when the shop's fee would apply and is waived for a reason the shop marked (damaged,
   * wrong item): the fee is then zero and the shopper is told why; absent otherwise
   */
  return_fee_waived: Type.Optional(Type.Boolean()),
  /** store-credit bonus on what is paid as credit (store credit chosen, or a new item); zero otherwise */
  bonus: MoneyBag,
  /** price of the upsell variant taken, paid from the credit; zero when none */
  upsell: MoneyBag,
  /** what the shopper gets back: items + tax - fee + bonus - upsell, never below zero */
  total: MoneyBag,
  /**
   * the part of items + tax for items the shopper keeps (refunded without being sent back); zero
   * when none. Absent from returns made before keep-item returns existed.
   */
  kept_items: Type.Optional(MoneyBag),
})
export type RefundBreakdown = Static<typeof RefundBreakdown>

export const ReturnOrderItem = Type.Object({
  line_item_id: Type.String(),
  title: Type.String(),
  variant_title: Nullable(Type.String()),
  quantity: Count,
  reason_id: Type.String(),
  reason_label: Type.String(),
  comment: Nullable(Type.String()),
  exchange_variant_id: Nullable(Type.String()),
  exchange_variant_title: Nullable(Type.String()),
  /**
   * true: refunded without being sent back (its price per unit is below the shop's
   * keep_item_below); never for an exchange. The server always says; absent (false) in returns
   * made before keep-item returns existed.
   */
  keep: Type.Optional(Type.Boolean()),
})
export type ReturnOrderItem = Static<typeof ReturnOrderItem>

/** The return order (quote, or submitted return). */
/** The new item a return pays for with its credit (the upsell), as the catalogue had it then. */
export const NewItem = Type.Object({
  variant_id: Type.String(),
  product_title: Type.String(),
  /** the variant's own title; '' for a variant without options */
  title: Type.String(),
  price: MoneyBag,
  image_src: Nullable(Type.String()),
})
export type NewItem = Static<typeof NewItem>

export const ReturnOrder = Type.Object({
  /** null for a quote; set once submitted */
  id: Nullable(Type.String()),
  /** e.g. "#1001-R1"; null for a quote */
  name: Nullable(Type.String()),
  status: oneOf(RETURN_ORDER_STATUSES),
  items: Type.Array(ReturnOrderItem),
  refund_method: Nullable(RefundMethod),
  /**
   * the refund to the original payment method (no bonus); after an upsell, what is left once the
   * new item is paid for (its price over the multiplier taken off), zero when it takes it all
   */
  refund_value: MoneyBag,
  /**
   * what store credit would be worth (the refund times the multiplier; after an upsell, less the
   * new item's price, never below zero); null without a multiplier
   */
  store_credit_value: Nullable(MoneyBag),
  breakdown: RefundBreakdown,
  created_at: Nullable(Type.String()),
  /** when the money arrives, per method; absent when the shop sets no refund timing */
  refund_timing: Type.Optional(RefundTimings),
  /** the new item taken with the return (upsell_variant_id); absent without one */
  new_item: Type.Optional(NewItem),
  /** a quote priced with a preview's multiplier that is not the shop's: it shows, it cannot be submitted */
  preview_multiplier: Type.Optional(Type.Number()),
})
export type ReturnOrder = Static<typeof ReturnOrder>

/** GET /portal-registration/catalogue: products for upsell exploration. */
export const CatalogueProduct = Type.Object({
  id: Type.String(),
  title: Type.String(),
  image_src: Nullable(Type.String()),
  variants: Type.Array(Variant),
})
export type CatalogueProduct = Static<typeof CatalogueProduct>

export const Catalogue = Type.Object({ products: Type.Array(CatalogueProduct) })
export type Catalogue = Static<typeof Catalogue>

export const Address = Type.Object({
  name: Type.String(),
  line1: Type.String(),
  line2: Type.Optional(Type.String()),
  city: Type.String(),
  /** a state or province where the country's addresses name one, e.g. "AZ" */
  region: Type.Optional(Type.String()),
  postal_code: Type.String(),
  country_code: Type.String(),
})
export type Address = Static<typeof Address>

/** An address as the API shows it: also its lines as its country writes them, name and country left out. */
export const AddressWithLines = Type.Object({
  ...Address.properties,
  /** e.g. ["1 Road Runner Way", "Dock 7", "Phoenix, AZ 85001"]; absent from answers stored before */
  lines: Type.Optional(Type.Array(Type.String())),
})
export type AddressWithLines = Static<typeof AddressWithLines>

/** An item of a return as the instructions list it: in the parcel, or kept by the shopper. */
export const InstructionItem = Type.Object({
  line_item_id: Type.String(),
  title: Type.String(),
  variant_title: Nullable(Type.String()),
  quantity: Count,
  /** true: the shopper keeps it and sends nothing */
  keep: Type.Boolean(),
})
export type InstructionItem = Static<typeof InstructionItem>

/** GET /portal-registration/returns/{id}/instructions, for a return with something to send back. */
/** The label and drop-off code of a return: in its instructions, and again on its status page. */
export const ReturnLabel = Type.Object({
  /** absolute or API-relative URL of the label PDF, signed, opens without a header */
  label_url: Type.String(),
  /** the drop-off code as an SVG document (text) */
  qr_svg: Type.String(),
  /** what the QR encodes, also shown as text */
  qr_code_value: Type.String(),
})
export type ReturnLabel = Static<typeof ReturnLabel>

export const ReturnInstructions = Type.Object({
  return_id: Type.String(),
  return_name: Type.String(),
  steps: Type.Array(Type.String()),
  /** every item, sent or kept (the label covers the sent ones only); the server always says */
  items: Type.Optional(Type.Array(InstructionItem)),
  address: AddressWithLines,
  ...ReturnLabel.properties,
  /** signs the return's status page link (`/status/{return_id}#{status_token}`): read-only, this return only */
  status_token: Type.String(),
})
export type ReturnInstructions = Static<typeof ReturnInstructions>

/** The instructions of a return whose every item is kept: nothing to send, so no address, label or QR code. */
export const NothingToSendInstructions = Type.Object({
  return_id: Type.String(),
  return_name: Type.String(),
  steps: Type.Array(Type.String()),
  items: Type.Array(InstructionItem),
  nothing_to_send: Type.Literal(true),
  /** signs the return's status page link, as on ReturnInstructions */
  status_token: Type.String(),
})
export type NothingToSendInstructions = Static<typeof NothingToSendInstructions>

/**
 * A return the shop's rules flagged for review (docs/lifecycle.md): it has no label while it
 * waits, and none when rejected. Absent from a return that was never flagged.
 */
export const ReturnReview = Type.Object({
  state: oneOf(REVIEW_STATES),
  /** pending: the day (YYYY-MM-DD, UTC) the shop answers by */
  answer_by: Type.Optional(Type.String()),
  /** rejected: why, in the staff's words */
  reason: Type.Optional(Type.String()),
  /** approved or rejected: when (ISO 8601) */
  decided_at: Type.Optional(Type.String()),
})
export type ReturnReview = Static<typeof ReturnReview>

/**
 * The instructions of a return waiting for review, or rejected: no label or QR code (nothing is
 * sent before the shop approves); what the shopper is told, and when to expect an answer.
 */
export const ReviewInstructions = Type.Object({
  return_id: Type.String(),
  return_name: Type.String(),
  steps: Type.Array(Type.String()),
  items: Type.Array(InstructionItem),
  review: Type.Object({ ...ReturnReview.properties, state: oneOf(['pending', 'rejected'] as const) }),
  /** signs the return's status page link, as on ReturnInstructions */
  status_token: Type.String(),
})
export type ReviewInstructions = Static<typeof ReviewInstructions>

/** What GET /portal-registration/returns/{id}/instructions answers. */
export const ReturnInstructionsAnswer = Type.Union([ReturnInstructions, NothingToSendInstructions, ReviewInstructions])
export type ReturnInstructionsAnswer = Static<typeof ReturnInstructionsAnswer>

/**
 * Where one returned item is. A return's items start `requested`; an operator moves them on
 * (POST /admin/returns/{id}/status), forward only. An item kept by the shopper (not sent back)
 * goes from `requested` straight to `refunded`.
 */
export const ReturnItemState = oneOf(RETURN_ITEM_STATES)
export type ReturnItemState = Static<typeof ReturnItemState>

export const ReturnStatusItem = Type.Object({
  line_item_id: Type.String(),
  title: Type.String(),
  variant_title: Nullable(Type.String()),
  quantity: Count,
  image_src: Nullable(Type.String()),
  /** the variant it is exchanged for, by title; null when refunded */
  exchange_variant_title: Nullable(Type.String()),
  /** true: the shopper keeps it (refunded without being sent back); false for returns before keep-item returns */
  keep: Type.Boolean(),
  /** the states that apply to it, in order: `requested`, `refunded` when kept; all four when sent back */
  states: Type.Array(ReturnItemState),
  state: ReturnItemState,
  /** the states reached, with when (ISO 8601), in order; `requested` is the return's creation */
  history: Type.Array(Type.Object({ state: ReturnItemState, at: Type.String() })),
})
export type ReturnStatusItem = Static<typeof ReturnStatusItem>

/** What an inspection took off one item's refund (docs/lifecycle.md). */
export const RefundDeduction = Type.Object({
  line_item_id: Type.String(),
  title: Type.String(),
  condition: oneOf(INSPECTION_CONDITIONS),
  /** the shop's percent for that condition */
  percent: Type.Integer(),
  amount: Money,
})
export type RefundDeduction = Static<typeof RefundDeduction>

export const ReturnStatusRefund = Type.Object({
  method: RefundMethod,
  /** what the shopper gets back: the breakdown's total, less any deductions */
  amount: Money,
  /** what inspections took off, per item; absent when nothing was deducted */
  deductions: Type.Optional(Type.Array(RefundDeduction)),
  /** the breakdown's total, before the deductions; absent when nothing was deducted */
  before_deductions: Type.Optional(Money),
  /** null when the shop sets no timing for this method */
  timing: Nullable(RefundTiming),
  /** the dates (YYYY-MM-DD) the money is expected between, once what it waits for has happened */
  expected: Nullable(Type.Object({ from: Type.String(), to: Type.String() })),
  /** ISO 8601: when a refund at once, counted from the submission, was issued (the submission); absent otherwise */
  issued_at: Type.Optional(Type.String()),
  /** store credit once issued: the code to spend and what it is worth (decision 0064); absent before */
  store_credit: Type.Optional(Type.Object({ code: Type.String(), amount: Money, issued_at: Type.String() })),
})
export type ReturnStatusRefund = Static<typeof ReturnStatusRefund>

/**
 * GET /portal-registration/returns/{id}/status?signature=…: the return as its shopper may follow
 * it from a kept link, without a session. Read-only, this return only.
 */
export const ReturnStatus = Type.Object({
  return_id: Type.String(),
  return_name: Type.String(),
  /** ISO 8601 */
  created_at: Type.String(),
  items: Type.Array(ReturnStatusItem),
  /** null when nothing is refunded (an exchange only) or the return was imported without one */
  refund: Nullable(ReturnStatusRefund),
  /** the label and drop-off code again, while some item that is sent back is still to be sent; null after, and when every item is kept */
  label: Nullable(ReturnLabel),
  /** the new item taken with the return: sent once every item of the return has reached its last step */
  new_item: Type.Optional(Type.Object({ ...NewItem.properties, state: oneOf(NEW_ITEM_STATES) })),
  address: AddressWithLines,
  /** the review, when the shop's rules flagged the return; absent otherwise */
  review: Type.Optional(ReturnReview),
  /** how the shop ended the return, when it did (decision 0083): cancelled, or closed; absent otherwise */
  ended: Type.Optional(Type.Object({ state: oneOf(RETURN_ENDINGS), at: Type.String() })),
})
export type ReturnStatus = Static<typeof ReturnStatus>
