/**
 * The console's returns (docs/back-office.md): the shop's list, its export and insights, and one
 * return with its timeline, its photos and the support sessions its shoppers shared.
 */
import { Readable, pipeline } from 'node:stream'
import {
  type Insights,
  type InsightsQuery,
  type ReturnDetail,
  type ReturnCounts,
  type ReturnCountsQuery,
  type ReturnList,
  type ReturnsExportQuery,
  type ReturnsQuery,
  type StaffItemsMoved,
  type StaffShop,
  type StaffStateChange,
  type SupportSession,
  type TimelineEntry,
  OUTCOME_WORDS,
  REVIEW_WORDS,
  returnStandingWords,
} from '../../../contract/staff'
import type { ReturnReason, ReturnStatus } from '../../../contract/api'
import { absolute, emailLanguage, shopperStatusUrl } from '../email/renderEmail'
import type { ShopRecord } from '../storage/shops'
import type { PortalContext } from '../context'
import { heldExchanges } from '../domain/inspection'
import { readSupportReference } from '../domain/supportReference'
import { findSupportReference } from '../storage/supportReferences'
import { findInsights } from '../storage/insights'
import {
  decodeCursor,
  encodeCursor,
  type Cursor,
  type ReturnFilters,
  countReturnViews,
  findShopPhoto,
  listReturns,
  readShopReturn,
} from '../storage/staffReturns'
import type { ReturnRecord } from '../storage/returns'
import { inspectionViewsOf } from '../storage/inspections'
import { exchangeLines } from './inspection'
import { audit, type Author } from './audit'
import { csvWriter } from './csv'
import { invalidRequest, notFound } from './refusal'
import { returnStatus } from './returnStatus'
import { moveStaffItems } from './staffMoves'
import type { StaffSignedIn } from './staffSessions'

/** The shop's reasons, as the list's filter offers them. */
export async function shopReasons(context: PortalContext, shopId: string): Promise<StaffShop> {
  const shop = await context.shops.find(shopId)
  if (!shop) throw notFound('This shop has not been imported.')
  return { shop: shop.id, reasons: reasonChoices(shop.return_reasons) }
}

/** A page of the shop's returns, searched, filtered and sorted (newest first by default). */
export async function listShopReturns(
  context: PortalContext,
  shopId: string,
  query: ReturnsQuery,
): Promise<ReturnList> {
  const { after, limit, sort, ...rest } = query
  const filters = filtersOf(rest)
  const cursor = after === undefined ? null : decodeCursor(after)
  if (typeof filters === 'string' || (after !== undefined && !cursor))
    throw invalidRequest(typeof filters === 'string' ? filters : 'after: not a page of this list')
  const page = await listReturns(context.db, shopId, filters, limit === undefined ? 25 : Number(limit), cursor, sort)
  return { returns: page.returns, next: page.next ? encodeCursor(page.next) : null }
}

/** How many returns each of the list's views holds under the search and filters (docs/back-office.md, "Views"). */
export async function countShopReturns(
  context: PortalContext,
  shopId: string,
  query: ReturnCountsQuery,
): Promise<ReturnCounts> {
  const filters = filtersOf(query)
  if (typeof filters === 'string') throw invalidRequest(filters)
  return countReturnViews(context.db, shopId, filters)
}

/** Every return the filters match as CSV, streamed, and the file's name; the export is written to the audit log. */
export async function exportReturns(context: PortalContext, shopId: string, query: ReturnsExportQuery, author: Author) {
  const filters = filtersOf(query)
  if (typeof filters === 'string') throw invalidRequest(filters)
  const now = context.now()
  await audit(context.db, { shopId, at: now, ...author, kind: 'returns.exported', detail: { filters: query } })
  const day = now.toISOString().slice(0, 10)
  return {
    filename: `returns-${shopId}-${day}.csv`,
    // pipeline, not pipe: a failed page (the database gone) ends this answer, and Fastify
    // logs it (or answers 503 when nothing was sent yet), instead of an unhandled 'error'.
    csv: pipeline(Readable.from(exportRows(context, shopId, filters)), csvOf(), () => {}),
  }
}

/** The shop's returns over a period (the 30 days to today by default): reasons, products, outcomes. */
export async function shopInsights(context: PortalContext, shopId: string, query: InsightsQuery): Promise<Insights> {
  const today = context.now().toISOString().slice(0, 10)
  const to = query.to ?? today
  // `to` is checked first: the 30 days before it are the period when no from is given.
  const end = filtersOf({ to })
  if (typeof end === 'string') throw invalidRequest(end)
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10)
  const period = filtersOf({ from, to })
  if (typeof period === 'string') throw invalidRequest(period)
  const { from: start, until } = period as { from: Date; until: Date }
  if (start >= until || until.getTime() - start.getTime() > 366 * 86_400_000)
    throw invalidRequest('from, to: a period of one day to a year, from before to')
  const shop = await context.shops.find(shopId)
  const currency_code = shop?.currency_code ?? 'EUR'
  const money = (amount: string) => ({ amount, currency_code })
  const rows = await findInsights(context.db, shopId, start, until, currency_code)
  return {
    from,
    to,
    returns: rows.returns,
    reasons: rows.reasons.map((row) => ({ ...row, value: money(row.value) })),
    products: rows.products.map((row) => ({ ...row, value: money(row.value) })),
    outcomes: {
      exchanges: money(rows.outcomes.exchanges),
      upsells: money(rows.outcomes.upsells),
      store_credit: money(rows.outcomes.store_credit),
      refunded: money(rows.outcomes.refunded),
    },
  }
}

/** A photo of the shop's return (the shopper's or the warehouse's): its type and bytes. */
export async function readReturnPhoto(context: PortalContext, shopId: string, id: string, photoId: string) {
  const photo = await findShopPhoto(context.db, shopId, id, photoId)
  const bytes = photo && (await context.photos.read(context.db, photoId, photo.in_row))
  if (!photo || !bytes) throw notFound('No such photo.')
  return { contentType: photo.content_type, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
}

/** The support code a shopper kept for this shop under its reference (docs/support.md); who opened it is audited. */
export async function supportSession(
  context: PortalContext,
  shopId: string,
  typed: string,
  author: Author,
): Promise<SupportSession> {
  const reference = readSupportReference(typed)
  const found = reference && (await findSupportReference(context.db, shopId, reference, context.now()))
  // Another shop's, an expired and an unknown reference answer alike.
  if (!reference || !found)
    throw notFound(
      `No support reference ${reference ?? typed.slice(0, 16)} for this shop. References last 7 days: ask the shopper for a new one.`,
    )
  // A read, but one the shop wants to know of: who opened which shopper's session. Never its code.
  await audit(context.db, {
    shopId,
    at: context.now(),
    ...author,
    kind: 'support.reference_opened',
    subject: reference,
  })
  return {
    reference,
    code: found.code,
    created_at: new Date(found.created_at).toISOString(),
    expires_at: new Date(found.expires_at).toISOString(),
  }
}

/** The staff member's move of a return's items (services/staffMoves.ts), and the return as it is now. */
export async function moveItems(
  context: PortalContext,
  staff: StaffSignedIn,
  id: string,
  change: StaffStateChange,
  author: Author,
): Promise<StaffItemsMoved> {
  const move = { shopId: staff.shop, actor: staff.member.email, change, author }
  const outcome = await moveStaffItems(context, id, move)
  return { ...(await returnDetail(context, staff.shop, id)), moved: outcome.moved, skipped: outcome.skipped }
}

/** The list's filters from the query, or what is wrong with them. */
function filtersOf(query: Partial<ReturnsExportQuery>): ReturnFilters | string {
  const day = (value: string | undefined, plusDays = 0) => {
    if (value === undefined) return undefined
    const at = new Date(`${value}T00:00:00Z`)
    // 2026-02-31 is not a day, though Date would make it one in March; nor is year 0000, which
    // Date takes and PostgreSQL does not. The years the console has any use for: 1900 to 2999.
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) return null
    if (at.getUTCFullYear() < 1900 || at.getUTCFullYear() > 2999) return null
    return new Date(at.getTime() + plusDays * 86_400_000)
  }
  const from = day(query.from)
  const until = day(query.to, 1)
  if (from === null) return 'from: not a day from 1900-01-01 to 2999-12-31'
  if (until === null) return 'to: not a day from 1900-01-01 to 2999-12-31'
  const ids = 'ids' in query && query.ids !== undefined ? query.ids.split(',') : undefined
  return {
    q: query.q,
    view: query.view,
    state: query.state,
    from,
    until,
    reason: query.reason,
    review: query.review,
    ids,
  }
}

/** Every reason a shopper can choose (the leaves), a sub-reason named with its parent. */
function reasonChoices(reasons: readonly ReturnReason[], parent?: string): { id: string; label: string }[] {
  return reasons.flatMap((reason) => {
    const label = parent ? `${parent}: ${reason.label}` : reason.label
    return reason.children?.length ? reasonChoices(reason.children, label) : [{ id: reason.id, label }]
  })
}

/** The export's columns, as a spreadsheet shows them. */
const CSV_COLUMNS = [
  'Return',
  'Order',
  'Shopper',
  'Submitted',
  'Items',
  'Outcome',
  'Refund',
  'Currency',
  'State',
  'Review',
]

/** The CSV writer (services/csv.ts): a shopper's comment or name is never run as a formula. */
const csvOf = () => csvWriter(CSV_COLUMNS)

/** Every return the filters match, a thousand per query, newest first. */
async function* exportRows(context: PortalContext, shop: string, filters: ReturnFilters) {
  let after: Cursor | null = null
  do {
    const page: Awaited<ReturnType<typeof listReturns>> = await listReturns(context.db, shop, filters, 1000, after)
    for (const entry of page.returns)
      yield [
        entry.name,
        entry.order_name,
        entry.email,
        entry.created_at,
        entry.items,
        entry.outcome ? OUTCOME_WORDS[entry.outcome] : '',
        entry.refund?.amount ?? '',
        entry.refund?.currency_code ?? '',
        // In words, as the list shows them (decision 0059): a rejected return is not "requested".
        returnStandingWords(entry),
        entry.review ? REVIEW_WORDS[entry.review] : '',
      ]
    after = page.next
  } while (after)
}

/**
 * A return of the shop as the console shows it, with its timeline: what the shopper asked, the
 * states its items reached, and who did what (docs/back-office.md). Another shop's or an unknown
 * one is not found.
 */
export async function returnDetail(context: PortalContext, shopId: string, id: string): Promise<ReturnDetail> {
  // The return whole in one statement (decision 0099), its shop from the cache.
  const [found, shop] = await Promise.all([readShopReturn(context.db, shopId, id), context.shops.find(shopId)])
  if (!found || !shop) throw notFound('No such return.')
  const { order, lines, photos, actions } = found
  // The lines read once, for the shopper's status and the timeline alike.
  const status = await returnStatus(context, found.record, order, shop, lines, context.db, found)
  const titleOf = new Map(status.items.map((item) => [item.line_item_id, item.title]))
  const titles = (ids: readonly string[]) => ids.map((lineId) => titleOf.get(lineId) ?? lineId)
  const inspections = inspectionViewsOf(shop, id, found.inspections, titleOf)
  // Item states reached without an action of record (the shopper's kept items refunded at
  // submission, an imported history) show as the state; those an action made show as the action.
  // An inspection that refunds at once also received its items: one action covers both states.
  const covered = (action: (typeof actions)[number]) =>
    action.kind === 'inspected' ? ['received', action.state] : [action.state]
  const byAction = new Set(
    actions.flatMap((action) =>
      covered(action).flatMap((state) => action.lineItemIds.map((lineId) => `${state} ${lineId}`)),
    ),
  )
  const states = new Map<string, { at: Date; state: TimelineEntry['state']; lines: string[] }>()
  for (const line of lines)
    for (const event of line.events) {
      if (byAction.has(`${event.state} ${line.line_item_id}`)) continue
      const key = `${event.at.toISOString()} ${event.state}`
      const entry = states.get(key) ?? { at: event.at, state: event.state, lines: [] }
      entry.lines.push(line.line_item_id)
      states.set(key, entry)
    }
  const timeline: TimelineEntry[] = [
    {
      at: new Date(found.record.created_at).toISOString(),
      kind: 'created' as const,
      state: 'requested' as const,
      items: titles(lines.map((line) => line.line_item_id)),
      actor: 'shopper',
      note: null,
    },
    ...[...states.values()].map((entry) => ({
      at: entry.at.toISOString(),
      kind: 'state' as const,
      state: entry.state,
      items: titles(entry.lines),
      actor: 'system',
      note: null,
    })),
    ...actions.map((action) => ({
      at: action.at.toISOString(),
      kind:
        action.kind === 'note' || action.kind === 'cancelled' || action.kind === 'closed'
          ? action.kind
          : ('action' as const),
      state: action.state,
      items: titles(action.lineItemIds),
      actor: action.actor,
      note: action.note,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at))
  return {
    summary: found.summary,
    status,
    return_order: found.record.return_order,
    photos: photos.map((photo) => ({
      ...photo,
      url: `/admin/api/returns/${encodeURIComponent(id)}/photos/${photo.id}`,
    })),
    timeline,
    review: reviewView(found.record),
    inspections,
    held: heldExchanges(exchangeLines(lines, status), inspections, shop.policy),
    links: shopperLinks(context, shop, found.language, status),
    ended: found.record.ended
      ? {
          state: found.record.ended,
          reason: found.record.ended_reason ?? null,
          at: new Date(found.record.ended_at!).toISOString(),
          by: found.record.ended_by ?? '',
        }
      : null,
  }
}

/**
 * The shopper's links as their e-mails carry them (delivery/attempt.ts, email/renderEmail.tsx):
 * on the shop's portal, in the e-mails' language; the label's while the return has one.
 */
function shopperLinks(
  context: PortalContext,
  shop: ShopRecord,
  language: string | null,
  status: ReturnStatus,
): ReturnDetail['links'] {
  const origin = context.portalOrigin(shop.id)
  return {
    status: shopperStatusUrl(context.secret, status.return_id, emailLanguage(language, shop), origin),
    label: status.label ? absolute(status.label.label_url, origin) : null,
  }
}

/** The review as staff see it: why it was flagged, and what was decided by whom. */
function reviewView(record: ReturnRecord): ReturnDetail['review'] {
  if (record.review === null) return null
  return {
    state: record.review,
    flags: record.review_flags ?? [],
    answer_by: record.review_answer_by ?? '',
    reason: record.review_reason,
    decided_at: record.reviewed_at ? new Date(record.reviewed_at).toISOString() : null,
    decided_by: record.reviewed_by,
  }
}
