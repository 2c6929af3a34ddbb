import type { ReturnOrder } from '../../../contract/api'
import { minorDigits, toMinor } from '../../../contract/money'
import {
  rankInsights,
  summarizeInsights,
  type InsightFacts,
  type InsightRows,
  type MoneyMoves,
} from '../domain/insights'
import type { Queryable } from './database'
import type { ReturnedLine } from './returnStates'

export type { InsightRows, Tally } from '../domain/insights'

/**
 * The returned units of the shop's returns made in [from, until), each with its reason, title,
 * whether it was exchanged, and its value (the unit price the order shows, times the units).
 * Returns imported without pricing have no reasons and are left out.
 */
const UNITS = `
  WITH chosen AS (
    SELECT r.id, r.return_order, o.line_items
      FROM returns r JOIN orders o ON o.id = r.order_id
     WHERE r.shop_id = $1 AND r.created_at >= $2 AND r.created_at < $3 AND r.return_order IS NOT NULL
  ), units AS (
    SELECT c.id, item ->> 'reason_id' AS reason_id, item ->> 'reason_label' AS label, item ->> 'title' AS title,
           (item ->> 'quantity')::int AS count,
           (item ->> 'quantity')::int * COALESCE((
             SELECT (line ->> 'price')::numeric FROM jsonb_array_elements(c.line_items) AS line
              WHERE line ->> 'id' = item ->> 'line_item_id' LIMIT 1), 0) AS value
      FROM chosen c, jsonb_array_elements(c.return_order -> 'items') AS item
  )`

/** Sums in the currency's decimals ($4), exact: numeric adds the decimal strings without a float. */
const amount = (column: string) => `round(COALESCE(SUM(${column}), 0), $4::int)::text`

/**
 * The returns that may have moved money within [from, until): made in it, approved in it, or
 * with an item that moved in it; none waiting for review or rejected. Each with its lines and
 * their steps, the order's unit prices and what inspections deducted.
 */
const MOVED = `
  SELECT r.id, r.created_at, r.reviewed_at, r.review, r.return_order,
         (SELECT jsonb_object_agg(line ->> 'id', line ->> 'price') FROM jsonb_array_elements(o.line_items) AS line) AS prices,
         COALESCE((SELECT SUM(deduction_minor) FROM return_inspections x WHERE x.return_id = r.id AND deduction_minor > 0), 0)::text AS deducted,
         (SELECT jsonb_agg(jsonb_build_object(
                   'line_item_id', i.line_item_id, 'quantity', i.quantity, 'exchange_variant_id', i.exchange_variant_id,
                   'events', COALESCE((SELECT jsonb_agg(jsonb_build_object('state', e.state, 'at', e.at))
                                         FROM return_item_events e
                                        WHERE e.return_id = i.return_id AND e.line_item_id = i.line_item_id), '[]'::jsonb)))
            FROM return_items i WHERE i.return_id = r.id) AS lines
    FROM returns r JOIN orders o ON o.id = r.order_id
   WHERE r.id IN (SELECT id FROM returns WHERE shop_id = $1 AND created_at >= $2 AND created_at < $3
                  UNION SELECT return_id FROM return_item_events WHERE at >= $2 AND at < $3
                  UNION SELECT id FROM returns WHERE shop_id = $1 AND review = 'approved' AND reviewed_at >= $2 AND reviewed_at < $3)
     AND r.shop_id = $1 AND r.return_order IS NOT NULL AND r.created_at < $3
     AND r.review IS DISTINCT FROM 'pending' AND r.review IS DISTINCT FROM 'rejected'`

interface MovedRow {
  created_at: Date
  reviewed_at: Date | null
  review: string | null
  return_order: ReturnOrder
  prices: Record<string, string> | null
  deducted: string
  lines:
    | {
        line_item_id: string
        quantity: number
        exchange_variant_id: string | null
        events: { state: string; at: string }[]
      }[]
    | null
}

/**
 * What the insights of the shop's returns within [from, until) are made of (domain/insights.ts):
 * the reasons' and products' tallies of the returns asked for in the period, and the returns that
 * may have moved money in it, with their lines, unit prices and deductions.
 */
export async function findInsightFacts(
  db: Queryable,
  shopId: string,
  from: Date,
  until: Date,
  currency: string,
): Promise<InsightFacts> {
  const digits = minorDigits(currency)
  const params = [shopId, from, until, digits]
  const tallies = await db.query<InsightFacts['tallies'][number]>(
    `${UNITS}
     SELECT 'reason' AS kind, reason_id AS key, MIN(label) AS label, SUM(count)::int AS count, ${amount('value')} AS value
       FROM units GROUP BY reason_id
     UNION ALL
     SELECT 'product', title, title, SUM(count)::int, ${amount('value')} FROM units GROUP BY title`,
    params,
  )
  const [counted] = await db.query<{ returns: number }>(
    `SELECT COUNT(*)::int AS returns FROM returns
      WHERE shop_id = $1 AND created_at >= $2 AND created_at < $3 AND return_order IS NOT NULL`,
    [shopId, from, until],
  )
  const rows = await db.query<MovedRow>(MOVED, [shopId, from, until])
  const moved = rows.map((row): MoneyMoves => ({
    createdAt: new Date(row.created_at),
    approvedAt: row.review === 'approved' && row.reviewed_at ? new Date(row.reviewed_at) : null,
    answer: row.return_order,
    lines: (row.lines ?? []).map((line) => ({
      line_item_id: line.line_item_id,
      quantity: Number(line.quantity),
      exchange_variant_id: line.exchange_variant_id,
      events: line.events.map((event) => ({
        state: event.state as ReturnedLine['events'][number]['state'],
        at: new Date(event.at),
      })),
    })),
    unitPrices: new Map(Object.entries(row.prices ?? {}).map(([id, price]) => [id, toMinor(price, currency)])),
    deductedMinor: Number(row.deducted),
    currency,
  }))
  return {
    returns: Number(counted?.returns ?? 0),
    tallies: tallies.map((row) => ({ ...row, count: Number(row.count) })),
    moved,
  }
}

/**
 * The insights of the shop's returns within [from, until), recounted from the returns' rows.
 * Reasons and products count the units of every return asked for in the period. The outcomes
 * count what happened in it (domain/insights.ts): money refunded or issued as store credit (after
 * deductions), exchanged items and new items sent; a return rejected in review moved nothing.
 * What the tallies (findInsights) are held equal to; it reads every return of the period.
 */
export async function recountInsights(
  db: Queryable,
  shopId: string,
  from: Date,
  until: Date,
  currency: string,
): Promise<InsightRows> {
  return summarizeInsights(await findInsightFacts(db, shopId, from, until, currency), from, until, currency)
}

const DAY_MS = 86_400_000

/**
 * The insights of the shop's returns within [from, until), as recountInsights gives them, read
 * from the daily tallies (migration 22, decision 0087): the days' rows of the period, summed.
 * A period that does not start and end at midnight UTC is recounted.
 */
export async function findInsights(
  db: Queryable,
  shopId: string,
  from: Date,
  until: Date,
  currency: string,
): Promise<InsightRows> {
  if (from.getTime() % DAY_MS !== 0 || until.getTime() % DAY_MS !== 0)
    return recountInsights(db, shopId, from, until, currency)
  const day = (at: Date) => at.toISOString().slice(0, 10)
  // A (kind, key, label) whose returns all went (deleted, or moved to another day) sums to zero: left out.
  const rows = await db.query<{ kind: string; key: string; label: string; count: string; value: string }>(
    `WITH days AS (
       SELECT kind, key, label, SUM(count) AS count, SUM(value) AS value FROM insight_days
        WHERE shop_id = $1 AND day >= $2::date AND day < $3::date
        GROUP BY kind, key, label HAVING SUM(count) <> 0 OR SUM(value) <> 0)
     SELECT kind, key, MIN(label) AS label, SUM(count)::text AS count,
            (CASE WHEN kind IN ('reason', 'product') THEN round(SUM(value), $4::int) ELSE SUM(value) END)::text AS value
       FROM days GROUP BY kind, key`,
    [shopId, day(from), day(until), minorDigits(currency)],
  )
  const total = (kind: string) => Number(rows.find((row) => row.kind === kind)?.value ?? 0)
  return rankInsights(
    {
      returns: Number(rows.find((row) => row.kind === 'returns')?.count ?? 0),
      tallies: rows.flatMap((row) =>
        row.kind === 'reason' || row.kind === 'product'
          ? [{ kind: row.kind, key: row.key, label: row.label, count: Number(row.count), value: row.value }]
          : [],
      ),
    },
    {
      exchanges: total('exchanges'),
      upsells: total('upsells'),
      store_credit: total('store_credit'),
      refunded: total('refunded'),
    },
    currency,
  )
}
