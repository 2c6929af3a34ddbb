import type { Queryable } from './database'

/** Keeps a code under a new reference; false when the reference is taken (the caller draws another). */
export async function insertSupportReference(
  db: Queryable,
  entry: { reference: string; shopId: string; code: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO support_references (reference, shop_id, code, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (reference) DO NOTHING RETURNING reference`,
    [entry.reference, entry.shopId, entry.code, entry.createdAt, entry.expiresAt],
  )
  // References past their time are of no use to anyone: they go as new ones come.
  await db.query('DELETE FROM support_references WHERE expires_at < $1', [entry.createdAt])
  return rows.length > 0
}

/** The code behind a reference of this shop, while it lasts; null for another shop's or an expired one. */
export async function findSupportReference(
  db: Queryable,
  shopId: string,
  reference: string,
  now: Date,
): Promise<{ code: string; created_at: Date; expires_at: Date } | null> {
  const [row] = await db.query<{ code: string; created_at: Date; expires_at: Date }>(
    'SELECT code, created_at, expires_at FROM support_references WHERE reference = $1 AND shop_id = $2 AND expires_at > $3',
    [reference, shopId, now],
  )
  return row ?? null
}
