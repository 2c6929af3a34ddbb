import type { Queryable } from './database'

/** A figure of the insights: how many units, and their value as the shop showed it (a decimal string). */
export interface Tally {
  count: number
  value: string
}

export interface InsightRows {
  returns: number
  reasons: (Tally & { reason_id: string; label: string })[]
  products: (Tally & { title: string })[]
  /** what stayed with the shop (exchanged items, new items bought with credit, store credit) and what went back */
  outcomes: { exchanges: string; upsells: string; store_credit: string; refunded: string }
}

/**
 * The returned units of the shop's returns made in [from, until), each with its reason, title,
 * whether it was exchanged, and its value (the unit price the order shows, times the units).
 * Returns imported without pricing have no reasons and are left out.
 */
const UNITS = `
  WITH chosen AS (
    SELECT r.id, r.return_order, o.line_items, r.review IS NOT DISTINCT FROM 'rejected' AS rejected
      FROM returns r JOIN orders o ON o.id = r.order_id
     WHERE r.shop_id = $1 AND r.created_at >= $2 AND r.created_at < $3 AND r.return_order IS NOT NULL
  ), units AS (
    SELECT c.id, c.rejected, item ->> 'reason_id' AS reason_id, item ->> 'reason_label' AS label, item ->> 'title' AS title,
           (item ->> 'exchange_variant_id') IS NOT NULL AS exchanged, (item ->> 'quantity')::int AS count,
           (item ->> 'quantity')::int * COALESCE((
             SELECT (line ->> 'price')::numeric FROM jsonb_array_elements(c.line_items) AS line
              WHERE line ->> 'id' = item ->> 'line_item_id' LIMIT 1), 0) AS value
      FROM chosen c, jsonb_array_elements(c.return_order -> 'items') AS item
  )`

/** Sums as the API writes money: two decimals (the insights' figures are shown, never charged). */
const amount = (column: string) => `round(COALESCE(SUM(${column}), 0), 2)::text`

/**
 * The insights of the shop's returns made in [from, until). Reasons and products count every
 * return asked for; the outcomes only what happened: a return the shop rejected in review kept
 * and refunded nothing, and a refund or credit is what the shopper got, less the inspections'
 * deductions (never below zero). `minorDigits`: the shop currency's decimals, in which
 * deductions are kept.
 */
export async function findInsights(
  db: Queryable,
  shopId: string,
  from: Date,
  until: Date,
  minorDigits: number,
): Promise<InsightRows> {
  const params = [shopId, from, until]
  // One pass over the units (the CTE is read three times, so PostgreSQL computes it once).
  const tallies = await db.query<{
    kind: 'reason' | 'product' | 'exchanges'
    key: string
    label: string
    count: number
    value: string
  }>(
    `${UNITS}
     SELECT 'reason' AS kind, reason_id AS key, MIN(label) AS label, SUM(count)::int AS count, ${amount('value')} AS value
       FROM units GROUP BY reason_id
     UNION ALL
     SELECT 'product', title, title, SUM(count)::int, ${amount('value')} FROM units GROUP BY title
     UNION ALL
     SELECT 'exchanges', '', '', COALESCE(SUM(count), 0)::int, ${amount('value')} FROM units WHERE exchanged AND NOT rejected`,
    params,
  )
  const refund = `GREATEST((ro -> 'breakdown' -> 'total' -> 'shop_money' ->> 'amount')::numeric - deducted, 0)`
  const [totals] = await db.query<InsightRows['outcomes'] & { returns: number }>(
    `WITH chosen AS (
       SELECT r.return_order AS ro, r.review IS NOT DISTINCT FROM 'rejected' AS rejected,
              COALESCE(x.deducted, 0) / power(10::numeric, $4::int) AS deducted
         FROM returns r
         -- The few returns inspected with a deduction, summed once and joined (not asked per return).
         LEFT JOIN (SELECT return_id, SUM(deduction_minor) AS deducted FROM return_inspections
                     WHERE deduction_minor > 0 GROUP BY return_id) x ON x.return_id = r.id
        WHERE r.shop_id = $1 AND r.created_at >= $2 AND r.created_at < $3 AND r.return_order IS NOT NULL)
     SELECT COUNT(*)::int AS returns,
            ${amount(`CASE WHEN NOT rejected THEN (ro -> 'new_item' -> 'price' -> 'shop_money' ->> 'amount')::numeric END`)} AS upsells,
            ${amount(`CASE WHEN NOT rejected AND ro ->> 'refund_method' = 'store_credit' THEN ${refund} END`)} AS store_credit,
            ${amount(`CASE WHEN NOT rejected AND ro ->> 'refund_method' = 'original_payment' THEN ${refund} END`)} AS refunded
       FROM chosen`,
    [...params, minorDigits],
  )
  // Most units first; a tie by name, so the order never changes between two looks.
  const ranked = (kind: 'reason' | 'product') =>
    tallies
      .filter((row) => row.kind === kind)
      .map((row) => ({ key: row.key, label: row.label, count: Number(row.count), value: row.value }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return {
    returns: Number(totals?.returns ?? 0),
    reasons: ranked('reason').map(({ key, label, count, value }) => ({ reason_id: key, label, count, value })),
    products: ranked('product')
      .slice(0, 10)
      .map(({ key, count, value }) => ({ title: key, count, value })),
    outcomes: {
      exchanges: tallies.find((row) => row.kind === 'exchanges')?.value ?? '0.00',
      upsells: totals?.upsells ?? '0.00',
      store_credit: totals?.store_credit ?? '0.00',
      refunded: totals?.refunded ?? '0.00',
    },
  }
}
