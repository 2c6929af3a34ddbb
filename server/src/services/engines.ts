/**
 * The shop's store connection on the server side (decision 0075): `engineFor` gives a ready
 * client for the shop's commerce engine, or null when none is connected (or its key does not
 * open); `testStoreConnection` says what works and what does not, one check a line. The key is
 * opened here, for the client alone, and never answered or logged.
 */
import type { ConnectionCheckLine, ConnectionTest } from '../../../contract/staff'
import type { Queryable } from '../storage/database'
import {
  connectionSealingKey,
  openStoreConnection,
  recordConnectionTest,
  type StoreConnectionRow,
} from '../storage/storeConnections'
import type { EngineDirectory } from '../commerce/engine'
import { medusaClient, type ConnectionCheck, type MedusaClient } from '../commerce/medusa'
import { medusaEngine } from '../commerce/medusaEngine'

/** What opens a connection: the database and the server secret (the context's `secret`). */
export interface ConnectionSource {
  db: Queryable
  secret: Buffer
}

export interface ShopEngine {
  engine: 'medusa'
  client: MedusaClient
  connection: StoreConnectionRow
}

const clientOf = (connection: StoreConnectionRow, apiKey: string, timeoutMs?: number): MedusaClient =>
  medusaClient({
    url: connection.url,
    secretApiKey: apiKey,
    salesChannelId: connection.extras.sales_channel_id,
    stockLocationId: connection.extras.stock_location_id,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  })

/**
 * The shop's engine client, ready to call, or null: no store connected, or its key sealed under
 * another server secret (staff must enter it again; the store connection page says so).
 */
export async function engineFor(
  source: ConnectionSource,
  shopId: string,
  options: { timeoutMs?: number } = {},
): Promise<ShopEngine | null> {
  const opened = await openStoreConnection(source.db, connectionSealingKey(source.secret), shopId)
  if (!opened || opened.apiKey === null) return null
  const { apiKey, ...connection } = opened
  return { engine: opened.engine, client: clientOf(connection, apiKey, options.timeoutMs), connection }
}

/**
 * Each shop's commerce engine from its stored connection (docs/commerce.md): the delivery loop
 * carries engine actions out through it. Read at each action, so a connection changed in the
 * console holds from the next one.
 */
export function storedEngines(source: ConnectionSource): EngineDirectory {
  return {
    async forShop(shopId) {
      const found = await engineFor(source, shopId)
      return found ? medusaEngine(found.client) : null
    },
  }
}

/** Medusa's check as the console's lines: each check ok, or what is wrong, or not checked. */
export function checkLines(check: ConnectionCheck): ConnectionCheckLine[] {
  const failure = check.failure
  let address: ConnectionCheckLine['outcome']
  let key: ConnectionCheckLine['outcome'] = 'not_checked'
  if (!check.reachable) address = failure?.kind === 'timeout' ? 'timeout' : 'unreachable'
  else if (check.keyAccepted) {
    address = 'ok'
    key = 'ok'
  } else if (failure?.status === 401 || failure?.status === 403) {
    address = 'ok'
    key = 'refused'
  } else if (failure?.kind === 'timeout') address = 'timeout'
  else address = failure?.kind === 'failed' ? 'failed' : 'not_engine'
  // A named id's check that ended in an error (not a 404) is `failed`; one never reached is not checked.
  const found = (value: boolean | null, reached: boolean): ConnectionCheckLine['outcome'] =>
    value === true ? 'ok' : value === false ? 'not_found' : reached && check.error ? 'failed' : 'not_checked'
  const salesChannel = found(check.salesChannelFound, check.keyAccepted)
  const stockLocation = found(check.stockLocationFound, check.keyAccepted && check.salesChannelFound !== null)
  return [
    { check: 'address', outcome: address },
    { check: 'key', outcome: key },
    { check: 'sales_channel', outcome: salesChannel },
    { check: 'stock_location', outcome: stockLocation },
  ]
}

/**
 * Tests the shop's connection against its engine and keeps the result with it (unless it was
 * changed meanwhile); null when no store is connected. Each call is bounded by `timeoutMs`.
 */
export async function testStoreConnection(
  source: ConnectionSource,
  shopId: string,
  now: () => Date,
  options: { timeoutMs?: number } = {},
): Promise<ConnectionTest | null> {
  const opened = await openStoreConnection(source.db, connectionSealingKey(source.secret), shopId)
  if (!opened) return null
  const { apiKey, ...connection } = opened
  let checks: ConnectionCheckLine[]
  if (apiKey === null)
    checks = [
      { check: 'address', outcome: 'not_checked' },
      { check: 'key', outcome: 'unreadable' },
      { check: 'sales_channel', outcome: 'not_checked' },
      { check: 'stock_location', outcome: 'not_checked' },
    ]
  else checks = checkLines(await clientOf(connection, apiKey, options.timeoutMs).testConnection())
  const test: ConnectionTest = {
    ok: checks.every((line) => line.outcome === 'ok'),
    checks,
    at: now().toISOString(),
  }
  await recordConnectionTest(source.db, shopId, test, connection.updated_at)
  return test
}
