import type { ReturnOrder } from '../../../contract/api'
import type { ReviewFlag } from '../../../contract/staff'
import { qrCodeValue } from '../domain/label'
import type { ReturnRecord } from '../domain/returns'
import type { Queryable } from './database'

export type { ReturnRecord, ReviewState } from '../domain/returns'

const COLUMNS =
  'id, order_id, name, request_hash, return_order, created_at, review, review_flags, review_answer_by, review_reason, reviewed_at, reviewed_by, ended, ended_reason, ended_at, ended_by'

export async function findReturn(db: Queryable, id: string): Promise<ReturnRecord | null> {
  const [row] = await db.query<ReturnRecord>(`SELECT ${COLUMNS} FROM returns WHERE id = $1`, [id])
  return row ?? null
}

/** The return under its lock, with its shop: one change of a return at a time. */
export async function lockReturn(tx: Queryable, id: string): Promise<(ReturnRecord & { shop_id: string }) | null> {
  const [row] = await tx.query<ReturnRecord & { shop_id: string }>(
    `SELECT ${COLUMNS}, shop_id FROM returns WHERE id = $1 FOR UPDATE`,
    [id],
  )
  return row ?? null
}

export async function findReturnByKey(
  db: Queryable,
  orderId: string,
  idempotencyKey: string,
): Promise<ReturnRecord | null> {
  const [row] = await db.query<ReturnRecord>(
    `SELECT ${COLUMNS} FROM returns WHERE order_id = $1 AND idempotency_key = $2`,
    [orderId, idempotencyKey],
  )
  return row ?? null
}

export interface NewReturn {
  id: string
  orderId: string
  orderName: string
  idempotencyKey: string | null
  requestHash: string | null
  /** builds the stored answer once the return's number and name are known */
  answer: ((name: string, createdAt: Date) => ReturnOrder) | null
  lines: { lineItemId: string; quantity: number; exchangeVariantId: string | null }[]
  /** the shopper's language and the portal address they submitted from: their e-mails' words and links (docs/events.md) */
  language?: string
  portalOrigin?: string
  /** the shop's review rules matched: the return waits for staff (docs/lifecycle.md) */
  review?: { flags: ReviewFlag[]; answerBy: string } | undefined
}

/**
 * Records a return and the units it takes, numbered per order ("#1001-R1"). Call inside a
 * transaction that holds the order's lock, so numbers and returned units cannot race.
 */
export async function insertReturn(tx: Queryable, entry: NewReturn, now: Date): Promise<ReturnRecord> {
  const [{ next }] = (await tx.query<{ next: number }>(
    'SELECT COALESCE(MAX(number), 0) + 1 AS next FROM returns WHERE order_id = $1',
    [entry.orderId],
  )) as [{ next: number }]
  const name = `${entry.orderName}-R${Number(next)}`
  const returnOrder = entry.answer ? entry.answer(name, now) : null
  await tx.query(
    `INSERT INTO returns (id, order_id, shop_id, number, name, idempotency_key, request_hash, return_order, created_at, language, portal_origin,
                          drop_off_code, review, review_flags, review_answer_by)
     VALUES ($1, $2, (SELECT shop_id FROM orders WHERE id = $2), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      entry.id,
      entry.orderId,
      Number(next),
      name,
      entry.idempotencyKey,
      entry.requestHash,
      returnOrder === null ? null : JSON.stringify(returnOrder),
      now,
      entry.language ?? null,
      entry.portalOrigin ?? null,
      qrCodeValue(entry.id),
      entry.review ? 'pending' : null,
      entry.review ? JSON.stringify(entry.review.flags) : null,
      entry.review?.answerBy ?? null,
    ],
  )
  // Its lines in one statement, however many (a submit's statements are its time on PGlite).
  if (entry.lines.length > 0)
    await tx.query(
      `INSERT INTO return_items (return_id, order_id, line_item_id, quantity, exchange_variant_id)
       SELECT $1, $2, line.id, line.quantity, line.exchange
         FROM unnest($3::text[], $4::int[], $5::text[]) WITH ORDINALITY AS line (id, quantity, exchange, at)
        ORDER BY line.at`,
      [
        entry.id,
        entry.orderId,
        entry.lines.map((line) => line.lineItemId),
        entry.lines.map((line) => line.quantity),
        entry.lines.map((line) => line.exchangeVariantId),
      ],
    )
  await countReturnedUnits(tx, entry.orderId)
  return {
    id: entry.id,
    order_id: entry.orderId,
    name,
    request_hash: entry.requestHash,
    return_order: returnOrder,
    created_at: now,
    review: entry.review ? 'pending' : null,
    review_flags: entry.review?.flags ?? null,
    review_answer_by: entry.review?.answerBy ?? null,
    review_reason: null,
    reviewed_at: null,
    reviewed_by: null,
  }
}

/**
 * Counts again the units an order's returns hold, which verify reads. A rejected or cancelled
 * return holds none: its units may be returned again (docs/lifecycle.md, decision 0083).
 */
export async function countReturnedUnits(tx: Queryable, orderId: string): Promise<void> {
  await tx.query(
    `UPDATE orders SET returned_units = COALESCE((
       SELECT jsonb_object_agg(line_item_id, units) FROM (
         SELECT i.line_item_id, SUM(i.quantity)::int AS units
           FROM return_items i JOIN returns r ON r.id = i.return_id
          WHERE i.order_id = $1 AND r.review IS DISTINCT FROM 'rejected' AND r.ended IS DISTINCT FROM 'cancelled'
          GROUP BY i.line_item_id) AS per_line), '{}')
     WHERE id = $1`,
    [orderId],
  )
}

/**
 * Records staff's decision on a return waiting for review; false when it was no longer waiting
 * (decided by someone else meanwhile). A rejection frees the units the return held.
 */
export async function decideReview(
  tx: Queryable,
  found: Pick<ReturnRecord, 'id' | 'order_id'>,
  decision: { state: 'approved' | 'rejected'; reason: string | null; by: string; at: Date },
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE returns SET review = $2, review_reason = $3, reviewed_by = $4, reviewed_at = $5
      WHERE id = $1 AND review = 'pending' RETURNING id`,
    [found.id, decision.state, decision.reason, decision.by, decision.at],
  )
  if (rows.length === 0) return false
  if (decision.state === 'rejected') await countReturnedUnits(tx, found.order_id)
  return true
}

/** The ids of an order's returns, oldest first, by shop and order name (as stored). */
export async function findReturnIdsOfOrder(db: Queryable, shopId: string, orderName: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT r.id FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = $1 AND o.name = $2 ORDER BY r.number',
    [shopId, orderName],
  )
  return rows.map((row) => row.id)
}

/**
 * Ends a return (decision 0083): cancelled or closed, with why, when and by whom. A cancellation
 * frees the units the return held; a closing keeps them (its items may be on their way, or lost).
 */
export async function endReturn(
  tx: Queryable,
  found: Pick<ReturnRecord, 'id' | 'order_id'>,
  ending: { state: 'cancelled' | 'closed'; reason: string | null; by: string; at: Date },
): Promise<void> {
  await tx.query(
    'UPDATE returns SET ended = $2, state = $2, ended_reason = $3, ended_by = $4, ended_at = $5 WHERE id = $1',
    [found.id, ending.state, ending.reason, ending.by, ending.at],
  )
  if (ending.state === 'cancelled') await countReturnedUnits(tx, found.order_id)
}
