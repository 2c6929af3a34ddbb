import { fromMinor, toMinor } from '../../../contract/money'
import type { LineItemFile, Order } from '../domain/shop'
import { lineAsFile, lineInMinor } from '../domain/shopMoney'
import type { Database, Queryable } from './database'

export type OrderRecord = Order

/**
 * An order's row: its amounts as stored, decimal strings in its shop's currency, which the row
 * names (`currency_code`, read with it from the shop's row); its times as the driver gives them.
 */
export interface OrderRow extends Omit<Order, 'discount' | 'line_items' | 'processed_at' | 'fulfilled_at'> {
  processed_at: Date | string
  fulfilled_at: Date | string | null
  discount: string
  line_items: LineItemFile[]
  currency_code: string
}

/** An order's columns. */
const COLUMNS = 'id, shop_id, name, email_key, processed_at, fulfilled_at, discount, line_items, shipping_address'

/** The currency of the shop of the orders row `alias`, which orderOf reads the row's amounts in: a scalar subquery on the shops' key. */
export const orderCurrency = (alias: string) =>
  `(SELECT s.currency_code FROM shops s WHERE s.id = ${alias}.shop_id) AS currency_code`

/** An order's columns and its shop's currency: a row for orderOf. */
const READ = `${COLUMNS}, ${orderCurrency('orders')}`

/**
 * The order as the rules read it, from its row: its amounts read into minor units here, once per
 * row read (docs/decisions/0096-orders-settings-minor.md), and its dates as Dates.
 */
export function orderOf(row: OrderRow): OrderRecord {
  const { currency_code: currency, discount, line_items: lines, ...order } = row
  return {
    ...order,
    // Both drivers give timestamptz as Date, but be sure: a string slipping through would compare wrong.
    processed_at: new Date(row.processed_at),
    fulfilled_at: row.fulfilled_at === null ? null : new Date(row.fulfilled_at),
    discount: toMinor(discount, currency),
    line_items: lines.map((line) => lineInMinor(line, currency)),
  }
}

/** The columns of an order as verify finds it: the order, and the units of each line returned (`returned`). */
export const FOUND_COLUMNS = `${READ}, returned_units AS returned`

/** A row of FOUND_COLUMNS. */
export type FoundRow = OrderRow & { returned: Record<string, number> }

/** An order as verify finds it, from a row of FOUND_COLUMNS. */
export function foundOf(row: FoundRow): {
  order: OrderRecord
  returned: Map<string, number>
} {
  const { returned, ...order } = row
  return {
    order: orderOf(order),
    returned: new Map(Object.entries(returned).map(([line, units]) => [line, Number(units)])),
  }
}

/** The order and the units of each line already returned, in one row (verify's hot path). */
export async function findOrderByName(
  db: Queryable,
  shopId: string,
  nameKey: string,
): Promise<{ order: OrderRecord; returned: Map<string, number> } | null> {
  const [row] = await db.query<FoundRow>(`SELECT ${FOUND_COLUMNS} FROM orders WHERE shop_id = $1 AND name_key = $2`, [
    shopId,
    nameKey,
  ])
  return row ? foundOf(row) : null
}

export type Found = NonNullable<Awaited<ReturnType<typeof findOrderByName>>>

/** Orders verify has found, per database: on the embedded engine, kept until the next write. */
const lookups = new WeakMap<Database, Map<string, { writes: number; found: Found }>>()
/** Orders remembered at most per database (a verify burst of the same few orders is the case). */
export const LOOKUP_CACHE_SIZE = 5_000

/**
 * findOrderByName for verify. On a database this process has to itself (PGlite), an order found
 * is remembered until this process next writes anything; on a shared server (PostgreSQL, other
 * replicas writing) every call reads. Orders not found are never remembered, so guessing names
 * fills nothing.
 */
export async function findOrderForVerify(db: Database, shopId: string, nameKey: string): Promise<Found | null> {
  if (!db.exclusive) return findOrderByName(db, shopId, nameKey)
  let cache = lookups.get(db)
  if (!cache) lookups.set(db, (cache = new Map<string, { writes: number; found: Found }>()))
  const key = `${shopId}\u0000${nameKey}`
  const known = cache.get(key)
  if (known && known.writes === db.writeCount()) return known.found
  // Read before the query: a write that lands meanwhile makes this entry stale at once.
  const writes = db.writeCount()
  const found = await findOrderByName(db, shopId, nameKey)
  if (found) {
    if (cache.size >= LOOKUP_CACHE_SIZE) cache.clear()
    cache.set(key, { writes, found })
  }
  return found
}

/**
 * Stores a new order (an import's, the Orders API's), its amounts written in `currency` (its
 * shop's); `nameKey` is its name as verify looks it up (domain/normalize.ts). False, and nothing
 * written, when the shop has an order of that key already: one written meanwhile by another
 * transaction, which this one waited for.
 */
export async function insertOrder(
  tx: Queryable,
  order: OrderRecord,
  nameKey: string,
  currency: string,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, fulfilled_at, discount, line_items, shipping_address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (shop_id, name_key) DO NOTHING
     RETURNING id`,
    orderParameters(order, nameKey, currency),
  )
  return rows.length > 0
}

/** A stored order of a shop as an import finds it: its units returned (rejected returns hold none), whether it has any return. */
export interface StoredOrder {
  order: OrderRecord
  /** the currency its amounts are stored in: its shop's when it was read */
  currency: string
  nameKey: string
  returned: Map<string, number>
  hasReturns: boolean
}

/**
 * Every order of the shop, locked until the transaction ends (an import updates them while no
 * submit changes their returns), by name key.
 */
export async function lockShopOrders(tx: Queryable, shopId: string): Promise<Map<string, StoredOrder>> {
  const stored = new Map<string, StoredOrder>()
  for (const order of await lockedOrders(tx, 'shop_id = $1 ORDER BY name_key', [shopId]))
    stored.set(order.nameKey, order)
  return stored
}

/** The shop's order of `nameKey`, locked until the transaction ends (one submit or update at a time); null when none. */
export async function lockOrderByName(tx: Queryable, shopId: string, nameKey: string): Promise<StoredOrder | null> {
  const [order] = await lockedOrders(tx, 'shop_id = $1 AND name_key = $2', [shopId, nameKey])
  return order ?? null
}

async function lockedOrders(tx: Queryable, where: string, params: unknown[]): Promise<StoredOrder[]> {
  const rows = await tx.query<OrderRow & { name_key: string }>(
    `SELECT ${READ}, name_key FROM orders WHERE ${where} FOR UPDATE`,
    params,
  )
  if (rows.length === 0) return []
  // Read after the lock, in a statement of its own: one that waited for the lock (a submit's)
  // would see the returns as they were when it began, without the one just committed.
  const withReturns = new Set(
    (
      await tx.query<{ order_id: string }>('SELECT DISTINCT order_id FROM returns WHERE order_id = ANY($1::text[])', [
        rows.map((row) => row.id),
      ])
    ).map((row) => row.order_id),
  )
  const stored: StoredOrder[] = []
  for (const { name_key: nameKey, ...row } of rows) {
    const hasReturns = withReturns.has(row.id)
    const returned = hasReturns ? await returnedQuantities(tx, row.id) : new Map<string, number>()
    stored.push({ order: orderOf(row), currency: row.currency_code, nameKey, returned, hasReturns })
  }
  return stored
}

/** An order's columns as insertOrder and updateOrder take them, $1 to $10: its amounts written in `currency`. */
const orderParameters = (order: OrderRecord, nameKey: string, currency: string) => [
  order.id,
  order.shop_id,
  order.name,
  nameKey,
  order.email_key,
  order.processed_at,
  order.fulfilled_at,
  fromMinor(order.discount, currency),
  JSON.stringify(order.line_items.map((line) => lineAsFile(line, currency))),
  order.shipping_address ? JSON.stringify(order.shipping_address) : null,
]

/**
 * Writes an order's new fields over the stored one (same id, so its returns, photos and links
 * stay), its amounts in `currency` (its shop's).
 */
export async function updateOrder(tx: Queryable, order: OrderRecord, nameKey: string, currency: string): Promise<void> {
  await tx.query(
    `UPDATE orders SET name = $3, name_key = $4, email_key = $5, processed_at = $6, fulfilled_at = $7, discount = $8,
            line_items = $9, shipping_address = $10
      WHERE id = $1 AND shop_id = $2`,
    orderParameters(order, nameKey, currency),
  )
}

/** Deletes orders that have no return (an import's file no longer lists them); their unsent photos' rows go too. */
export async function deleteOrdersWithoutReturns(tx: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  await tx.query(
    `DELETE FROM orders WHERE id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM returns r WHERE r.order_id = orders.id)`,
    [ids],
  )
}

/** The order, locked until the transaction ends when `forUpdate` (one submit at a time per order). */
export async function findOrderById(db: Queryable, id: string, forUpdate = false): Promise<OrderRecord | null> {
  const [row] = await db.query<OrderRow>(`SELECT ${READ} FROM orders WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
    id,
  ])
  return row ? orderOf(row) : null
}

/** Units of each line already returned, by line item id. */
export async function returnedQuantities(db: Queryable, orderId: string): Promise<Map<string, number>> {
  const rows = await db.query<{ line_item_id: string; quantity: number }>(
    // A rejected or cancelled return holds no units (docs/lifecycle.md, decision 0083).
    `SELECT i.line_item_id, SUM(i.quantity)::int AS quantity
       FROM return_items i JOIN returns r ON r.id = i.return_id
      WHERE i.order_id = $1 AND r.review IS DISTINCT FROM 'rejected' AND r.ended IS DISTINCT FROM 'cancelled'
      GROUP BY i.line_item_id`,
    [orderId],
  )
  return new Map(rows.map((row) => [row.line_item_id, Number(row.quantity)]))
}

/**
 * The order's COLUMNS and its shop's currency as one JSON object: an SQL expression over the
 * orders row `alias`, for a read that takes a return whole in one statement (readShopReturn);
 * orderOf reads it, its times as text.
 */
export const orderJson = (alias: string) =>
  `json_build_object(${COLUMNS.split(', ')
    .map((column) => `'${column}', ${alias}.${column}`)
    .join(', ')}, 'currency_code', (SELECT s.currency_code FROM shops s WHERE s.id = ${alias}.shop_id))`

/**
 * The engine's id of the shop's order of `nameKey`, its row locked until the transaction ends:
 * undefined when there is no such order, null when it is not an engine's.
 */
export async function lockEngineOrderId(
  tx: Queryable,
  shopId: string,
  nameKey: string,
): Promise<string | null | undefined> {
  const [row] = await tx.query<{ engine_order_id: string | null }>(
    'SELECT engine_order_id FROM orders WHERE shop_id = $1 AND name_key = $2 FOR UPDATE',
    [shopId, nameKey],
  )
  return row ? row.engine_order_id : undefined
}

/**
 * Marks the order as the engine's (docs/decisions/0076-verify-reads-the-engine.md): its id there,
 * which the actions carried out in the engine name. Its line item and variant ids are the engine's.
 */
export async function setEngineOrderId(
  tx: Queryable,
  shopId: string,
  nameKey: string,
  engineOrderId: string,
): Promise<void> {
  await tx.query(
    `UPDATE orders SET engine_order_id = $3
      WHERE shop_id = $1 AND name_key = $2 AND engine_order_id IS DISTINCT FROM $3`,
    [shopId, nameKey, engineOrderId],
  )
}
