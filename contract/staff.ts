/**
 * The back office's API (docs/back-office.md): what the console sends and is answered, written
 * once for the server's validation and the console's types. Only the console imports it, never
 * the shopper's portal.
 */
import { Type, type Static } from '@sinclair/typebox'
import {
  DISPOSITIONS,
  INSPECTION_CONDITIONS,
  PHOTO_ID_PATTERN,
  RETURN_ENDINGS,
  RETURN_ITEM_STATES,
  RETURN_ID_PATTERN,
  RETURN_STATES,
  REVIEW_RULES,
  REVIEW_STATES,
  STAFF_ACTIONS,
  STAFF_ROLES,
  RETURN_SEARCH_MAX,
  RETURN_SORTS,
  RETURN_VIEWS,
} from './constants'
import {
  Money,
  Nullable,
  oneOf,
  RefundDeduction,
  RefundMethod,
  ReturnItemState,
  ReturnOrder,
  ReturnStatus,
} from './api'
import { ShopPolicy } from './policy'
import { RETURN_OUTCOMES } from './staffWords'

/** POST /admin/api/session */
export const SignIn = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
)
export type SignIn = Static<typeof SignIn>

/** Who is signed in, and the shop of this host that the console works on. */
export const StaffSession = Type.Object({
  email: Type.String(),
  shop: Type.String(),
  /** every shop this staff member works for (each on its own host) */
  shops: Type.Array(Type.String()),
  /** their role in this shop (docs/back-office.md, "Roles") */
  role: oneOf(STAFF_ROLES),
  /** what this role may do here: the console hides the rest */
  actions: Type.Array(oneOf(STAFF_ACTIONS)),
})
export type StaffSession = Static<typeof StaffSession>

export { OUTCOME_WORDS, RETURN_OUTCOMES, REVIEW_WORDS, STATE_WORDS, returnStandingWords } from './staffWords'
export const ReturnOutcome = oneOf(RETURN_OUTCOMES)
export type ReturnOutcome = Static<typeof ReturnOutcome>

/** GET /admin/api/shop: what the console's filters offer for this shop. */
export const StaffShop = Type.Object({
  shop: Type.String(),
  /** every reason a shopper can choose, a sub-reason labelled with its parent ("Not as described: Wrong item sent") */
  reasons: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
})
export type StaffShop = Static<typeof StaffShop>

/** A day, YYYY-MM-DD. */
const DAY = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'

/** The list's search and filters, the same for its pages and its export. */
const ReturnFilters = {
  /**
   * words each found in a return's number, its order's, its drop-off code, the shopper's e-mail or
   * name, or an item's title (docs/back-office.md, "Finding returns"); a word of digits, with or
   * without #, is the start of a number
   */
  q: Type.Optional(Type.String({ maxLength: RETURN_SEARCH_MAX })),
  /** one of the list's views (all when absent) */
  view: Type.Optional(oneOf(RETURN_VIEWS)),
  /** an item state, or how staff ended the return (cancelled, closed: decision 0083) */
  state: Type.Optional(oneOf(RETURN_STATES)),
  /** created on or after this day (YYYY-MM-DD, UTC) */
  from: Type.Optional(Type.String({ pattern: DAY })),
  /** created on or before this day */
  to: Type.Optional(Type.String({ pattern: DAY })),
  /** a reason id: returns with an item returned for it */
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  /** returns with this review state (pending: the review queue's) */
  review: Type.Optional(oneOf(REVIEW_STATES)),
}

/** GET /admin/api/returns: search, filters, the order and the page after `after`. */
export const ReturnsQuery = Type.Object(
  {
    ...ReturnFilters,
    /** newest first when absent */
    sort: Type.Optional(oneOf(RETURN_SORTS)),
    /** the cursor of the page before (`next` of its answer) */
    after: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,300}$' })),
    /** returns a page, 1 to 100 (25 when absent) */
    limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$' })),
  },
  { additionalProperties: false },
)
export type ReturnsQuery = Static<typeof ReturnsQuery>

/** GET /admin/api/return-counts: the list's search and filters, without a view. */
const { view: _view, ...CountedFilters } = ReturnFilters
export const ReturnCountsQuery = Type.Object(CountedFilters, { additionalProperties: false })
export type ReturnCountsQuery = Static<typeof ReturnCountsQuery>

/** Its answer: how many returns each view of the list holds under that search and those filters. */
export const ReturnCounts = Type.Object({
  all: Type.Integer(),
  needs_review: Type.Integer(),
  to_receive: Type.Integer(),
  to_refund: Type.Integer(),
  done: Type.Integer(),
})
export type ReturnCounts = Static<typeof ReturnCounts>

/** GET /admin/api/returns.csv: the filtered list, every page, as a spreadsheet. */
export const ReturnsExportQuery = Type.Object(
  {
    ...ReturnFilters,
    /** only these returns (the list's selection), ids joined by commas, at most 100 */
    ids: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}(,[A-Za-z0-9_-]{1,128}){0,99}$' })),
  },
  { additionalProperties: false },
)
export type ReturnsExportQuery = Static<typeof ReturnsExportQuery>

/**
 * Its answer: CSV text (UTF-8 with a byte-order mark, a header row), streamed as it is written,
 * never through the JSON serialiser; the schema only documents it (server/src/openapi.ts).
 */
export const ReturnsCsv = Type.Unsafe<unknown>({ description: 'CSV, UTF-8 with a byte-order mark and a header row' })

export const ReturnSummary = Type.Object({
  id: Type.String(),
  /** "#1001-R1" */
  name: Type.String(),
  order_name: Type.String(),
  email: Type.String(),
  created_at: Type.String(),
  /** units returned */
  items: Type.Integer(),
  outcome: Type.Union([ReturnOutcome, Type.Null()]),
  /** what the shopper gets back (refund or credit); null for returns imported without pricing */
  refund: Type.Union([Money, Type.Null()]),
  /** its least advanced item's state, or how staff ended it (decision 0083) */
  state: oneOf(RETURN_STATES),
  /** null when the shop's rules never flagged it */
  review: Nullable(oneOf(REVIEW_STATES)),
})
export type ReturnSummary = Static<typeof ReturnSummary>

export const ReturnList = Type.Object({
  returns: Type.Array(ReturnSummary),
  /** the cursor of the next page; null on the last */
  next: Type.Union([Type.String(), Type.Null()]),
})
export type ReturnList = Static<typeof ReturnList>

/**
 * One line of a return's history: created, an item reaching a state, a staff action, a staff
 * note (nothing moved), the return cancelled or closed (the reason in `note`).
 */
export const TimelineEntry = Type.Object({
  at: Type.String(),
  kind: oneOf(['created', 'state', 'action', 'note', 'cancelled', 'closed'] as const),
  state: Type.Union([ReturnItemState, Type.Null()]),
  /** the items it concerns, by title */
  items: Type.Array(Type.String()),
  /** who: "shopper", "operator" (the token API) or a staff member's e-mail */
  actor: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
})
export type TimelineEntry = Static<typeof TimelineEntry>

export const StaffPhoto = Type.Object({ id: Type.String(), line_item_id: Type.String(), url: Type.String() })
export type StaffPhoto = Static<typeof StaffPhoto>

/** Why the shop's rules flagged a return, in words staff read ("Worth €250.00, over €200.00"). */
export const ReviewFlag = Type.Object({ rule: oneOf(REVIEW_RULES), message: Type.String() })
export type ReviewFlag = Static<typeof ReviewFlag>

/** A flagged return's review: why, what was decided, by whom. */
export const StaffReview = Type.Object({
  state: oneOf(REVIEW_STATES),
  flags: Type.Array(ReviewFlag),
  /** the day (YYYY-MM-DD) the shopper was told to expect an answer by */
  answer_by: Type.String(),
  /** the rejection's reason, as the shopper reads it */
  reason: Nullable(Type.String()),
  decided_at: Nullable(Type.String()),
  /** the staff member's e-mail */
  decided_by: Nullable(Type.String()),
})
export type StaffReview = Static<typeof StaffReview>

/** An exchange whose item came back in a holding condition: its new item waits for staff (decision 0055). */
export const HeldExchange = Type.Object({
  line_item_id: Type.String(),
  /** the item as staff read it: "Classic Tee · S" */
  title: Type.String(),
  condition: oneOf(INSPECTION_CONDITIONS),
  /** the variant the shopper asked for instead ("L") */
  exchange_variant_title: Nullable(Type.String()),
})
export type HeldExchange = Static<typeof HeldExchange>

/** What the warehouse recorded of one received item, or of one unit of it (docs/decisions/0085-inspection-per-unit.md). */
export const Inspection = Type.Object({
  line_item_id: Type.String(),
  /** the unit it is of a line inspected unit by unit ("unit 1 of 2"); absent when it is every unit's */
  unit: Type.Optional(Type.Object({ number: Type.Integer({ minimum: 1 }), of: Type.Integer({ minimum: 1 }) })),
  condition: oneOf(INSPECTION_CONDITIONS),
  /** null for a missing item: nothing came back */
  disposition: Nullable(oneOf(DISPOSITIONS)),
  note: Nullable(Type.String()),
  photos: Type.Array(StaffPhoto),
  /** what it took off the refund; null when nothing */
  deduction: Nullable(RefundDeduction),
  /** restocked: the variant put back on sale, by title; null otherwise */
  restocked_variant: Nullable(Type.String()),
  inspected_at: Type.String(),
  inspected_by: Type.String(),
})
export type Inspection = Static<typeof Inspection>

/** GET /admin/api/returns/{id} */
export const ReturnDetail = Type.Object({
  summary: ReturnSummary,
  /** the shopper's status page as it reads now */
  status: ReturnStatus,
  /** the return as submitted (reasons, comments, breakdown); null for returns imported without one */
  return_order: Type.Union([ReturnOrder, Type.Null()]),
  photos: Type.Array(StaffPhoto),
  timeline: Type.Array(TimelineEntry),
  /** null when the shop's rules never flagged it */
  review: Nullable(StaffReview),
  /** the items inspected on receipt */
  inspections: Type.Array(Inspection),
  /** exchanges waiting for a staff decision: inspected in a holding condition, new item not sent */
  held: Type.Array(HeldExchange),
  /**
   * The shopper's links, as their e-mails carry them: the status page, and the label while there
   * is one to print; null when the portal's address is not known
   */
  links: Type.Object({ status: Nullable(Type.String()), label: Nullable(Type.String()) }),
  /** how staff ended the return (decision 0083); null while it goes on */
  ended: Nullable(
    Type.Object({
      state: oneOf(RETURN_ENDINGS),
      /** a closing's reason; null for a cancellation */
      reason: Nullable(Type.String()),
      at: Type.String(),
      by: Type.String(),
    }),
  ),
})
export type ReturnDetail = Static<typeof ReturnDetail>

/** Text staff type: no control characters but line breaks and tabs, and not blank. */
const STAFF_TEXT = '^(?=[\\s\\S]*\\S)[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$'

/** POST /admin/api/returns/{id}/notes: a note on the timeline; nothing moves. */
export const StaffNote = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 2000, pattern: STAFF_TEXT }) },
  { additionalProperties: false },
)
export type StaffNote = Static<typeof StaffNote>

/** POST /admin/api/returns/{id}/close: the return goes no further, for this reason (staff read it). */
export const StaffClose = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, pattern: STAFF_TEXT }) },
  { additionalProperties: false },
)
export type StaffClose = Static<typeof StaffClose>

/** A cancellation or closing refused (409): `not_cancellable` (an item was received or refunded), `already_ended`. */
export const StaffEndRefused = Type.Object({ error: Type.String(), message: Type.String() })

/** POST /admin/api/emails/{id}/resend: the new e-mail written to the outbox. */
export const EmailResent = Type.Object({
  id: Type.String(),
  /** the e-mail's subject as it was sent, when it was rendered */
  subject: Nullable(Type.String()),
})
export type EmailResent = Static<typeof EmailResent>

export const StaffReturnParams = Type.Object({ id: Type.String({ pattern: RETURN_ID_PATTERN.source }) })

/** POST /admin/api/returns/{id}/status: move items on, with a note for the timeline. */
export const StaffStateChange = Type.Object(
  {
    state: oneOf(RETURN_ITEM_STATES.filter((state) => state !== 'requested')),
    line_item_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 1000, uniqueItems: true }),
    ),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    /**
     * To mark refunded items that never arrived: the amount the refund comes to, as the console
     * showed it ("64.99"; "0" when the move pays nothing). Without it, or when it no longer is the
     * amount, such a move is a 409 `confirm_refund` naming the amount (decision 0056).
     */
    confirm_amount: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
)
export type StaffStateChange = Static<typeof StaffStateChange>

/** The answer to a staff move: the return as it reads now, what moved and what could not, in words. */
export const StaffItemsMoved = Type.Object({
  ...ReturnDetail.properties,
  /** the items moved now, by title ("Classic Tee · M") */
  moved: Type.Array(Type.String()),
  /** each item chosen that could not move, and why ("Classic Tee · M is already received") */
  skipped: Type.Array(Type.String()),
})
export type StaffItemsMoved = Static<typeof StaffItemsMoved>

/**
 * A staff move's 409: `not_approved` (waiting for review, or rejected), or `confirm_refund` with the
 * `amount` to confirm in `confirm_amount`, null when the move pays nothing (decision 0056).
 */
export const StaffMoveRefused = Type.Object({
  error: Type.String(),
  message: Type.String(),
  amount: Type.Optional(Nullable(Money)),
})
export type StaffMoveRefused = Static<typeof StaffMoveRefused>

/** GET /admin/api/support/{reference}: the shopper's support code behind a reference of this shop. */
export const SupportReferenceParams = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 32 }) })

export const SupportSession = Type.Object({
  reference: Type.String(),
  /** the support code the portal's replay opens (its /support page, the code after the #) */
  code: Type.String(),
  created_at: Type.String(),
  expires_at: Type.String(),
})
export type SupportSession = Static<typeof SupportSession>

/** GET /admin/api/insights?from=&to=: the period, days in UTC (the last 30 days when absent). */
export const InsightsQuery = Type.Object(
  { from: ReturnFilters.from, to: ReturnFilters.to },
  { additionalProperties: false },
)
export type InsightsQuery = Static<typeof InsightsQuery>

/** Units returned, and their value at the price the order shows. */
const Tally = { count: Type.Integer(), value: Money }

export const Insights = Type.Object({
  /** the period, YYYY-MM-DD, both days included */
  from: Type.String(),
  to: Type.String(),
  /** returns submitted in the period (returns imported without pricing are left out) */
  returns: Type.Integer(),
  /** reasons, most units first */
  reasons: Type.Array(Type.Object({ reason_id: Type.String(), label: Type.String(), ...Tally })),
  /** the ten most returned products, most units first */
  products: Type.Array(Type.Object({ title: Type.String(), ...Tally })),
  /** revenue the shop kept (exchanged items, new items bought with credit, store credit) and refunded */
  outcomes: Type.Object({ exchanges: Money, upsells: Money, store_credit: Money, refunded: Money }),
})
export type Insights = Static<typeof Insights>

/** GET /admin/api/reviews: the returns waiting for review, oldest first, a page of 25 (as the list's), and how many wait. */
export const ReviewQueue = Type.Object({
  returns: Type.Array(
    Type.Object({ ...ReturnSummary.properties, flags: Type.Array(ReviewFlag), answer_by: Type.String() }),
  ),
  total: Type.Integer(),
})
export type ReviewQueue = Static<typeof ReviewQueue>

/** POST /admin/api/reviews: approve or reject one or several returns waiting for review. */
export const ReviewDecision = Type.Object(
  {
    return_ids: Type.Array(Type.String({ pattern: RETURN_ID_PATTERN.source }), {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
    }),
    decision: oneOf(['approve', 'reject'] as const),
    /** required to reject: the shopper reads it on the status page and in the e-mail */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  },
  { additionalProperties: false },
)
export type ReviewDecision = Static<typeof ReviewDecision>

export const ReviewDecided = Type.Object({
  /** the returns decided now */
  decided: Type.Array(Type.String()),
  /** the returns left as they were, and why (no longer waiting, not of this shop) */
  skipped: Type.Array(Type.Object({ id: Type.String(), message: Type.String() })),
})
export type ReviewDecided = Static<typeof ReviewDecided>

/** GET /admin/api/receive?code=: the return a scanned drop-off code (RB-…) or typed number (#1001-R1) names. */
export const ReceiveQuery = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
)
export const ReceiveFound = Type.Object({ return_id: Type.String(), name: Type.String() })
export type ReceiveFound = Static<typeof ReceiveFound>

/** POST /admin/api/returns/{id}/inspection (and …/inspection/preview): what the warehouse found. */
export const InspectionRequest = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          line_item_id: Type.String({ minLength: 1, maxLength: 128 }),
          /** every unit's condition; or, instead, `units` */
          condition: Type.Optional(oneOf(INSPECTION_CONDITIONS)),
          /** required with `condition`, but for a missing item, which has none */
          disposition: Type.Optional(oneOf(DISPOSITIONS)),
          /** each unit's condition and disposition, one for each unit returned (docs/decisions/0085-inspection-per-unit.md) */
          units: Type.Optional(
            Type.Array(
              Type.Object(
                { condition: oneOf(INSPECTION_CONDITIONS), disposition: Type.Optional(oneOf(DISPOSITIONS)) },
                { additionalProperties: false },
              ),
              { minItems: 1, maxItems: 1000 },
            ),
          ),
          note: Type.Optional(Type.String({ maxLength: 1000 })),
          photo_ids: Type.Optional(
            Type.Array(Type.String({ pattern: PHOTO_ID_PATTERN.source }), { maxItems: 3, uniqueItems: true }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    /** also issue the refund now (the items move on to refunded), with what the inspection deducts */
    refund: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type InspectionRequest = Static<typeof InspectionRequest>

/** What an inspection would do, shown to staff before they confirm it. */
export const InspectionPreview = Type.Object({
  /** null when the return refunds nothing */
  refund: Nullable(
    Type.Object({
      method: RefundMethod,
      before: Money,
      deductions: Type.Array(RefundDeduction),
      /** what the shopper gets back: before, less the deductions, never below zero */
      amount: Money,
      /** when the refund (store credit, say) was issued at submission: nothing can be taken from it now */
      issued_at: Type.Optional(Type.String()),
      /** what the shop's deductions would have taken, had the refund not been issued already */
      forgone: Type.Array(RefundDeduction),
    }),
  ),
  /** the variants put back on sale, by title */
  restock: Type.Array(Type.Object({ line_item_id: Type.String(), variant: Type.String() })),
  /** exchanges whose new item is not sent: they wait for a staff decision */
  held: Type.Array(HeldExchange),
  /** with the refund: the other items refunded with these (kept by the shopper, received earlier), by title */
  refunded_with: Type.Array(Type.String()),
})
export type InspectionPreview = Static<typeof InspectionPreview>

/** GET and PUT /admin/api/policy: the shop's policy, with what its editor offers. */
export const StaffPolicy = Type.Object({
  policy: ShopPolicy,
  /** every tag of the shop's catalogue's products */
  tags: Type.Array(Type.String()),
  /** the shop's return window when no rule applies */
  return_window_days: Type.Integer(),
  currency_code: Type.String(),
})
export type StaffPolicy = Static<typeof StaffPolicy>

/** One of the shop's Orders API keys (docs/api.md: Orders API), as staff see it: never its token. */
export const ApiKeyView = Type.Object({
  id: Type.String(),
  label: Type.String(),
  /** the token's first characters (`rbk_Ab3dE_`), to tell keys apart; not a secret */
  prefix: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  /** the staff member's e-mail, or `cli` for `npm run staff -- key-add` */
  created_by: Type.String(),
  /** to the minute: a use is noted at most once a minute */
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
})
export type ApiKeyView = Static<typeof ApiKeyView>

/** GET /admin/api/api-keys: the shop's keys, revoked ones too, oldest first. */
export const ApiKeyList = Type.Object({ keys: Type.Array(ApiKeyView) })
export type ApiKeyList = Static<typeof ApiKeyList>

/** POST /admin/api/api-keys */
export const NewApiKey = Type.Object(
  {
    /** what the key is for ("Medusa sync"): at most 80 characters, not blank */
    label: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
  },
  { additionalProperties: false },
)
export type NewApiKey = Static<typeof NewApiKey>

/** The key just made, with its token: the only answer that ever holds it. */
export const CreatedApiKey = Type.Object({ ...ApiKeyView.properties, token: Type.String() })
export type CreatedApiKey = Static<typeof CreatedApiKey>

/** DELETE /admin/api/api-keys/:id */
export const ApiKeyParams = Type.Object({ id: Type.String({ pattern: '^key_[0-9a-f]{20}$' }) })
export type ApiKeyParams = Static<typeof ApiKeyParams>

/** The commerce engines a shop can connect (docs/back-office.md: Store connection). */
export const COMMERCE_ENGINES = ['medusa'] as const
export type CommerceEngine = (typeof COMMERCE_ENGINES)[number]

/**
 * An engine's address: http(s), no user or password in it (the key goes in its own field). The
 * shop's own system, so a private address is allowed (decision 0075), unlike a webhook's.
 */
export const ENGINE_URL_PATTERN = '^https?://[^\\s/?#@]+(?:[/?#][^\\s]*)?$'

/** What Test connection checks, in order: each step needs the one before. */
export const CONNECTION_CHECKS = ['address', 'key', 'sales_channel', 'stock_location'] as const
/**
 * One check's outcome: `ok`; the address `unreachable`, `timeout` or `not_engine` (it answered,
 * but not as the engine's API); the key `refused` or `unreadable` (sealed under another server
 * secret: enter it again); a sales channel or stock location `not_found`; `failed` (the engine
 * answered an error); `not_checked` (an earlier check failed).
 */
export const CONNECTION_OUTCOMES = [
  'ok',
  'unreachable',
  'timeout',
  'not_engine',
  'refused',
  'unreadable',
  'not_found',
  'failed',
  'not_checked',
] as const

export const ConnectionCheckLine = Type.Object({
  check: oneOf(CONNECTION_CHECKS),
  outcome: oneOf(CONNECTION_OUTCOMES),
})
export type ConnectionCheckLine = Static<typeof ConnectionCheckLine>

/** POST /admin/api/store-connection/test, and the last one kept with the connection. */
export const ConnectionTest = Type.Object({
  ok: Type.Boolean(),
  checks: Type.Array(ConnectionCheckLine),
  at: Type.String({ format: 'date-time' }),
})
export type ConnectionTest = Static<typeof ConnectionTest>

/** The shop's store connection as staff see it: never its key, only whether one is set. */
export const StoreConnectionView = Type.Object({
  engine: oneOf(COMMERCE_ENGINES),
  url: Type.String(),
  /** false when the key was sealed under another server secret and must be entered again */
  api_key_readable: Type.Boolean(),
  sales_channel_id: Type.String(),
  stock_location_id: Type.String(),
  region_id: Nullable(Type.String()),
  updated_at: Type.String({ format: 'date-time' }),
  /** the staff member's e-mail, `cli`, or `shop file` */
  updated_by: Type.String(),
  last_test: Nullable(ConnectionTest),
})
export type StoreConnectionView = Static<typeof StoreConnectionView>

/** GET /admin/api/store-connection: null when no store is connected. */
export const StoreConnectionAnswer = Type.Object({ connection: Nullable(StoreConnectionView) })
export type StoreConnectionAnswer = Static<typeof StoreConnectionAnswer>

const EngineId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' })

/** PUT /admin/api/store-connection: `api_key` left out keeps the key set before. */
export const SetStoreConnection = Type.Object(
  {
    engine: oneOf(COMMERCE_ENGINES),
    url: Type.String({ maxLength: 2000, pattern: ENGINE_URL_PATTERN }),
    api_key: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: '^\\S+$' })),
    sales_channel_id: EngineId,
    stock_location_id: EngineId,
    region_id: Type.Optional(Nullable(EngineId)),
  },
  { additionalProperties: false },
)
export type SetStoreConnection = Static<typeof SetStoreConnection>

/** A staff member of the shop, as the Staff page lists them (GET /admin/api/staff). */
export const StaffMemberView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: oneOf(STAFF_ROLES),
  last_sign_in_at: Nullable(Type.String()),
})
export type StaffMemberView = Static<typeof StaffMemberView>

/** An invite not yet accepted, until it expires. */
export const StaffInviteView = Type.Object({
  email: Type.String(),
  role: oneOf(STAFF_ROLES),
  invited_by: Type.String(),
  created_at: Type.String(),
  expires_at: Type.String(),
})
export type StaffInviteView = Static<typeof StaffInviteView>

/** GET /admin/api/staff: the shop's staff, its pending invites and the agents' review limit. */
export const StaffList = Type.Object({
  members: Type.Array(StaffMemberView),
  invites: Type.Array(StaffInviteView),
  /** agents decide reviews of returns up to this refund; null: no limit set (any amount) */
  review_limit: Nullable(Money),
})
export type StaffList = Static<typeof StaffList>

/**
 * What an invite or a reset answers: the list, and the link itself where this server sends no
 * e-mail (no SMTP_URL), for the owner to hand over; null when the e-mail carries it.
 */
export const StaffLinkSent = Type.Object({
  ...StaffList.properties,
  link: Nullable(Type.String()),
})
export type StaffLinkSent = Static<typeof StaffLinkSent>

/** POST /admin/api/staff/invites: invite an e-mail with a role; the link goes by e-mail. */
export const NewStaffInvite = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' }),
    role: oneOf(STAFF_ROLES),
  },
  { additionalProperties: false },
)
export type NewStaffInvite = Static<typeof NewStaffInvite>

/** POST /admin/api/staff/invites/withdraw: the pending invite of this e-mail stops working. */
export const InviteWithdrawal = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }) },
  { additionalProperties: false },
)
export type InviteWithdrawal = Static<typeof InviteWithdrawal>

export const StaffMemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

/** PUT /admin/api/staff/{id}/role */
export const StaffRoleChange = Type.Object({ role: oneOf(STAFF_ROLES) }, { additionalProperties: false })
export type StaffRoleChange = Static<typeof StaffRoleChange>

/** PUT /admin/api/staff/review-limit: a decimal amount in the shop's currency ("200.00"), or null for none. */
export const ReviewLimitChange = Type.Object(
  { amount: Nullable(Type.String({ pattern: '^[0-9]{1,9}([.][0-9]{1,3})?$' })) },
  { additionalProperties: false },
)
export type ReviewLimitChange = Static<typeof ReviewLimitChange>

/** POST /admin/api/invite: an invite's (or a reset's) token from its link, and the password chosen. */
export const InviteAcceptance = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
)
export type InviteAcceptance = Static<typeof InviteAcceptance>

/**
 * GET /admin/api/audit and /admin/api/audit.csv (docs/back-office.md, "The audit log"): the
 * shop's entries, newest first, filtered by who, what and when.
 */
const AuditFilters = {
  /** the actor as entries name it: a staff member's e-mail, an API key's label */
  person: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
  /** a group of kinds (AUDIT_KIND_GROUPS: `sign_ins`, `settings`…) or one kind (`policy.changed`) */
  kind: Type.Optional(Type.String({ pattern: '^[a-z_]+(\\.[a-z_]+)*$', maxLength: 64 })),
  /** on or after this day (UTC) */
  from: Type.Optional(Type.String({ pattern: DAY })),
  /** on or before this day (UTC) */
  to: Type.Optional(Type.String({ pattern: DAY })),
}

export const AuditQuery = Type.Object(
  {
    ...AuditFilters,
    /** the cursor of the page before (`next` of its answer) */
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}-[0-9]{1,19}$' })),
  },
  { additionalProperties: false },
)
export type AuditQuery = Static<typeof AuditQuery>

export const AuditExportQuery = Type.Object(AuditFilters, { additionalProperties: false })
export type AuditExportQuery = Static<typeof AuditExportQuery>

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.Object({
    kind: oneOf(['staff', 'api_key', 'system'] as const),
    /** null for the server itself, or a failed sign-in's unknown e-mail */
    id: Nullable(Type.String()),
    /** the e-mail or the key's label, as it was then */
    label: Type.String(),
  }),
  /** the client's address as the server saw it */
  address: Nullable(Type.String()),
  /** what happened: `policy.changed`, `session.signed_in`… */
  kind: Type.String(),
  /** what it happened to: a return's id, a webhook's, a key's; null for the shop */
  subject: Nullable(Type.String()),
  /** what changed: `before` and `after` for settings, otherwise what a reader needs */
  detail: Type.Record(Type.String(), Type.Unknown()),
})
export type AuditEntry = Static<typeof AuditEntry>

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry),
  /** the cursor of the next page (older entries), or null at the end */
  next: Nullable(Type.String()),
})
export type AuditPage = Static<typeof AuditPage>

/** GET /admin/api/audit/people: everyone the log names as having done something, for its filter. */
export const AuditPeople = Type.Object({ people: Type.Array(Type.String()) })
export type AuditPeople = Static<typeof AuditPeople>
