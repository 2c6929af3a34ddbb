import type { LineItemFile } from '../import/shopFile'
import type { Queryable } from './database'

export interface OrderRecord {
  id: string
  shop_id: string
  name: string
  email_key: string
  processed_at: Date
  fulfilled_at: Date | null
  discount: string
  line_items: LineItemFile[]
}

const COLUMNS = 'id, shop_id, name, email_key, processed_at, fulfilled_at, discount, line_items'

/** The order and the units of each line already returned, in one row (verify's hot path). */
export async function findOrderByName(db: Queryable, shopId: string, nameKey: string): Promise<{ order: OrderRecord; returned: Map<string, number> } | null> {
  const [row] = await db.query<OrderRecord & { returned: Record<string, number> }>(`SELECT ${COLUMNS}, returned_units AS returned FROM orders WHERE shop_id = $1 AND name_key = $2`, [
    shopId,
    nameKey,
  ])
  if (!row) return null
  const { returned, ...order } = row
  return { order: withDates(order), returned: new Map(Object.entries(returned).map(([line, units]) => [line, Number(units)])) }
}

/** The order, locked until the transaction ends when `forUpdate` (one submit at a time per order). */
export async function findOrderById(db: Queryable, id: string, forUpdate = false): Promise<OrderRecord | null> {
  const [row] = await db.query<OrderRecord>(`SELECT ${COLUMNS} FROM orders WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id])
  return row ? withDates(row) : null
}

/** Units of each line already returned, by line item id. */
export async function returnedQuantities(db: Queryable, orderId: string): Promise<Map<string, number>> {
  const rows = await db.query<{ line_item_id: string; quantity: number }>(
    'SELECT line_item_id, SUM(quantity)::int AS quantity FROM return_items WHERE order_id = $1 GROUP BY line_item_id',
    [orderId],
  )
  return new Map(rows.map((row) => [row.line_item_id, Number(row.quantity)]))
}

// Both drivers give timestamptz as Date, but be sure: a string slipping through would compare wrong.
function withDates(row: OrderRecord): OrderRecord {
  return {
    ...row,
    processed_at: new Date(row.processed_at),
    fulfilled_at: row.fulfilled_at === null ? null : new Date(row.fulfilled_at),
  }
}
