import type { ReturnItemState } from '../../../contract/api'
import type { Queryable } from './database'

/** A returned line of one return, with the later states it reached and when. */
export interface ReturnedLine {
  line_item_id: string
  quantity: number
  exchange_variant_id: string | null
  events: { state: Exclude<ReturnItemState, 'requested'>; at: Date }[]
}

/** The lines of a return in the order's line order is the caller's job; here, with their events. */
export async function findReturnedLines(db: Queryable, returnId: string): Promise<ReturnedLine[]> {
  const rows = await db.query<{
    line_item_id: string
    quantity: number
    exchange_variant_id: string | null
    state: string | null
    at: Date | null
  }>(
    `SELECT i.line_item_id, i.quantity, i.exchange_variant_id, e.state, e.at
       FROM return_items i LEFT JOIN return_item_events e ON e.return_id = i.return_id AND e.line_item_id = i.line_item_id
      WHERE i.return_id = $1
      ORDER BY e.at NULLS FIRST`,
    [returnId],
  )
  const lines = new Map<string, ReturnedLine>()
  for (const row of rows) {
    const line = lines.get(row.line_item_id) ?? {
      line_item_id: row.line_item_id,
      quantity: Number(row.quantity),
      exchange_variant_id: row.exchange_variant_id,
      events: [],
    }
    if (row.state !== null && row.at !== null)
      line.events.push({ state: row.state as ReturnedLine['events'][number]['state'], at: new Date(row.at) })
    lines.set(row.line_item_id, line)
  }
  return [...lines.values()]
}

/** Records that these lines reached `state` at `at` (a state already recorded keeps its first time). */
export async function recordLineState(
  tx: Queryable,
  returnId: string,
  lineItemIds: readonly string[],
  state: Exclude<ReturnItemState, 'requested'>,
  at: Date,
): Promise<void> {
  for (const lineItemId of lineItemIds) {
    await tx.query(
      'INSERT INTO return_item_events (return_id, line_item_id, state, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [returnId, lineItemId, state, at],
    )
  }
}
