/**
 * The Portal API contract, shared by the portal (RTK Query generics) and the server (its JSON
 * schemas and domain code), so the two cannot drift. Field names follow portal-spec.md §3 and
 * PRODUCT.md §4: snake_case on the wire.
 */

/** A decimal amount as a string ("45.00") in a currency (ISO 4217). */
export interface Money {
  amount: string
  currency_code: string
}

/** An amount in the shop's currency and in the currency the shopper paid in. */
export interface MoneyBag {
  shop_money: Money
  presentment_money: Money
}

/** portal-spec.md §3, "Portal configuration". Every field but shop and portal_id is optional. */
export interface PortalConfig {
  shop: string
  portal_id: string
  favicon_src?: string
  document_title_text?: string
  background_src?: string
  logo_src?: string
  website_url?: string
  start_return_message?: string
  order_placeholder_text?: string
  order_tooltip_text?: string
  start_return_button_message?: string
  button_color?: string
  need_help_message?: string
  order_prefix?: string
  /** e.g. 1.1: store credit is worth the refund times this. Absent or null: no store credit bonus. */
  gift_card_value_multiplier?: number | null
  invalid_order_message?: string
  order_not_fulfilled_message?: string
  order_too_old_message?: string
  order_already_has_return_message?: string
  default_error_message?: string
}

/** POST /portal-registration/verify */
export interface VerifyRequest {
  order_name: string
  email: string
  shop: string
  portal_id: string
}

/** The 400 codes of verify (portal-spec.md §8). Anything else shows default_error_message. */
export type VerifyErrorCode = 'invalid_order' | 'order_not_fulfilled' | 'order_too_old' | 'order_already_has_return'

/** Every 4xx answer of the API: { error: code, message?: human words naming the bad field }. */
export interface ApiError {
  error: string
  message?: string
}

/**
 * POST /portal-registration/support-token (no body, or {}), authorised by the shopper's token: a
 * read-only token for the same order and shop with the same expiry. It quotes and reads the
 * catalogue and instructions; submit answers it `403 { error: 'read_only_session' }`.
 */
export interface SupportToken {
  token: string
  /** ISO 8601, the presented token's own expiry */
  token_expires_at: string
}

/** Why a line item cannot be returned; null when it can. Decided by the server. */
export type Ineligibility = 'final_sale' | 'return_window_closed' | 'already_returned' | 'not_fulfilled'

export interface LineItem {
  id: string
  /** null for a custom item without a variant */
  variant_id: string | null
  product_src: string | null
  /** for an exchange order: the variant this line was exchanged from; otherwise null */
  exchange_variant_id: string | null
  title: string
  variant_title: string | null
  /** units bought */
  quantity: number
  /** units that can still be returned (0 when ineligible) */
  returnable_quantity: number
  /** price paid per unit after discounts, tax included as the shop shows it */
  price: MoneyBag
  ineligible_reason: Ineligibility | null
  /**
   * true: refunded (not exchanged), this item stays with the shopper, who sends nothing back (the
   * shop's keep_item_below); absent: it comes back. The quote says it again for each item.
   */
  keep_if_refunded?: boolean
}

export interface VariantOption {
  name: string
  value: string
}

/** A variant named in exchange_data.options or in the catalogue. */
export interface Variant {
  id: string
  product_id: string
  product_title: string
  /** e.g. "M / Blue" */
  title: string
  options: VariantOption[]
  price: MoneyBag
  image_src: string | null
  available: boolean
}

export interface ExchangeData {
  /** for each variant id of the order: the variant ids it may be exchanged for (may include itself) */
  options: Record<string, string[]>
  upsell_enabled: boolean
  /** every variant named in options, by id */
  variants: Record<string, Variant>
}

/** A reason that says the item did not fit: the exchange step then suggests the next size up or down. */
export type ReasonFit = 'too_small' | 'too_large'

export interface ReturnReason {
  id: string
  label: string
  comment_required: boolean
  /** set when the reason says the item was too small or too large; absent otherwise */
  fit?: ReasonFit
  /** photos the shopper must add (1 to 3); absent: none asked */
  photos_required?: number
  /** sub-reasons: a reason with children is a heading, only a leaf can be chosen */
  children?: ReturnReason[]
}

/** At most this many photos go with one item; each is at most PHOTO_MAX_BYTES. */
export const PHOTOS_PER_ITEM = 3
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024
/** The longest side of a stored photo: the API keeps at most this, so the portal sends no more. */
export const PHOTO_MAX_SIDE = 2560
/** What browsers produce from a camera or a photo library (iOS turns HEIC into JPEG for these). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
/** An uploaded photo's id: unguessable, 22 base64url characters (128 random bits). */
export const PHOTO_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/

/** POST /portal-registration/photos (raw image body): the stored photo. */
export interface UploadedPhoto {
  id: string
  content_type: string
  size: number
}

/** The answer of verify. */
export interface VerifiedOrder {
  order_id: string
  order_name: string
  /** ISO 8601 */
  processed_at: string
  currency_code: string
  line_items: LineItem[]
  exchange_data: ExchangeData | null
  return_reasons: ReturnReason[]
  /** short-lived bearer token for the later calls; reaches only this order */
  token: string
  /** ISO 8601 */
  token_expires_at: string
}

export type RefundMethod = 'original_payment' | 'store_credit'

/** The refund methods, in the order the portal offers them. */
export const REFUND_METHODS = ['original_payment', 'store_credit'] as const satisfies readonly RefundMethod[]

/**
 * When the money of one refund method arrives, as the shop sets it (`settings.refund_timing`):
 * `from_days` to `to_days` (business days, Monday to Friday, unless `business_days` is false)
 * after the return is submitted or after its items are received. 0 to 0 means at once.
 */
export interface RefundTiming {
  from_days: number
  to_days: number
  business_days: boolean
  after: 'submit' | 'receipt'
}

/** The timing of each method the shop sets it for; a method without one shows no timing. */
export type RefundTimings = Partial<Record<RefundMethod, RefundTiming>>

export interface ReturnItemRequest {
  line_item_id: string
  quantity: number
  reason_id: string
  comment?: string
  /** exchange this item for that variant instead of a refund */
  exchange_variant_id?: string | null
  /** photos uploaded for this order (POST /portal-registration/photos), when the reason asks for them */
  photo_ids?: string[]
}

/**
 * The body of POST /portal-registration/returns/quote and POST /portal-registration/returns.
 * Authorised by `Authorization: Bearer <token>`.
 */
export interface ReturnRequest {
  items: ReturnItemRequest[]
  /** the upsell chosen in exploration: a catalogue variant paid for with the refund plus bonus */
  upsell_variant_id?: string | null
  /** null or absent: not chosen yet (the quote then gives both amounts) */
  refund_method?: RefundMethod | null
}

/** Refund breakdown, computed by the server in integer minor units. */
export interface RefundBreakdown {
  /** value of the returned items that are refunded (not exchanged), tax excluded */
  items_subtotal: MoneyBag
  /** tax on those items */
  tax: MoneyBag
  /** fee charged by the shop on refunded items (never on exchanges); zero or positive */
  return_fee: MoneyBag
  /** store-credit bonus on what is paid as credit (store credit chosen, or a new item); zero otherwise */
  bonus: MoneyBag
  /** price of the upsell variant taken, paid from the credit; zero when none */
  upsell: MoneyBag
  /** what the shopper gets back: items + tax - fee + bonus - upsell, never below zero */
  total: MoneyBag
  /**
   * the part of items + tax for items the shopper keeps (refunded without being sent back); zero
   * when none. Absent from returns made before keep-item returns existed.
   */
  kept_items?: MoneyBag
}

export interface ReturnOrderItem {
  line_item_id: string
  title: string
  variant_title: string | null
  quantity: number
  reason_id: string
  reason_label: string
  comment: string | null
  exchange_variant_id: string | null
  exchange_variant_title: string | null
  /**
   * true: refunded without being sent back (its price per unit is below the shop's
   * keep_item_below); never for an exchange. The server always says; absent (false) in returns
   * made before keep-item returns existed.
   */
  keep?: boolean
}

/** The return order (quote, or submitted return). portal-spec.md §3. */
export interface ReturnOrder {
  /** null for a quote; set once submitted */
  id: string | null
  /** e.g. "#1001-R1"; null for a quote */
  name: string | null
  status: 'quote' | 'requested'
  items: ReturnOrderItem[]
  refund_method: RefundMethod | null
  /**
   * the refund to the original payment method (no bonus); after an upsell, what is left once the
   * new item is paid for (its price over the multiplier taken off), zero when it takes it all
   */
  refund_value: MoneyBag
  /**
   * what store credit would be worth (the refund times the multiplier; after an upsell, less the
   * new item's price, never below zero); null without a multiplier
   */
  store_credit_value: MoneyBag | null
  breakdown: RefundBreakdown
  created_at: string | null
  /** when the money arrives, per method; absent when the shop sets no refund timing */
  refund_timing?: RefundTimings
}

/** GET /portal-registration/catalogue: products for upsell exploration. */
export interface CatalogueProduct {
  id: string
  title: string
  image_src: string | null
  variants: Variant[]
}

export interface Catalogue {
  products: CatalogueProduct[]
}

export interface Address {
  name: string
  line1: string
  line2?: string
  city: string
  postal_code: string
  country_code: string
}

/** An item of a return as the instructions list it: in the parcel, or kept by the shopper. */
export interface InstructionItem {
  line_item_id: string
  title: string
  variant_title: string | null
  quantity: number
  /** true: the shopper keeps it and sends nothing */
  keep: boolean
}

/** GET /portal-registration/returns/{id}/instructions, for a return with something to send back. */
export interface ReturnInstructions {
  return_id: string
  return_name: string
  steps: string[]
  /** every item, sent or kept (the label covers the sent ones only); the server always says */
  items?: InstructionItem[]
  address: Address
  /** absolute or API-relative URL of the label PDF, signed, opens without a header */
  label_url: string
  /** the drop-off code as an SVG document (text) */
  qr_svg: string
  /** what the QR encodes, also shown as text */
  qr_code_value: string
  /** signs the return's status page link (`/status/{return_id}#{status_token}`): read-only, this return only */
  status_token: string
}

/**
 * Where one returned item is. A return's items start `requested`; an operator moves them on
 * (POST /admin/returns/{id}/status), forward only. An item kept by the shopper (not sent back)
 * goes from `requested` straight to `refunded`.
 */
export type ReturnItemState = 'requested' | 'in_transit' | 'received' | 'refunded'

/** The states an item that is sent back goes through, in order. */
export const RETURN_ITEM_STATES = [
  'requested',
  'in_transit',
  'received',
  'refunded',
] as const satisfies readonly ReturnItemState[]

/** The states of an item the shopper keeps: nothing travels, so never in transit or received. */
export const KEPT_ITEM_STATES = ['requested', 'refunded'] as const satisfies readonly ReturnItemState[]

/** The states that apply to an item, in order: the kept ones, or the whole way of an item sent back. */
export const itemStates = (keep: boolean): readonly ReturnItemState[] => (keep ? KEPT_ITEM_STATES : RETURN_ITEM_STATES)

export interface ReturnStatusItem {
  line_item_id: string
  title: string
  variant_title: string | null
  quantity: number
  image_src: string | null
  /** the variant it is exchanged for, by title; null when refunded */
  exchange_variant_title: string | null
  /** true: the shopper keeps it (refunded without being sent back); false for returns before keep-item returns */
  keep: boolean
  /** the states that apply to it, in order: `requested`, `refunded` when kept; all four when sent back */
  states: ReturnItemState[]
  state: ReturnItemState
  /** the states reached, with when (ISO 8601), in order; `requested` is the return's creation */
  history: { state: ReturnItemState; at: string }[]
}

export interface ReturnStatusRefund {
  method: RefundMethod
  /** what the shopper gets back (the breakdown's total) */
  amount: Money
  /** null when the shop sets no timing for this method */
  timing: RefundTiming | null
  /** the dates (YYYY-MM-DD) the money is expected between, once what it waits for has happened */
  expected: { from: string; to: string } | null
  /** ISO 8601: when a refund at once, counted from the submission, was issued (the submission); absent otherwise */
  issued_at?: string
}

/**
 * GET /portal-registration/returns/{id}/status?signature=…: the return as its shopper may follow
 * it from a kept link, without a session. Read-only, this return only.
 */
export interface ReturnStatus {
  return_id: string
  return_name: string
  /** ISO 8601 */
  created_at: string
  items: ReturnStatusItem[]
  /** null when nothing is refunded (an exchange only) or the return was imported without one */
  refund: ReturnStatusRefund | null
  /** the label and drop-off code again, while some item that is sent back is still to be sent; null after, and when every item is kept */
  label: { label_url: string; qr_svg: string; qr_code_value: string } | null
  address: Address
}

/** The instructions of a return whose every item is kept: nothing to send, so no address, label or QR code. */
export interface NothingToSendInstructions {
  return_id: string
  return_name: string
  steps: string[]
  items: InstructionItem[]
  nothing_to_send: true
  /** signs the return's status page link, as on ReturnInstructions */
  status_token: string
}

/** What GET /portal-registration/returns/{id}/instructions answers. */
export type ReturnInstructionsAnswer = ReturnInstructions | NothingToSendInstructions
