/**
 * The shop file's `commerce` section (docs/shop-file.md, decision 0075): given, it sets the shop's
 * store connection, its key sealed; absent, the connection set in the back office stays.
 */
import type { Queryable } from '../storage/database'
import { connectionSealingKey, saveStoreConnection } from '../storage/storeConnections'
import type { CommerceFile } from './shopFile'

/** Who a connection from a shop file was set by, as the back office shows it. */
export const SET_BY_SHOP_FILE = 'shop file'

export async function importConnection(
  tx: Queryable,
  secret: Buffer | undefined,
  shopId: string,
  commerce: CommerceFile,
  now: Date,
): Promise<void> {
  // Every caller passes the server secret: without it, the key could not be sealed.
  if (!secret) throw new Error('importShop: a shop file with `commerce` needs the server secret')
  await saveStoreConnection(
    tx,
    connectionSealingKey(secret),
    shopId,
    {
      engine: commerce.engine,
      url: commerce.url,
      apiKey: commerce.api_key,
      extras: {
        sales_channel_id: commerce.sales_channel_id,
        stock_location_id: commerce.stock_location_id,
        region_id: commerce.region_id ?? null,
      },
      updatedBy: SET_BY_SHOP_FILE,
    },
    now,
  )
}
