import type { ReturnSummary, ReviewFlag, ReviewQueue } from '../../../contract/staff'
import { RETURN_ID_PATTERN } from '../../../contract/constants'
import { emailKey, orderNameKey } from '../domain/normalize'
import { outcomeOfSettlement, refundOf, settlementOf, type Settlement } from '../domain/settlement'
import type { Queryable } from './database'
import type { ReturnRecord, ReviewState } from './returns'

/** The console's search and filters (docs/back-office.md: the returns list). */
export interface ReturnFilters {
  /** an order name, a shopper's e-mail or a return number, matched exactly as verify matches */
  q?: string | undefined
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

/** Where a page starts: after the return created at `at` with this id (newest first). */
export interface Cursor {
  at: string
  id: string
}

export const encodeCursor = (cursor: Cursor) =>
  Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url')

/**
 * The cursor `encodeCursor` made, or null: a time exactly as it writes one, in the years a day
 * filter takes (routes/staff.ts), and a return id, so that nothing the database would refuse
 * reaches it (`Date.parse` takes "0", year 0000 and "+275760-09-13", PostgreSQL none of them).
 */
export function decodeCursor(value: string): Cursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
    if (!Array.isArray(parsed) || parsed.length !== 2) return null
    const [at, id] = parsed as unknown[]
    if (typeof at !== 'string' || typeof id !== 'string' || !RETURN_ID_PATTERN.test(id)) return null
    if (!CURSOR_TIME.test(at) || new Date(at).toISOString() !== at) return null
    return { at, id }
  } catch {
    return null
  }
}

const CURSOR_TIME = /^(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/

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
 * A page of the shop's returns, newest first, from the index on (shop, created, id): the next
 * page starts after the last of this one, so a page costs the same on the thousandth page.
 */
export async function listReturns(
  db: Queryable,
  shopId: string,
  filters: ReturnFilters,
  limit: number,
  after: Cursor | null,
): Promise<{ returns: ReturnSummary[]; next: Cursor | null }> {
  const where = ['r.shop_id = $1']
  const params: unknown[] = [shopId]
  const param = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  const q = filters.q?.trim()
  if (q) {
    // A return's own number (#1001-R1), else an order's name as verify reads it (#1001, 1001) or its e-mail.
    if (/-R\d+$/i.test(q)) where.push(`upper(ltrim(r.name, '#')) = ${param(q.replace(/^[\s#]+/, '').toUpperCase())}`)
    else where.push(`(o.name_key = ${param(orderNameKey(q))} OR o.email_key = ${param(emailKey(q))})`)
  }
  if (filters.state) where.push(`r.state = ${param(filters.state)}`)
  if (filters.review) where.push(`r.review = ${param(filters.review)}`)
  if (filters.from) where.push(`r.created_at >= ${param(filters.from)}`)
  if (filters.until) where.push(`r.created_at < ${param(filters.until)}`)
  // Containment, checked on each row the index walks: cheaper than unnesting the items.
  if (filters.reason)
    where.push(`r.return_order -> 'items' @> ${param(JSON.stringify([{ reason_id: filters.reason }]))}::jsonb`)
  if (after) where.push(`(r.created_at, r.id) < (${param(after.at)}::timestamptz, ${param(after.id)})`)
  const rows = await db.query<Row & { settlement: Settlement | null }>(
    `${LIST_SELECT} WHERE ${where.join(' AND ')} ORDER BY r.created_at DESC, r.id DESC LIMIT ${param(limit + 1)}`,
    params,
  )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    returns: page.map((row) => summaryOf(row, row.settlement)),
    next: rows.length > limit && last ? { at: new Date(last.created_at).toISOString(), id: last.id } : null,
  }
}

/**
 * One return of the shop, in one read: as the list shows it, and its stored record (for the
 * status it shows its shopper); null for another shop's or an unknown one.
 */
export async function findShopReturn(
  db: Queryable,
  shopId: string,
  id: string,
): Promise<{ summary: ReturnSummary; record: ReturnRecord; language: string | null } | null> {
  const [row] = await db.query<
    Row & Omit<ReturnRecord, 'id' | 'name' | 'created_at' | 'review'> & { language: string | null }
  >(
    `SELECT ${COLUMNS}, r.order_id, r.request_hash, r.return_order, r.review_flags, r.review_answer_by,
            r.review_reason, r.reviewed_at, r.reviewed_by, r.ended, r.ended_reason, r.ended_at, r.ended_by,
            r.language ${FROM} WHERE r.shop_id = $1 AND r.id = $2`,
    [shopId, id],
  )
  if (!row) return null
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

/** The photos staff may see of a return: those its items took. */
export async function findReturnPhotos(
  db: Queryable,
  returnId: string,
): Promise<{ id: string; line_item_id: string }[]> {
  // The shopper's; the warehouse's are with its inspections.
  return db.query(
    "SELECT id, line_item_id FROM photos WHERE return_id = $1 AND source = 'shopper' ORDER BY created_at, id",
    [returnId],
  )
}

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
