/**
 * A shop's webhook endpoints (docs/events.md): from its shop file, or added in the back office.
 * Not tied to the shops table by a foreign key: deleting a shop deletes them itself (storage/shops.ts deleteShop).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { WebhookEvent } from '../domain/events'
import type { Queryable } from './database'

export interface WebhookEndpoint {
  id: string
  shop_id: string
  url: string
  secret: string
  events: WebhookEvent[]
  created_at: Date
  /** when the deliveries began to fail, every one since; null while the last one succeeded */
  failing_since: Date | null
  disabled_at: Date | null
}

const COLUMNS = 'id, shop_id, url, secret, events, created_at, failing_since, disabled_at'

/** A new signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`

export async function listEndpoints(db: Queryable, shopId: string): Promise<WebhookEndpoint[]> {
  return db.query<WebhookEndpoint>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE shop_id = $1 ORDER BY created_at, id`,
    [shopId],
  )
}

export async function enabledEndpoints(db: Queryable, shopId: string): Promise<WebhookEndpoint[]> {
  return (await listEndpoints(db, shopId)).filter((endpoint) => endpoint.disabled_at === null)
}

export async function findEndpoint(db: Queryable, id: string): Promise<WebhookEndpoint | null> {
  const [row] = await db.query<WebhookEndpoint>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id])
  return row ?? null
}

export interface NewEndpoint {
  url: string
  secret: string
  events: readonly WebhookEvent[]
}

export async function addEndpoint(db: Queryable, shopId: string, entry: NewEndpoint, now: Date) {
  const id = `ep_${randomUUID().replaceAll('-', '').slice(0, 20)}`
  await db.query(
    'INSERT INTO webhook_endpoints (id, shop_id, url, secret, events, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, shopId, entry.url, entry.secret, JSON.stringify(entry.events), now],
  )
  return (await findEndpoint(db, id))!
}

/** The shop file's endpoints replace the shop's (in the import's transaction). */
export async function replaceEndpoints(tx: Queryable, shopId: string, entries: NewEndpoint[], now: Date) {
  await removePendingOf(tx, `SELECT id FROM webhook_endpoints WHERE shop_id = $1`, [shopId])
  await tx.query('DELETE FROM webhook_endpoints WHERE shop_id = $1', [shopId])
  for (const entry of entries) await addEndpoint(tx, shopId, entry, now)
}

/** Removes an endpoint; what was still to be sent to it is marked failed. */
export async function removeEndpoint(db: Queryable, shopId: string, id: string): Promise<boolean> {
  await removePendingOf(db, 'SELECT id FROM webhook_endpoints WHERE shop_id = $1 AND id = $2', [shopId, id])
  const removed = await db.query('DELETE FROM webhook_endpoints WHERE shop_id = $1 AND id = $2 RETURNING id', [
    shopId,
    id,
  ])
  return removed.length > 0
}

async function removePendingOf(tx: Queryable, endpoints: string, params: unknown[]) {
  await tx.query(
    `UPDATE outbox SET state = 'failed', last_error = 'The endpoint was removed.', locked_until = NULL
      WHERE state = 'pending' AND target IN (${endpoints})`,
    params,
  )
}

/** Disables or enables an endpoint; enabled again, it starts with a clean record. */
export async function setEndpointEnabled(db: Queryable, shopId: string, id: string, enabled: boolean, now: Date) {
  const rows = await db.query(
    `UPDATE webhook_endpoints SET disabled_at = $3, failing_since = NULL WHERE shop_id = $1 AND id = $2 RETURNING id`,
    [shopId, id, enabled ? null : now],
  )
  return rows.length > 0
}

/**
 * Keeps an endpoint's record after a delivery: a success clears it; a failure starts it, and an
 * endpoint failing for `disableAfterMs` is disabled (the back office says so).
 */
export async function recordEndpointOutcome(
  db: Queryable,
  id: string,
  ok: boolean,
  at: Date,
  disableAfterMs: number,
): Promise<void> {
  if (ok) {
    await db.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [
      id,
    ])
    return
  }
  await db.query(
    `UPDATE webhook_endpoints
        SET failing_since = COALESCE(failing_since, $2),
            disabled_at = CASE WHEN failing_since IS NOT NULL AND failing_since <= $3 THEN $2 ELSE disabled_at END
      WHERE id = $1`,
    [id, at, new Date(at.getTime() - disableAfterMs)],
  )
}
