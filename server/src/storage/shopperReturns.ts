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
      WHERE o.shop_id = $1 AND o.email_key = $2 AND r.created_at >= $3 AND r.review IS DISTINCT FROM 'rejected'`,
    [shopId, emailKey, since],
  )
  return Number(row?.count ?? 0)
}
