import type { Queryable } from './database'

/**
 * The returns of the shop made on orders with this e-mail (`emailKey`, as orders keep it) at or
 * after `since`: the shopper's returns for the policy's limit and its frequent review rule
 * (docs/lifecycle.md). A rejected return is not counted: the shop refused it, and its units may be
 * returned again.
 */
export async function countShopperReturns(
  db: Queryable,
  shopId: string,
  emailKey: string,
  since: Date,
): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count
       FROM orders o JOIN returns r ON r.order_id = o.id
      WHERE o.shop_id = $1 AND o.email_key = $2 AND r.created_at >= $3 AND r.review IS DISTINCT FROM 'rejected'
        AND r.ended IS DISTINCT FROM 'cancelled'`,
    [shopId, emailKey, since],
  )
  return Number(row?.count ?? 0)
}

/**
 * Holds, until the transaction ends, the right to add a return for this shopper of the shop: two
 * submits on two of the shopper's orders (each under its own order's lock) would otherwise both
 * count the returns before either is made, and both pass a limit of returns. A lock on a hash of
 * the pair, not a row: the shopper has no row of their own.
 */
export async function lockShopperReturns(tx: Queryable, shopId: string, emailKey: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`shopper-returns:${shopId}:${emailKey}`])
}
