/**
 * The Portal API's plain constants: limits and the lists its enumerations are made of. This module
 * imports nothing, so the portal's start bundle may import it by value without taking in the
 * schema library that `./api` is written with (the start bundle's byte budget has no room for it).
 */

/** At most this many photos go with one item; each is at most PHOTO_MAX_BYTES. */
export const PHOTOS_PER_ITEM = 3
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024
/** The longest side of a stored photo: the API keeps at most this, so the portal sends no more. */
export const PHOTO_MAX_SIDE = 2560
/** What browsers produce from a camera or a photo library (iOS turns HEIC into JPEG for these). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
/** An uploaded photo's id: unguessable, 22 base64url characters (128 random bits). */
export const PHOTO_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/

/** A portal configuration's id: `demo`, or `demo-de` for the German variant; at most 64 characters. */
export const CONFIG_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/

/** A return's id in a path (a UUID; anything else, such as a "%00", is refused before the database). */
export const RETURN_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/

/** A signature in a link (of a label or of a status page): base64url. */
export const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{1,128}$/

/** What makes a submit, and every retry of it, one return: 8 to 128 base64url characters. */
/**
 * A support reference as shown: eight Crockford base32 characters (40 random bits) in two groups,
 * `7KQ2-9XHD`. Read out on a phone; typed back in any case, with or without the dash.
 */
export const SUPPORT_REFERENCE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/
/** How long a support reference opens the shopper's session for the shop's staff. */
export const SUPPORT_REFERENCE_DAYS = 7

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/

/** The refund methods, in the order the portal offers them. */
export const REFUND_METHODS = ['original_payment', 'store_credit'] as const

/** The 400 codes of verify. Anything else shows the portal's default_error_message. */
export const VERIFY_ERROR_CODES = [
  'invalid_order',
  'order_not_fulfilled',
  'order_too_old',
  'order_already_has_return',
] as const

/** Why a line item cannot be returned (decided by the server). */
export const INELIGIBILITIES = ['final_sale', 'return_window_closed', 'already_returned', 'not_fulfilled'] as const

/** A reason that says the item did not fit: the exchange step then suggests the next size up or down. */
export const REASON_FITS = ['too_small', 'too_large'] as const

/** What a refund's waiting time is counted from: the submission, or the receipt of the items. */
/**
 * What a `422 invalid_return` says of each choice that no longer holds, so the portal can name it
 * and send the shopper to the step that fixes it (docs/api.md).
 */
export const RETURN_PROBLEMS = [
  'unknown_item',
  'listed_twice',
  'not_returnable',
  'too_many',
  'unknown_reason',
  'reason_has_sub_reasons',
  'comment_required',
  'exchange_not_offered',
  'out_of_stock',
  'no_upsell',
  'not_in_catalogue',
  'costs_more_than_credit',
  'photos_not_taken',
  'photo_unknown',
  'photo_taken',
  'photo_reused',
  'photos_missing',
] as const

/** A new item's way to the shopper (the upsell): to be sent until the return is done, then sent. */
export const NEW_ITEM_STATES = ['to_be_sent', 'sent'] as const

export const REFUND_AFTER = ['submit', 'receipt'] as const

/** A return order is a quote until it is submitted. */
export const RETURN_ORDER_STATUSES = ['quote', 'requested'] as const

/**
 * Where one returned item is, in order. A return's items start `requested`; an operator moves them
 * on (POST /admin/returns/{id}/status), forward only. These are the states an item that is sent
 * back goes through.
 */
export const RETURN_ITEM_STATES = ['requested', 'in_transit', 'received', 'refunded'] as const

type ItemState = (typeof RETURN_ITEM_STATES)[number]

/** The states of an item the shopper keeps: nothing travels, so never in transit or received. */
export const KEPT_ITEM_STATES = ['requested', 'refunded'] as const satisfies readonly ItemState[]

/** The states that apply to an item, in order: the kept ones, or the whole way of an item sent back. */
export const itemStates = (keep: boolean): readonly ItemState[] => (keep ? KEPT_ITEM_STATES : RETURN_ITEM_STATES)

/**
 * How staff end a return that goes no further (decision 0083): `cancelled` before anything was
 * received (its items may be returned again), `closed` with a reason (nothing is refunded by it).
 */
export const RETURN_ENDINGS = ['cancelled', 'closed'] as const

/** Where a return stands in the console's list: its least advanced item's state, or how it ended. */
export const RETURN_STATES = [...RETURN_ITEM_STATES, ...RETURN_ENDINGS] as const

/** What a shop's webhook endpoints may hear of (docs/events.md). */
export const WEBHOOK_EVENTS = [
  'return.created',
  'return.updated',
  'return.refunded',
  'return.cancelled',
  'return.closed',
] as const

/** What the shopper is told by e-mail (docs/events.md). */
export const EMAIL_KINDS = [
  'created',
  'received',
  'refunded',
  'new_item_sent',
  'approved',
  'rejected',
  'cancelled',
] as const

/**
 * A return flagged by the shop's review rules waits for staff (docs/lifecycle.md): `pending` until
 * they approve it (the label follows) or reject it (with a reason the shopper reads).
 */
export const REVIEW_STATES = ['pending', 'approved', 'rejected'] as const

/** Why a return was flagged for review: its value, photos for a reason that asks review, a frequent returner. */
export const REVIEW_RULES = ['over_amount', 'photos', 'frequent'] as const

/** What the warehouse found an item to be, on receipt. */
export const INSPECTION_CONDITIONS = ['as_new', 'opened', 'damaged', 'wrong_item', 'missing'] as const

/** What becomes of an inspected item: back on sale (restocked), refurbished, or thrown away. */
export const DISPOSITIONS = ['restock', 'refurbish', 'dispose'] as const

/** What Rebound asks of a shop's commerce engine (docs/commerce.md; the server's domain/engineActions.ts). */
export const ENGINE_ACTION_KINDS = [
  'request_return',
  'receive_return',
  'refund',
  'store_credit',
  'exchange',
  'cancel_return',
] as const
export type EngineActionKind = (typeof ENGINE_ACTION_KINDS)[number]

/**
 * Which engine actions a list shows: `unconfirmed`, not yet done (waiting, retrying or given up);
 * `pending`, waiting or retrying; `failed`, given up after the last attempt; `delivered`, done.
 */
export const ENGINE_ACTION_FILTERS = ['unconfirmed', 'pending', 'failed', 'delivered'] as const

/**
 * The back office's roles, most trusted first, and its actions (docs/back-office.md, "Roles"):
 * server/src/domain/roles.ts says which role may do what, and every signed-in console route names
 * the one action it is.
 */
export const STAFF_ROLES = ['owner', 'admin', 'agent', 'warehouse'] as const
export type Role = (typeof STAFF_ROLES)[number]

export const STAFF_ACTIONS = [
  /** the session, the shop's reasons: what every signed-in page needs */
  'console.use',
  /** the returns list, one return, its photos */
  'returns.read',
  /** receive a parcel and record its inspection, with photos */
  'returns.receive',
  /** move items by hand (in transit, received, refunded) */
  'returns.move',
  /** write a note on a return */
  'returns.note',
  /** cancel a return not yet received, or close one with a reason */
  'returns.cancel',
  /** the returns CSV, and bulk export */
  'returns.export',
  'insights.read',
  'emails.read',
  'emails.resend',
  /** approve or reject a return held for review (an agent: up to the shop's amount) */
  'reviews.decide',
  'support.open',
  'policy.read',
  'policy.write',
  'webhooks.manage',
  /** the store actions page and its retries */
  'engine.manage',
  'storeConnection.manage',
  'apiKeys.manage',
  'staff.manage',
  'audit.read',
] as const
export type StaffAction = (typeof STAFF_ACTIONS)[number]

/**
 * The audit log's kinds in groups, as its page filters them (docs/back-office.md, "The audit
 * log"): a name ending in a dot takes every kind it begins; any other is one kind.
 */
export const AUDIT_KIND_GROUPS = {
  sign_ins: ['session.'],
  staff: ['staff.', 'invite.'],
  settings: ['policy.', 'store_connection.', 'webhook.', 'api_key.', 'shop.'],
  returns: ['return.'],
  deliveries: ['delivery.', 'engine_action.', 'email.'],
  orders_api: ['orders_api.'],
  reads_and_exports: ['support.', 'returns.exported', 'audit.exported'],
} as const
export type AuditKindGroup = keyof typeof AUDIT_KIND_GROUPS

/** A page of the audit log holds this many entries. */
export const AUDIT_PAGE_SIZE = 50

/**
 * The returns list's views (docs/back-office.md, "Views"), each a filter the server applies:
 * `needs_review` waits for review; `to_receive` is approved or never flagged, its items not all
 * received; `to_refund` has every item received, some not refunded; `done` is refunded or rejected.
 */
export const RETURN_VIEWS = ['all', 'needs_review', 'to_receive', 'to_refund', 'done'] as const

/** How the returns list is sorted: by the date it was submitted, or by its amount as submitted. */
export const RETURN_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const

/** The longest search the returns list takes, and the most words of it that each must match. */
export const RETURN_SEARCH_MAX = 254
export const RETURN_SEARCH_WORDS = 6
