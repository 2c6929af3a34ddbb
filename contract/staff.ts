/**
 * The back office's API (docs/back-office.md): what the console sends and is answered, written
 * once for the server's validation and the console's types. Only the console imports it, never
 * the shopper's portal.
 */
import { Type, type Static } from '@sinclair/typebox'
import { RETURN_ITEM_STATES, RETURN_ID_PATTERN } from './constants'
import { Money, oneOf, ReturnItemState, ReturnOrder, ReturnStatus } from './api'

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
})
export type StaffSession = Static<typeof StaffSession>

/** How a return settles: money back, another size, a new item bought with the credit, or a mix. */
export const RETURN_OUTCOMES = ['refund', 'store_credit', 'exchange', 'upsell', 'mixed'] as const
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
  /** an order name (#1001 or 1001), a shopper's e-mail or a return number (#1001-R1) */
  q: Type.Optional(Type.String({ maxLength: 254 })),
  state: Type.Optional(oneOf(RETURN_ITEM_STATES)),
  /** created on or after this day (YYYY-MM-DD, UTC) */
  from: Type.Optional(Type.String({ pattern: DAY })),
  /** created on or before this day */
  to: Type.Optional(Type.String({ pattern: DAY })),
  /** a reason id: returns with an item returned for it */
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
}

/** GET /admin/api/returns: search, filters and the page after `after`. */
export const ReturnsQuery = Type.Object(
  {
    ...ReturnFilters,
    /** the cursor of the page before (`next` of its answer) */
    after: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,300}$' })),
    /** returns a page, 1 to 100 (25 when absent) */
    limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$' })),
  },
  { additionalProperties: false },
)
export type ReturnsQuery = Static<typeof ReturnsQuery>

/** GET /admin/api/returns.csv: the filtered list, every page, as a spreadsheet. */
export const ReturnsExportQuery = Type.Object(ReturnFilters, { additionalProperties: false })
export type ReturnsExportQuery = Static<typeof ReturnsExportQuery>

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
  state: ReturnItemState,
})
export type ReturnSummary = Static<typeof ReturnSummary>

export const ReturnList = Type.Object({
  returns: Type.Array(ReturnSummary),
  /** the cursor of the next page; null on the last */
  next: Type.Union([Type.String(), Type.Null()]),
})
export type ReturnList = Static<typeof ReturnList>

/** One line of a return's history: created, an item reaching a state, a staff action. */
export const TimelineEntry = Type.Object({
  at: Type.String(),
  kind: oneOf(['created', 'state', 'action'] as const),
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

/** GET /admin/api/returns/{id} */
export const ReturnDetail = Type.Object({
  summary: ReturnSummary,
  /** the shopper's status page as it reads now */
  status: ReturnStatus,
  /** the return as submitted (reasons, comments, breakdown); null for returns imported without one */
  return_order: Type.Union([ReturnOrder, Type.Null()]),
  photos: Type.Array(StaffPhoto),
  timeline: Type.Array(TimelineEntry),
})
export type ReturnDetail = Static<typeof ReturnDetail>

export const StaffReturnParams = Type.Object({ id: Type.String({ pattern: RETURN_ID_PATTERN.source }) })

/** POST /admin/api/returns/{id}/status: move items on, with a note for the timeline. */
export const StaffStateChange = Type.Object(
  {
    state: oneOf(RETURN_ITEM_STATES.filter((state) => state !== 'requested')),
    line_item_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 1000, uniqueItems: true }),
    ),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
)
export type StaffStateChange = Static<typeof StaffStateChange>

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
