import type { Queryable } from './database'
import type { StoredPhoto } from '../domain/photos'

export interface NewPhoto {
  id: string
  orderId: string
  contentType: string
  bytes: Uint8Array
}

/** Deletes the order's uploads no return took before `before`, then counts those left. */
export async function pruneUnattachedPhotos(db: Queryable, orderId: string, before: Date): Promise<number> {
  await db.query('DELETE FROM photos WHERE order_id = $1 AND return_id IS NULL AND created_at < $2', [orderId, before])
  const [row] = await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM photos WHERE order_id = $1 AND return_id IS NULL', [orderId])
  return Number(row?.n ?? 0)
}

export async function insertPhoto(db: Queryable, photo: NewPhoto, now: Date): Promise<void> {
  await db.query('INSERT INTO photos (id, order_id, content_type, size, bytes, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    photo.id,
    photo.orderId,
    photo.contentType,
    photo.bytes.byteLength,
    photo.bytes,
    now,
  ])
}

/** The order's photos among `ids` (another order's are not found). */
export async function findOrderPhotos(db: Queryable, orderId: string, ids: readonly string[]): Promise<Map<string, StoredPhoto>> {
  if (ids.length === 0) return new Map()
  const rows = await db.query<StoredPhoto>('SELECT id, return_id FROM photos WHERE order_id = $1 AND id = ANY($2::text[])', [orderId, [...ids]])
  return new Map(rows.map((row) => [row.id, row]))
}

/** The photo's bytes, for the order's own preview; null when it is not this order's. */
export async function readPhoto(db: Queryable, orderId: string, id: string): Promise<{ content_type: string; bytes: Uint8Array } | null> {
  const [row] = await db.query<{ content_type: string; bytes: Uint8Array }>('SELECT content_type, bytes FROM photos WHERE order_id = $1 AND id = $2', [orderId, id])
  return row ?? null
}

/** A submitted return takes its items' photos (under the order's lock, so never twice). */
export async function attachPhotos(db: Queryable, orderId: string, returnId: string, items: readonly { lineItemId: string; photoIds: readonly string[] }[]): Promise<void> {
  for (const item of items) {
    if (item.photoIds.length === 0) continue
    await db.query('UPDATE photos SET return_id = $1, line_item_id = $2 WHERE order_id = $3 AND return_id IS NULL AND id = ANY($4::text[])', [
      returnId,
      item.lineItemId,
      orderId,
      [...item.photoIds],
    ])
  }
}
