import type { Queryable } from './database'
import type { StoredPhoto } from '../domain/photos'

export interface NewPhoto {
  id: string
  orderId: string
  contentType: string
  size: number
  /** the bytes, or null when the photo store keeps them outside the row (PhotoStore) */
  bytes: Uint8Array | null
}

/**
 * Deletes the order's uploads no return took before `before`, then counts those left. Answers the
 * deleted ids too: their bytes go from the photo store once the deletion is committed.
 */
export async function pruneUnattachedPhotos(
  db: Queryable,
  orderId: string,
  before: Date,
): Promise<{ deleted: string[]; waiting: number }> {
  const deleted = await db.query<{ id: string }>(
    'DELETE FROM photos WHERE order_id = $1 AND return_id IS NULL AND created_at < $2 RETURNING id',
    [orderId, before],
  )
  const [row] = await db.query<{ n: number }>(
    'SELECT COUNT(*)::int AS n FROM photos WHERE order_id = $1 AND return_id IS NULL',
    [orderId],
  )
  return { deleted: deleted.map((photo) => photo.id), waiting: Number(row?.n ?? 0) }
}

export async function insertPhoto(db: Queryable, photo: NewPhoto, now: Date): Promise<void> {
  await db.query(
    'INSERT INTO photos (id, order_id, content_type, size, bytes, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [photo.id, photo.orderId, photo.contentType, photo.size, photo.bytes, now],
  )
}

/** The order's photos among `ids` (another order's are not found). */
export async function findOrderPhotos(
  db: Queryable,
  orderId: string,
  ids: readonly string[],
): Promise<Map<string, StoredPhoto>> {
  if (ids.length === 0) return new Map()
  const rows = await db.query<StoredPhoto>(
    'SELECT id, return_id FROM photos WHERE order_id = $1 AND id = ANY($2::text[])',
    [orderId, [...ids]],
  )
  return new Map(rows.map((row) => [row.id, row]))
}

/**
 * The photo's row, for the order's own preview; null when it is not this order's. `in_row` is
 * how many bytes the row holds, null when the photo store keeps them elsewhere: PhotoStore.read
 * finds them either way.
 */
export async function findPhoto(
  db: Queryable,
  orderId: string,
  id: string,
): Promise<{ content_type: string; in_row: number | null } | null> {
  const [row] = await db.query<{ content_type: string; in_row: number | null }>(
    'SELECT content_type, octet_length(bytes) AS in_row FROM photos WHERE order_id = $1 AND id = $2',
    [orderId, id],
  )
  return row ?? null
}

/** What one query reads of a photo's bytes in its row. */
const SLICE_BYTES = 256 * 1024

/**
 * The `length` bytes held in the photo's row, a slice per query; null when the row is gone. In one
 * piece, a photo of megabytes reaches Node as twice as many characters of hex, decoded on the main
 * thread in one go: 30 to 45 ms during which no other request is answered.
 */
export async function readBytesFromRow(db: Queryable, id: string, length: number): Promise<Buffer | null> {
  const parts: Uint8Array[] = []
  for (let from = 0; from < length; from += SLICE_BYTES) {
    const [row] = await db.query<{ part: Uint8Array }>(
      'SELECT substring(bytes FROM $2 FOR $3) AS part FROM photos WHERE id = $1',
      [id, from + 1, SLICE_BYTES],
    )
    if (!row) return null
    parts.push(row.part)
  }
  return Buffer.concat(parts)
}

/** A submitted return takes its items' photos (under the order's lock, so never twice). */
export async function attachPhotos(
  db: Queryable,
  orderId: string,
  returnId: string,
  items: readonly { lineItemId: string; photoIds: readonly string[] }[],
): Promise<void> {
  for (const item of items) {
    if (item.photoIds.length === 0) continue
    await db.query(
      'UPDATE photos SET return_id = $1, line_item_id = $2 WHERE order_id = $3 AND return_id IS NULL AND id = ANY($4::text[])',
      [returnId, item.lineItemId, orderId, [...item.photoIds]],
    )
  }
}

/** The order's uploads no return has taken, from `since` on (older ones go at the next upload). */
export async function countWaitingPhotos(db: Queryable, orderId: string, since: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT COUNT(*)::int AS n FROM photos WHERE order_id = $1 AND return_id IS NULL AND created_at >= $2',
    [orderId, since],
  )
  return Number(row?.n ?? 0)
}
