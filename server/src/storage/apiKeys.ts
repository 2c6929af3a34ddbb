/**
 * The Orders API's keys (decision 0074): per shop, with a label, stored as the token's SHA-256
 * and its first characters, never the token. Not tied to the shops table by a foreign key (as
 * webhook endpoints): deleting a shop deletes them itself (storage/shops.ts deleteShop).
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from './database'

export interface ApiKeyRow {
  id: string
  shop_id: string
  label: string
  prefix: string
  created_at: Date
  created_by: string
  last_used_at: Date | null
  revoked_at: Date | null
}

const COLUMNS = 'id, shop_id, label, prefix, created_at, created_by, last_used_at, revoked_at'

export interface NewApiKey {
  shopId: string
  label: string
  tokenSha256: string
  prefix: string
  /** who made it: a staff member's e-mail, or `cli` */
  createdBy: string
}

export async function insertApiKey(db: Queryable, key: NewApiKey, now: Date): Promise<ApiKeyRow> {
  const id = `key_${randomUUID().replaceAll('-', '').slice(0, 20)}`
  const [row] = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, shop_id, label, token_sha256, prefix, created_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [id, key.shopId, key.label, key.tokenSha256, key.prefix, now, key.createdBy],
  )
  return row!
}

/** The shop's keys, revoked ones too, oldest first. */
export async function listApiKeys(db: Queryable, shopId: string): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE shop_id = $1 ORDER BY created_at, id`, [shopId])
}

/** The live (not revoked) key with this token's digest: one read of the unique index. */
export async function findLiveApiKey(
  db: Queryable,
  tokenSha256: string,
): Promise<Pick<ApiKeyRow, 'id' | 'shop_id' | 'label'> | null> {
  const [row] = await db.query<Pick<ApiKeyRow, 'id' | 'shop_id' | 'label'>>(
    'SELECT id, shop_id, label FROM api_keys WHERE token_sha256 = $1 AND revoked_at IS NULL',
    [tokenSha256],
  )
  return row ?? null
}

/** Revokes the shop's key: its label, or null when the shop has no such key or it was revoked already. */
export async function revokeApiKey(
  db: Queryable,
  shopId: string,
  id: string,
  now: Date,
): Promise<{ label: string } | null> {
  const [row] = await db.query<{ label: string }>(
    'UPDATE api_keys SET revoked_at = $3 WHERE shop_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING label',
    [shopId, id, now],
  )
  return row ?? null
}

/** Notes a key's use, unless one was noted within the last `everyMs` (so a busy key writes rarely). */
export async function touchApiKey(db: Queryable, id: string, now: Date, everyMs: number): Promise<void> {
  await db.query(
    'UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $3)',
    [id, now, new Date(now.getTime() - everyMs)],
  )
}
