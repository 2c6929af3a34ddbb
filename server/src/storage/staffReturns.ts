import type { ReturnSummary, ReviewFlag, ReviewQueue } from '../../../contract/staff'
import {
  RETURN_ID_PATTERN,
  RETURN_SEARCH_WORDS,
  type RETURN_SORTS,
  type RETURN_VIEWS,
} from '../../../contract/constants'
import { outcomeOfSettlement, refundOf, settlementOf, type Settlement } from '../domain/settlement'
import { emailKey } from '../domain/normalize'
import type { Queryable } from './database'
import {
  deductionRowsJson,
  deductionsOf,
  inspectionRowsJson,
  inspectionsOf,
  type DeductionRow,
  type InspectionRow,
} from './inspections'
import { orderJson, orderOf, type OrderRecord, type OrderRow } from './orders'
import {
  actionRowsJson,
  actionsOf,
  returnedLineRowsJson,
  returnedLinesOf,
  type ReturnAction,
  type ReturnedLine,
} from './returnStates'
import type { ReturnRecord, ReviewState } from './returns'
import { creditOf, storeCreditJson, type StoreCredit } from './storeCredits'

export type ReturnView = (typeof RETURN_VIEWS)[number]
export type ReturnSort = (typeof RETURN_SORTS)[number]

/** The console's search and filters (docs/back-office.md: the returns list). */
export interface ReturnFilters {
  /** words, each found in the return's search text (migration 19): see searchConditions */
  q?: string | undefined
  view?: ReturnView | undefined
  /** only these returns (the list's selection, exported) */
  ids?: readonly string[] | undefined
  state?: ReturnSummary['state'] | undefined
  /** created at or after */
  from?: Date | undefined
  /** created before */
  until?: Date | undefined
  /** an item was returned for this reason id */
  reason?: string | undefined
  /** the review's state (docs/lifecycle.md) */
  review?: ReviewState | undefined
}

/**
 * Where a page starts: after the return with this id and this key of the order the list is in:
 * its creation time (`at`, by date) or its amount (`amount`, a decimal string, by amount).
 */
export type Cursor = { at: string; id: string; amount?: undefined } | { amount: string; id: string; at?: undefined }

export const encodeCursor = (cursor: Cursor) =>
  Buffer.from(
    JSON.stringify(cursor.amount === undefined ? [cursor.at, cursor.id] : ['amount', cursor.amount, cursor.id]),
  ).toString('base64url')

/**
 * The cursor `encodeCursor` made, or null: a time exactly as it writes one, in the years a day
 * filter takes (routes/staff.ts), or an amount as the database writes one, and a return id, so
 * that nothing the database would refuse reaches it (`Date.parse` takes "0", year 0000 and
 * "+275760-09-13", PostgreSQL none of them).
 */
export function decodeCursor(value: string): Cursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
    if (!Array.isArray(parsed)) return null
    if (parsed.length === 3 && parsed[0] === 'amount') {
      const [, amount, id] = parsed as unknown[]
      if (typeof amount !== 'string' || typeof id !== 'string' || !RETURN_ID_PATTERN.test(id)) return null
      return CURSOR_AMOUNT.test(amount) ? { amount, id } : null
    }
    if (parsed.length !== 2) return null
    const [at, id] = parsed as unknown[]
    if (typeof at !== 'string' || typeof id !== 'string' || !RETURN_ID_PATTERN.test(id)) return null
    if (!CURSOR_TIME.test(at) || new Date(at).toISOString() !== at) return null
    return { at, id }
  } catch {
    return null
  }
}

const CURSOR_TIME = /^(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/
const CURSOR_AMOUNT = /^-?[0-9]{1,18}(\.[0-9]{1,6})?$/

/**
 * The amount the list sorts by: the refund or credit as submitted, before inspections' deductions;
 * -1 for a return imported without one. The very expression of migration 19's index
 * returns_by_shop_amount, so that sorting by it reads the index.
 */
const AMOUNT_SQL = `(COALESCE(CASE
        WHEN r.return_order ->> 'refund_method' = 'store_credit' AND jsonb_typeof(r.return_order -> 'store_credit_value') = 'object'
        THEN (r.return_order #>> '{store_credit_value,shop_money,amount}')::numeric
        ELSE (r.return_order #>> '{refund_value,shop_money,amount}')::numeric END, -1))`

/**
 * Each view as a condition on the return's state (its items' least advanced, returnStateSql) and
 * review (docs/back-office.md, "Views").
 */
const VIEW_SQL: Record<ReturnView, string | null> = {
  all: null,
  needs_review: "r.review = 'pending'",
  to_receive: "r.state IN ('requested', 'in_transit') AND (r.review IS NULL OR r.review = 'approved')",
  to_refund: "r.state = 'received' AND (r.review IS NULL OR r.review = 'approved')",
  // A return staff cancelled or closed goes no further (decision 0083): it is done too.
  done: "(r.state IN ('refunded', 'cancelled', 'closed') OR r.review = 'rejected')",
}

/** LIKE's own characters in a typed word taken as themselves. */
const likeEscaped = (word: string) => word.replace(/[\\%_]/g, (char) => `\\${char}`)

/**
 * The search as patterns on the return's search text (migration 19: folded by search_folded, the
 * number written after a #): each word must be in it; a word of digits, with or without a #
 * before, is the start of a number ("100" finds #1001-R1, not #2100); any other word is found
 * anywhere; a whole e-mail is that shopper's, from the index on orders' e-mails (its trigrams,
 * "exa", "com"…, are in nearly every return's text). At most RETURN_SEARCH_WORDS words: the rest
 * are left out.
 */
export function searchPatterns(
  q: string,
): ({ pattern: string; plain?: string | undefined; email?: undefined } | { email: string; plain?: undefined })[] {
  return q
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, RETURN_SEARCH_WORDS)
    .map((word) => {
      const [local, domain, ...more] = word.split('@')
      if (local && domain && more.length === 0 && domain.includes('.')) return { email: emailKey(word) }
      const number = word.replace(/^#+/, '')
      if (number === '') return { pattern: '%#%' }
      const atStart = word.startsWith('#') || /^[0-9]+$/.test(number)
      // A word of letters and digits found anywhere: `plain`, the very text the pattern looks for.
      const plain = !atStart && /^[a-z0-9]+$/i.test(word) ? word.toLowerCase() : undefined
      return { pattern: `%${atStart ? '#' : ''}${likeEscaped(number)}%`, plain }
    })
}

/** A trigram in more than this share of the returns is common: the search does not ask the index for it. */
const COMMON_TRIGRAM_SHARE = 0.01

/**
 * The parts of the search's plain words (letters and digits) the trigram index is asked for:
 * each run of their trigrams that are not common (migration 25's statistics, `shares`), as a
 * substring of its word; null when none of their trigrams is common, or the statistics are
 * not there yet, or every trigram is: the index is then asked for the whole words as before.
 * Each word is still matched whole on the rows the index finds (decision 0091).
 */
export function rareParts(
  words: readonly (string | undefined)[],
  shares: ReadonlyMap<string, number>,
): string[] | null {
  const parts: string[] = []
  let skipped = false
  for (const word of words) {
    if (word === undefined) continue
    // The first trigram of the run of rare ones being read, or -1.
    let start = -1
    for (let at = 0; at + 3 <= word.length; at++) {
      if ((shares.get(word.slice(at, at + 3)) ?? 0) > COMMON_TRIGRAM_SHARE) {
        skipped = true
        if (start >= 0) parts.push(word.slice(start, at + 2))
        start = -1
      } else if (start < 0) start = at
    }
    if (start >= 0) parts.push(word.slice(start))
  }
  return skipped && parts.length > 0 ? parts : null
}

/** Per database: the search text's common trigrams, as ANALYZE last counted them, read once a minute. */
const trigramShares = new WeakMap<Queryable, { until: number; shares: Promise<Map<string, number>> }>()

/**
 * The thousand most common trigrams of the returns' search text and the share of returns holding
 * each (migration 25's statistics); empty before ANALYZE has run, or where they cannot be read.
 */
function commonTrigrams(db: Queryable): Promise<Map<string, number>> {
  const kept = trigramShares.get(db)
  if (kept && kept.until > Date.now()) return kept.shares
  const shares = db
    .query<{ trigram: string; share: number }>(
      `SELECT u.trigram, u.share
         FROM pg_stats_ext_exprs s,
              unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(trigram, share)
        WHERE s.statistics_name = 'returns_search_trigrams' AND s.statistics_schemaname = current_schema()
          AND u.trigram IS NOT NULL`,
    )
    .then(
      (rows) => new Map(rows.map((row) => [row.trigram, Number(row.share)])),
      () => new Map<string, number>(),
    )
  trigramShares.set(db, { until: Date.now() + 60_000, shares })
  return shares
}

interface Row {
  id: string
  name: string
  order_name: string
  email: string
  created_at: Date
  units: number
  state: ReturnSummary['state']
  review: ReviewState | null
  /** what inspections took off the refund, in minor units (docs/lifecycle.md) */
  deducted: number
}

export { outcomeOf } from '../domain/settlement'

function summaryOf(row: Row, settled: Settlement | null): ReturnSummary {
  return {
    id: row.id,
    name: row.name,
    order_name: row.order_name,
    email: row.email,
    created_at: new Date(row.created_at).toISOString(),
    items: Number(row.units),
    outcome: settled && outcomeOfSettlement(settled),
    refund: settled === null ? null : refundOf(settled, Number(row.deducted)),
    state: row.state,
    review: row.review,
  }
}

const COLUMNS = `r.id, r.name, o.name AS order_name, o.email_key AS email, r.created_at, r.state, r.review,
         (SELECT COALESCE(SUM(quantity), 0)::int FROM return_items i WHERE i.return_id = r.id) AS units,
         (SELECT COALESCE(SUM(deduction_minor), 0)::int FROM return_inspections x WHERE x.return_id = r.id) AS deducted`
const FROM = 'FROM returns r JOIN orders o ON o.id = r.order_id'

/**
 * The list's rows: of the stored answer (kilobytes of JSON a row) only its settlement, as
 * settlementOf reads it, in one column: each column of each row costs a little to hand over.
 */
const LIST_SELECT = `SELECT ${COLUMNS},
         CASE WHEN r.return_order IS NOT NULL THEN json_build_object(
           'upsell', COALESCE(jsonb_typeof(r.return_order -> 'new_item') = 'object', false),
           'lines', jsonb_array_length(r.return_order -> 'items'),
           'exchanged', jsonb_array_length(r.return_order -> 'items')
             - jsonb_array_length(jsonb_path_query_array(r.return_order, '$.items[*] ? (@.exchange_variant_id == null)')),
           'refund_method', r.return_order -> 'refund_method',
           'refund_value', r.return_order #> '{refund_value,shop_money}',
           'store_credit_value', r.return_order #> '{store_credit_value,shop_money}') END AS settlement
    ${FROM}`

/**
 * The search's and the filters' conditions but the view's, the shop's first (`$1`): the list's
 * and its views' counts' alike, so that a count and its list cannot disagree.
 */
function filterConditions(
  filters: ReturnFilters,
  param: (value: unknown) => string,
  shares: ReadonlyMap<string, number>,
): string[] {
  const where = ['r.shop_id = $1']
  const words = searchPatterns(filters.q ?? '')
  const parts = rareParts(
    words.map((word) => word.plain),
    shares,
  )
  // Parameters only, folded by the database as the stored text was (the trigram index reads
  // LIKE). With rare parts, a plain word is found by strpos, which the index cannot answer, on
  // the rows the index finds for the parts: the same returns, without the common trigrams' entries.
  for (const word of words)
    where.push(
      word.email !== undefined
        ? `o.email_key = ${param(word.email)}`
        : parts && word.plain !== undefined
          ? `strpos(r.search_text, search_folded(${param(word.plain)})) > 0`
          : `r.search_text LIKE search_folded(${param(word.pattern)})`,
    )
  for (const part of parts ?? []) where.push(`r.search_text LIKE search_folded(${param(`%${part}%`)})`)
  if (filters.ids) where.push(`r.id = ANY(${param(filters.ids)}::text[])`)
  if (filters.state) where.push(`r.state = ${param(filters.state)}`)
  if (filters.review) where.push(`r.review = ${param(filters.review)}`)
  if (filters.from) where.push(`r.created_at >= ${param(filters.from)}`)
  if (filters.until) where.push(`r.created_at < ${param(filters.until)}`)
  // Containment, checked on each row the index walks: cheaper than unnesting the items.
  if (filters.reason)
    where.push(`r.return_order -> 'items' @> ${param(JSON.stringify([{ reason_id: filters.reason }]))}::jsonb`)
  return where
}

/**
 * How many of the shop's returns each view holds under the same search and filters, counted in
 * one statement, one pass over the rows: each view's count is its list's condition (VIEW_SQL).
 */
export async function countReturnViews(
  db: Queryable,
  shopId: string,
  filters: Omit<ReturnFilters, 'view'>,
): Promise<Record<ReturnView, number>> {
  const params: unknown[] = [shopId]
  const where = filterConditions(
    filters,
    (value) => `$${params.push(value)}`,
    filters.q ? await commonTrigrams(db) : new Map(),
  )
  // The views' conditions read only a return's state and review: the shop's every return is
  // counted by those two in the tallies triggers keep (migration 26, decision 0100), a few rows,
  // and each view sums its groups. A search or a filter counts the rows it finds.
  const rows =
    where.length === 1
      ? "SELECT t.state, NULLIF(t.review, '') AS review, t.n FROM return_view_tallies t WHERE t.shop_id = $1"
      : `SELECT r.state, r.review, 1 AS n ${FROM} WHERE ${where.join(' AND ')}`
  const views = Object.entries(VIEW_SQL) as [ReturnView, string | null][]
  const counts = views.map(
    ([view, condition]) => `COALESCE(sum(r.n)${condition ? ` FILTER (WHERE ${condition})` : ''}, 0)::int AS "${view}"`,
  )
  const [row] = await db.query<Record<ReturnView, number>>(`SELECT ${counts.join(', ')} FROM (${rows}) r`, params)
  return Object.fromEntries(views.map(([view]) => [view, Number(row?.[view] ?? 0)])) as Record<ReturnView, number>
}

/**
 * A page of the shop's returns in the order asked (newest first by default), from the index on
 * (shop, created, id) or on (shop, amount, id): the next page starts after the last of this one,
 * so a page costs the same on the thousandth page.
 */
export async function listReturns(
  db: Queryable,
  shopId: string,
  filters: ReturnFilters,
  limit: number,
  after: Cursor | null,
  sort: ReturnSort = 'newest',
): Promise<{ returns: ReturnSummary[]; next: Cursor | null }> {
  const params: unknown[] = [shopId]
  const param = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  const where = filterConditions(filters, param, filters.q ? await commonTrigrams(db) : new Map())
  const view = filters.view && VIEW_SQL[filters.view]
  if (view) where.push(view)
  const byAmount = sort === 'amount_desc' || sort === 'amount_asc'
  const key = byAmount ? AMOUNT_SQL : 'r.created_at'
  const direction = sort === 'oldest' || sort === 'amount_asc' ? 'ASC' : 'DESC'
  // A cursor of the other order (a link kept from before the sort changed) starts at the first page.
  if (after && (after.amount !== undefined) === byAmount) {
    const at = after.amount === undefined ? `${param(after.at)}::timestamptz` : `${param(after.amount)}::numeric`
    where.push(`(${key}, r.id) ${direction === 'ASC' ? '>' : '<'} (${at}, ${param(after.id)})`)
  }
  const order = `ORDER BY ${key} ${direction}, r.id ${direction}`
  const select = LIST_SELECT.replace('SELECT ', `SELECT ${AMOUNT_SQL}::text AS sort_amount, `)
  // The page's returns are chosen before their orders are read, when no condition is on the
  // order (a whole e-mail is): a search that finds hundreds of returns reads the orders of the
  // page's only. Every return has its order (a foreign key), so the join drops none.
  const onOrder = where.some((condition) => condition.startsWith('o.'))
  const rows = await db.query<Row & { settlement: Settlement | null; sort_amount: string }>(
    onOrder
      ? `${select} WHERE ${where.join(' AND ')} ${order} LIMIT ${param(limit + 1)}`
      : `${select.replace(
          FROM,
          `FROM (SELECT r.* FROM returns r WHERE ${where.join(' AND ')} ${order} LIMIT ${param(limit + 1)}) r
            JOIN orders o ON o.id = r.order_id`,
        )} ${order}`,
    params,
  )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const next: Cursor | null =
    rows.length > limit && last
      ? byAmount
        ? { amount: String(last.sort_amount), id: last.id }
        : { at: new Date(last.created_at).toISOString(), id: last.id }
      : null
  return { returns: page.map((row) => summaryOf(row, row.settlement)), next }
}

type ShopReturnRow = Row & Omit<ReturnRecord, 'id' | 'name' | 'created_at' | 'review'> & { language: string | null }

const SHOP_RETURN_SELECT = `SELECT ${COLUMNS}, r.order_id, r.request_hash, r.return_order, r.review_flags, r.review_answer_by,
            r.review_reason, r.reviewed_at, r.reviewed_by, r.ended, r.ended_reason, r.ended_at, r.ended_by,
            r.language`

/** A return of the shop as the list shows it, its stored record (for the status it shows its shopper), its language. */
export interface ShopReturn {
  summary: ReturnSummary
  record: ReturnRecord
  language: string | null
}

function shopReturnOf(row: ShopReturnRow): ShopReturn {
  const { id: returnId, order_id, name, request_hash, return_order, created_at, review } = row
  return {
    summary: summaryOf(row, return_order && settlementOf(return_order)),
    record: {
      id: returnId,
      order_id,
      name,
      request_hash,
      return_order,
      created_at,
      review,
      review_flags: row.review_flags,
      review_answer_by: row.review_answer_by,
      review_reason: row.review_reason,
      reviewed_at: row.reviewed_at,
      reviewed_by: row.reviewed_by,
      ended: row.ended ?? null,
      ended_reason: row.ended_reason ?? null,
      ended_at: row.ended_at ?? null,
      ended_by: row.ended_by ?? null,
    },
    language: row.language,
  }
}

/** One return of the shop, in one read; null for another shop's or an unknown one. */
export async function findShopReturn(db: Queryable, shopId: string, id: string): Promise<ShopReturn | null> {
  const [row] = await db.query<ShopReturnRow>(`${SHOP_RETURN_SELECT} ${FROM} WHERE r.shop_id = $1 AND r.id = $2`, [
    shopId,
    id,
  ])
  return row ? shopReturnOf(row) : null
}

/** A return of the shop whole: what the console's page of it shows (docs/back-office.md). */
export interface WholeShopReturn extends ShopReturn {
  order: OrderRecord
  /** its lines, each with the states it reached */
  lines: ReturnedLine[]
  /** the shopper's photos */
  photos: { id: string; line_item_id: string }[]
  actions: ReturnAction[]
  inspections: InspectionRow[]
  deductions: DeductionRow[]
  credit: StoreCredit | null
}

/**
 * One return of the shop whole, in one statement (decision 0099): each part is a JSON column its
 * own module writes and reads, so that a return costs the database one round trip, not seven.
 */
export async function readShopReturn(db: Queryable, shopId: string, id: string): Promise<WholeShopReturn | null> {
  const [row] = await db.query<
    ShopReturnRow & {
      whole_order: OrderRow
      line_rows: Parameters<typeof returnedLinesOf>[0]
      photos: WholeShopReturn['photos']
      action_rows: Parameters<typeof actionsOf>[0]
      inspection_rows: Parameters<typeof inspectionsOf>[0]
      deduction_rows: DeductionRow[]
      credit: Parameters<typeof creditOf>[0] | null
    }
  >(
    `${SHOP_RETURN_SELECT}, ${orderJson('o')} AS whole_order,
            ${returnedLineRowsJson('r.id')} AS line_rows,
            ${shopperPhotosJson('r.id')} AS photos,
            ${actionRowsJson('r.id')} AS action_rows,
            ${inspectionRowsJson('r.id')} AS inspection_rows,
            ${deductionRowsJson('r.id')} AS deduction_rows,
            ${storeCreditJson('r.id')} AS credit
       ${FROM} WHERE r.shop_id = $1 AND r.id = $2`,
    [shopId, id],
  )
  if (!row) return null
  return {
    ...shopReturnOf(row),
    order: orderOf(row.whole_order),
    lines: returnedLinesOf(row.line_rows),
    photos: row.photos,
    actions: actionsOf(row.action_rows),
    inspections: inspectionsOf(row.inspection_rows),
    deductions: deductionsOf(row.deduction_rows),
    credit: row.credit && creditOf(row.credit),
  }
}

/**
 * The review queue (docs/lifecycle.md): the shop's returns waiting for review, oldest first, from
 * the partial index on waiting returns; at most `limit`, and how many wait in all.
 */
export async function listReviewQueue(db: Queryable, shopId: string, limit: number): Promise<ReviewQueue> {
  // How many wait, counted once in the same statement (an uncorrelated subquery): one round trip.
  const rows = await db.query<
    Row & {
      settlement: Settlement | null
      review_flags: ReviewFlag[] | null
      review_answer_by: string | null
      total: number
    }
  >(
    `${LIST_SELECT.replace(
      'SELECT ',
      `SELECT r.review_flags, r.review_answer_by,
              (SELECT count(*)::int FROM returns w WHERE w.shop_id = $1 AND w.review = 'pending') AS total, `,
    )}
      WHERE r.shop_id = $1 AND r.review = 'pending' ORDER BY r.created_at, r.id LIMIT $2`,
    [shopId, limit],
  )
  return {
    returns: rows.map((row) => ({
      ...summaryOf(row, row.settlement),
      flags: row.review_flags ?? [],
      answer_by: row.review_answer_by ?? '',
    })),
    // No row: nothing waits.
    total: Number(rows[0]?.total ?? 0),
  }
}

/**
 * The photos staff may see of a return, those its items took, as one JSON array: an SQL expression
 * over the return whose id is `returnId`. The shopper's; the warehouse's are with its inspections.
 */
const shopperPhotosJson = (returnId: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('id', p.id, 'line_item_id', p.line_item_id) ORDER BY p.created_at, p.id), '[]')
      FROM photos p WHERE p.return_id = ${returnId} AND p.source = 'shopper')`

/** A photo of one of the shop's returns: its type and where its bytes are; null for anyone else's. */
export async function findShopPhoto(
  db: Queryable,
  shopId: string,
  returnId: string,
  photoId: string,
): Promise<{ content_type: string; in_row: number | null } | null> {
  const [row] = await db.query<{ content_type: string; in_row: number | null }>(
    `SELECT p.content_type, octet_length(p.bytes) AS in_row
       FROM photos p JOIN returns r ON r.id = p.return_id
      WHERE r.shop_id = $1 AND r.id = $2 AND p.id = $3`,
    [shopId, returnId, photoId],
  )
  return row ?? null
}
