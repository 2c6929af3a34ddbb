/**
 * The shop's store connection as staff set and see it (docs/back-office.md: Store connection,
 * decision 0075): set from the console, the staff CLI or the shop file; answered without its key.
 */
import type { ConnectionTest, SetStoreConnection, StoreConnectionView } from '../../../contract/staff'
import type { Queryable } from '../storage/database'
import { testStoreConnection } from './engines'
import {
  connectionSealingKey,
  deleteStoreConnection,
  NoKeyGiven,
  openStoreConnection,
  saveStoreConnection,
  type StoreConnectionRow,
} from '../storage/storeConnections'
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

/** Sets the shop's connection; `api_key` left out keeps the key (refused when there is none yet). */
export async function setConnection(
  source: { db: Queryable; secret: Buffer },
  shopId: string,
  body: SetStoreConnection,
  by: string,
  now: Date,
): Promise<StoreConnectionView> {
  try {
    const row = await saveStoreConnection(
      source.db,
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
    return connectionView(row, true)
  } catch (error) {
    if (error instanceof NoKeyGiven) throw invalidRequest(error.message)
    throw error
  }
}

const noneConnected = () => notFound('No store is connected.')

/** Tests the shop's connection (services/engines.ts); refused when no store is connected. */
export async function testConnection(
  source: { db: Queryable; secret: Buffer },
  shopId: string,
  now: () => Date,
): Promise<ConnectionTest> {
  const test = await testStoreConnection(source, shopId, now)
  if (!test) throw noneConnected()
  return test
}

/** Removes the shop's connection: from then on refunds are recorded, not paid. Refused when there is none. */
export async function removeConnection(db: Queryable, shopId: string): Promise<void> {
  if (!(await deleteStoreConnection(db, shopId))) throw noneConnected()
}
