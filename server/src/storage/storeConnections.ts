/**
 * The shop's store connection (decision 0075): its commerce engine, address, extras and secret
 * key, one a shop. The key is stored sealed (storage/sealed.ts), bound to the shop's id, and leaves
 * storage in clear only through `openStoreConnection`, for the server-side engine client
 * (services/engines.ts). Not tied to the shops table by a foreign key: deleting a shop deletes
 * it (storage/shops.ts deleteShop).
 */
import type { CommerceEngine, ConnectionTest } from '../../../contract/staff'
import type { Queryable } from './database'
import { seal, sealingKey, SealBroken, unseal, type SealingKey } from './sealed'

/** The key that seals engines' secret keys, derived from the server secret for this purpose alone. */
export const connectionSealingKey = (serverSecret: Buffer): SealingKey =>
  sealingKey(serverSecret, 'store connection key')

export interface ConnectionExtras {
  sales_channel_id: string
  stock_location_id: string
  region_id: string | null
}

/** What storage answers of a connection: never its key. */
export interface StoreConnectionRow {
  shop_id: string
  engine: CommerceEngine
  url: string
  extras: ConnectionExtras
  updated_at: Date
  updated_by: string
  last_test: ConnectionTest | null
}

/** The connection to set; `apiKey` undefined keeps the key stored before. */
export interface NewStoreConnection {
  engine: CommerceEngine
  url: string
  apiKey?: string
  extras: ConnectionExtras
  /** a staff member's e-mail, `cli`, or `shop file` */
  updatedBy: string
}

interface Row {
  shop_id: string
  engine: CommerceEngine
  url: string
  api_key_sealed: string
  extras: Partial<ConnectionExtras>
  updated_at: Date
  updated_by: string
  tested_at: Date | null
  test_ok: boolean | null
  test_checks: ConnectionTest['checks'] | null
}

const toConnection = (row: Row): StoreConnectionRow => ({
  shop_id: row.shop_id,
  engine: row.engine,
  url: row.url,
  extras: {
    sales_channel_id: row.extras.sales_channel_id ?? '',
    stock_location_id: row.extras.stock_location_id ?? '',
    region_id: row.extras.region_id ?? null,
  },
  updated_at: new Date(row.updated_at),
  updated_by: row.updated_by,
  last_test:
    row.tested_at && row.test_ok !== null
      ? { ok: row.test_ok, checks: row.test_checks ?? [], at: new Date(row.tested_at).toISOString() }
      : null,
})

export class NoKeyGiven extends Error {
  override name = 'NoKeyGiven'
  constructor() {
    super('api_key: required to connect a store')
  }
}

/**
 * Sets the shop's connection. A new key is sealed; without one, the stored key stays (and a shop
 * without a connection yet is refused with `NoKeyGiven`). A change forgets the last test: it
 * tested what was there before.
 */
export async function saveStoreConnection(
  db: Queryable,
  key: SealingKey,
  shopId: string,
  connection: NewStoreConnection,
  now: Date,
): Promise<StoreConnectionRow> {
  const sealed = connection.apiKey === undefined ? null : seal(key, connection.apiKey, shopId)
  const extras = JSON.stringify(connection.extras)
  const rows =
    sealed === null
      ? await db.query<Row>(
          `UPDATE store_connections
              SET engine = $2, url = $3, extras = $4, updated_at = $5, updated_by = $6,
                  tested_at = NULL, test_ok = NULL, test_checks = NULL
            WHERE shop_id = $1 RETURNING *`,
          [shopId, connection.engine, connection.url, extras, now, connection.updatedBy],
        )
      : await db.query<Row>(
          `INSERT INTO store_connections (shop_id, engine, url, api_key_sealed, extras, updated_at, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (shop_id) DO UPDATE
              SET engine = $2, url = $3, api_key_sealed = $4, extras = $5, updated_at = $6, updated_by = $7,
                  tested_at = NULL, test_ok = NULL, test_checks = NULL
           RETURNING *`,
          [shopId, connection.engine, connection.url, sealed, extras, now, connection.updatedBy],
        )
  const [row] = rows
  if (!row) throw new NoKeyGiven()
  return toConnection(row)
}

/** The shop's connection without its key, or null. */
export async function findStoreConnection(db: Queryable, shopId: string): Promise<StoreConnectionRow | null> {
  const [row] = await db.query<Row>('SELECT * FROM store_connections WHERE shop_id = $1', [shopId])
  return row ? toConnection(row) : null
}

/** The connection with its key in clear, for the engine client alone; `apiKey` null when it does not open. */
export async function openStoreConnection(
  db: Queryable,
  key: SealingKey,
  shopId: string,
): Promise<(StoreConnectionRow & { apiKey: string | null }) | null> {
  const [row] = await db.query<Row>('SELECT * FROM store_connections WHERE shop_id = $1', [shopId])
  if (!row) return null
  let apiKey: string | null
  try {
    apiKey = unseal(key, row.api_key_sealed, shopId)
  } catch (error) {
    if (!(error instanceof SealBroken)) throw error
    apiKey = null
  }
  return { ...toConnection(row), apiKey }
}

/** Whether the stored key opens with this key (false too when there is no connection). */
export async function storeConnectionKeyReadable(db: Queryable, key: SealingKey, shopId: string): Promise<boolean> {
  return (await openStoreConnection(db, key, shopId))?.apiKey != null
}

/** Keeps a test's result, unless the connection changed since it began (then it tested the old one). */
export async function recordConnectionTest(
  db: Queryable,
  shopId: string,
  test: ConnectionTest,
  testedVersion: Date,
): Promise<void> {
  await db.query(
    `UPDATE store_connections SET tested_at = $2, test_ok = $3, test_checks = $4
      WHERE shop_id = $1 AND updated_at = $5`,
    [shopId, new Date(test.at), test.ok, JSON.stringify(test.checks), testedVersion],
  )
}

/** Removes the shop's connection; false when it had none. */
export async function deleteStoreConnection(db: Queryable, shopId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM store_connections WHERE shop_id = $1 RETURNING shop_id', [shopId])
  return rows.length > 0
}
