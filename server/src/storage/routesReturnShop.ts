import type { Queryable } from './database'

/**
 * The shop a return is of, or null for no such return: read before a transaction, so the caller can
 * read the shop (its cache reads through the database's own handle, which on PGlite, one
 * connection, would wait for an open transaction).
 */
export async function findReturnShopId(db: Queryable, id: string): Promise<string | null> {
  const [owner] = await db.query<{ shop_id: string }>('SELECT shop_id FROM returns WHERE id = $1', [id])
  return owner?.shop_id ?? null
}
