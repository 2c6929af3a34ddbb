import type { ReturnItemState } from '../../../contract/api'
import type { ReturnedLine } from '../domain/returns'
import type { Queryable } from './database'

export type { ReturnedLine } from '../domain/returns'

/**
 * The return's lines with their events, as one JSON array of rows (a line's row per event, one
 * without when it has none, the earliest first): an SQL expression over the return whose id is
 * `returnId`, so that a read of a whole return takes them in its one statement (readShopReturn).
 */
export const returnedLineRowsJson = (returnId: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('line_item_id', i.line_item_id, 'quantity', i.quantity,
            'exchange_variant_id', i.exchange_variant_id, 'state', e.state, 'at', e.at) ORDER BY e.at NULLS FIRST), '[]')
      FROM return_items i LEFT JOIN return_item_events e ON e.return_id = i.return_id AND e.line_item_id = i.line_item_id
     WHERE i.return_id = ${returnId})`

interface ReturnedLineRow {
  line_item_id: string
  quantity: number
  exchange_variant_id: string | null
  state: string | null
  /** a Date, or its JSON text */
  at: Date | string | null
}

/** The lines of rows of returnedLineRowsJson, each with its events, in the order their first row came. */
export function returnedLinesOf(rows: readonly ReturnedLineRow[]): ReturnedLine[] {
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

/** The lines of a return in the order's line order is the caller's job; here, with their events. */
export async function findReturnedLines(db: Queryable, returnId: string): Promise<ReturnedLine[]> {
  const [row] = await db.query<{ rows: ReturnedLineRow[] }>(`SELECT ${returnedLineRowsJson('$1')} AS rows`, [returnId])
  return returnedLinesOf(row?.rows ?? [])
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
  await tx.query(`UPDATE returns SET state = ${returnStateSql('$1')} WHERE id = $1`, [returnId])
}

/**
 * The return's state as the back office lists it (docs/back-office.md): how staff ended it
 * (`cancelled`, `closed`: decision 0083), else the least advanced of its items, an item the
 * shopper keeps counting as received until it is refunded (it never travels).
 * An SQL expression over the return whose id is `returnId` (a column or a parameter).
 */
export function returnStateSql(returnId: string): string {
  return `COALESCE((SELECT ended FROM returns WHERE id = ${returnId}), (SELECT (ARRAY['requested', 'in_transit', 'received', 'refunded'])[1 + COALESCE(MIN(GREATEST(
      COALESCE((SELECT MAX(CASE e.state WHEN 'in_transit' THEN 1 WHEN 'received' THEN 2 WHEN 'refunded' THEN 3 END)
                  FROM return_item_events e WHERE e.return_id = i.return_id AND e.line_item_id = i.line_item_id), 0),
      CASE WHEN EXISTS (SELECT 1 FROM returns r, jsonb_array_elements(COALESCE(r.return_order -> 'items', '[]')) AS item
                         WHERE r.id = i.return_id AND item ->> 'line_item_id' = i.line_item_id AND item ->> 'keep' = 'true')
           THEN 2 ELSE 0 END)), 0)]
    FROM return_items i WHERE i.return_id = ${returnId}))`
}

/**
 * What an action was: items moved on, a review decided, items inspected (docs/lifecycle.md), a
 * staff note, the return cancelled or closed (decision 0083).
 */
export type ActionKind = 'state' | 'approved' | 'rejected' | 'inspected' | 'note' | 'cancelled' | 'closed'

/** A change made by someone (an operator, a staff member), for the return's timeline. */
export interface ReturnAction {
  at: Date
  actor: string
  /** `state` when absent */
  kind?: ActionKind
  /** the state the items reached; null for a review's decision */
  state: Exclude<ReturnItemState, 'requested'> | null
  lineItemIds: readonly string[]
  note: string | null
}

export async function recordAction(tx: Queryable, returnId: string, action: ReturnAction): Promise<void> {
  await tx.query(
    'INSERT INTO return_actions (return_id, at, actor, kind, state, line_item_ids, note) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [
      returnId,
      action.at,
      action.actor,
      action.kind ?? 'state',
      action.state,
      JSON.stringify(action.lineItemIds),
      action.note,
    ],
  )
}

/** The return's actions, oldest first, as one JSON array: an SQL expression, as returnedLineRowsJson. */
export const actionRowsJson = (returnId: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('at', a.at, 'actor', a.actor, 'kind', a.kind, 'state', a.state,
            'line_item_ids', a.line_item_ids, 'note', a.note) ORDER BY a.at), '[]')
      FROM return_actions a WHERE a.return_id = ${returnId})`

/** The actions of rows of actionRowsJson. */
export function actionsOf(
  rows: readonly {
    /** a Date, or its JSON text */
    at: Date | string
    actor: string
    kind: ActionKind
    state: ReturnAction['state']
    line_item_ids: string[]
    note: string | null
  }[],
): ReturnAction[] {
  return rows.map((row) => ({
    at: new Date(row.at),
    actor: row.actor,
    kind: row.kind,
    state: row.state,
    lineItemIds: row.line_item_ids,
    note: row.note,
  }))
}
