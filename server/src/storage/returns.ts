import type { ReturnOrder } from '../../../contract/api'
import type { Queryable } from './database'

export interface ReturnRecord {
  id: string
  order_id: string
  name: string
  request_hash: string | null
  return_order: ReturnOrder | null
  created_at: Date
}

const COLUMNS = 'id, order_id, name, request_hash, return_order, created_at'

export async function findReturn(db: Queryable, id: string): Promise<ReturnRecord | null> {
  const [row] = await db.query<ReturnRecord>(`SELECT ${COLUMNS} FROM returns WHERE id = $1`, [id])
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
    `INSERT INTO returns (id, order_id, shop_id, number, name, idempotency_key, request_hash, return_order, created_at, language, portal_origin)
     VALUES ($1, $2, (SELECT shop_id FROM orders WHERE id = $2), $3, $4, $5, $6, $7, $8, $9, $10)`,
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
    ],
  )
  for (const line of entry.lines) {
    await tx.query(
      'INSERT INTO return_items (return_id, order_id, line_item_id, quantity, exchange_variant_id) VALUES ($1, $2, $3, $4, $5)',
      [entry.id, entry.orderId, line.lineItemId, line.quantity, line.exchangeVariantId],
    )
  }
  await tx.query(
    `UPDATE orders SET returned_units = COALESCE((
       SELECT jsonb_object_agg(line_item_id, units) FROM (
         SELECT line_item_id, SUM(quantity)::int AS units FROM return_items WHERE order_id = $1 GROUP BY line_item_id) AS per_line), '{}')
     WHERE id = $1`,
    [entry.orderId],
  )
  return {
    id: entry.id,
    order_id: entry.orderId,
    name,
    request_hash: entry.requestHash,
    return_order: returnOrder,
    created_at: now,
  }
}

/** The ids of an order's returns, oldest first, by shop and order name (as stored). */
export async function findReturnIdsOfOrder(db: Queryable, shopId: string, orderName: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT r.id FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = $1 AND o.name = $2 ORDER BY r.number',
    [shopId, orderName],
  )
  return rows.map((row) => row.id)
}
