/**
 * The shop's store connection as staff set and see it (docs/back-office.md: Store connection,
 * decision 0075): set from the console, the staff CLI or the shop file; answered without its key.
 */
import type { ConnectionTest, SetStoreConnection, StoreConnectionView } from '../../../contract/staff'
import type { Database, Queryable } from '../storage/database'
import { testStoreConnection } from './engines'
import {
  connectionSealingKey,
  deleteStoreConnection,
  findStoreConnection,
  NoKeyGiven,
  openStoreConnection,
  saveStoreConnection,
  type StoreConnectionRow,
} from '../storage/storeConnections'
import { audit, changedFields, type Author } from './audit'
import { invalidRequest, notFound } from './refusal'

export function connectionView(row: StoreConnectionRow, keyReadable: boolean): StoreConnectionView {
  return {
    engine: row.engine,
    url: row.url,
    api_key_readable: keyReadable,
    sales_channel_id: row.extras.sales_channel_id,
    stock_location_id: row.extras.stock_location_id,
    region_id: row.extras.region_id,
    updated_at: row.updated_at.toISOString(),
    updated_by: row.updated_by,
    last_test: row.last_test,
  }
}

/** The shop's connection as staff see it, or null. */
export async function readConnection(
  source: { db: Queryable; secret: Buffer },
  shopId: string,
): Promise<StoreConnectionView | null> {
  const opened = await openStoreConnection(source.db, connectionSealingKey(source.secret), shopId)
  if (!opened) return null
  const { apiKey, ...row } = opened
  return connectionView(row, apiKey !== null)
}

/** What the audit log keeps of a connection: what staff set, never its key. */
const auditedFields = (row: StoreConnectionRow | null) =>
  row
    ? {
        engine: row.engine,
        url: row.url,
        sales_channel_id: row.extras.sales_channel_id,
        stock_location_id: row.extras.stock_location_id,
        region_id: row.extras.region_id,
      }
    : {}

/**
 * Sets the shop's connection; `api_key` left out keeps the key (refused when there is none yet).
 * Written to the audit log in the same transaction: what changed, and whether the key did (never
 * the key).
 */
export async function setConnection(
  source: { db: Database; secret: Buffer },
  shopId: string,
  body: SetStoreConnection,
  by: string,
  now: Date,
  author: Author,
): Promise<StoreConnectionView> {
  try {
    const row = await source.db.transaction(async (tx) => {
      const before = await findStoreConnection(tx, shopId)
      const saved = await saveStoreConnection(
        tx,
        connectionSealingKey(source.secret),
        shopId,
        {
          engine: body.engine,
          url: body.url,
          ...(body.api_key === undefined ? {} : { apiKey: body.api_key }),
          extras: {
            sales_channel_id: body.sales_channel_id,
            stock_location_id: body.stock_location_id,
            region_id: body.region_id ?? null,
          },
          updatedBy: by,
        },
        now,
      )
      const changes = changedFields(auditedFields(before), auditedFields(saved))
      await audit(tx, {
        shopId,
        at: now,
        ...author,
        kind: 'store_connection.set',
        subject: saved.engine,
        detail: { ...changes, key_changed: body.api_key !== undefined },
      })
      return saved
    })
    return connectionView(row, true)
  } catch (error) {
    if (error instanceof NoKeyGiven) throw invalidRequest(error.message)
    throw error
  }
}

const noneConnected = () => notFound('No store is connected.')

/** Tests the shop's connection (services/engines.ts), and writes what it found to the audit log; refused when no store is connected. */
export async function testConnection(
  source: { db: Queryable; secret: Buffer },
  shopId: string,
  now: () => Date,
  author: Author,
): Promise<ConnectionTest> {
  const test = await testStoreConnection(source, shopId, now)
  if (!test) throw noneConnected()
  await audit(source.db, {
    shopId,
    at: now(),
    ...author,
    kind: 'store_connection.tested',
    detail: { ok: test.ok },
  })
  return test
}

/** Removes the shop's connection: from then on refunds are recorded, not paid. Refused when there is none. */
export async function removeConnection(db: Database, shopId: string, now: Date, author: Author): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findStoreConnection(tx, shopId)
    if (!(await deleteStoreConnection(tx, shopId))) throw noneConnected()
    await audit(tx, {
      shopId,
      at: now,
      ...author,
      kind: 'store_connection.removed',
      detail: { before: auditedFields(before) },
    })
  })
}
