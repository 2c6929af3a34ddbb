import type { ShopPolicy } from '../../../contract/policy'
import { reviewOverMinor } from '../domain/policy'
import type { Shop, ShopSettings, ShopSettingsFile } from '../domain/shop'
import { settingsAsFile, settingsInMinor } from '../domain/shopMoney'
import type { Queryable } from './database'

/** A shop as stored: its file without the orders. */
export type ShopRecord = Shop

/** A shop's row: the shop as its file gives it, amounts as decimal strings. */
type ShopRow = Omit<Shop, 'review_over_minor' | 'settings'> & { settings: ShopSettingsFile }

const COLUMNS =
  'id, currency_code, settings, config, config_variants, return_reasons, return_reason_variants, return_address, catalogue, email, policy'

/**
 * The shop as the rules read it, from its row: its money read here, once per row read
 * (docs/decisions/0096-orders-settings-minor.md).
 */
function shopOf(row: ShopRow): ShopRecord {
  return {
    ...row,
    settings: settingsInMinor(row.settings, row.currency_code),
    review_over_minor: reviewOverMinor(row.policy, row.currency_code),
  }
}

/**
 * Shops read through a short cache: every verify and quote needs its shop, and a shop changes
 * only on import or a policy saved in the back office. Replicas see either within `ttlMs`.
 */
export class ShopRepository {
  private readonly cache = new Map<string, { shop: ShopRecord | null; until: number }>()

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 5_000,
  ) {}

  async find(id: string): Promise<ShopRecord | null> {
    const hit = this.cache.get(id)
    if (hit && hit.until > Date.now()) return hit.shop
    const [row] = await this.db.query<ShopRow>(`SELECT ${COLUMNS} FROM shops WHERE id = $1`, [id])
    const shop = row ? shopOf(row) : null
    if (this.cache.size > 1_000) this.cache.clear()
    this.cache.set(id, { shop, until: Date.now() + this.ttlMs })
    return shop
  }

  /** Forgets cached shops, after an import or a policy saved in this process. */
  forget(): void {
    this.cache.clear()
  }
}

/** Replaces the shop's policy (the back office's editor): the one it replaced, or null when there is no such shop. */
export async function savePolicy(db: Queryable, shopId: string, policy: ShopPolicy): Promise<ShopPolicy | null> {
  // The row locked as it is read: `before` is the policy this save replaced, whoever saved it last.
  const rows = await db.query<{ before: ShopPolicy }>(
    `UPDATE shops s SET policy = $2
       FROM (SELECT id, policy FROM shops WHERE id = $1 FOR UPDATE) old
      WHERE s.id = old.id RETURNING old.policy AS before`,
    [shopId, JSON.stringify(policy)],
  )
  return rows[0] ? rows[0].before : null
}

/**
 * Writes the shop's own fields, creating it or updating it in place: its orders, returns and
 * endpoints stay (docs/decisions/0072-import-keeps-returns.md).
 */
export async function upsertShop(tx: Queryable, shop: ShopRecord, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO shops (id, currency_code, settings, config, config_variants, return_reasons, return_reason_variants, return_address, catalogue, email, policy, imported_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (id) DO UPDATE SET currency_code = EXCLUDED.currency_code, settings = EXCLUDED.settings,
       config = EXCLUDED.config, config_variants = EXCLUDED.config_variants, return_reasons = EXCLUDED.return_reasons,
       return_reason_variants = EXCLUDED.return_reason_variants, return_address = EXCLUDED.return_address,
       catalogue = EXCLUDED.catalogue, email = EXCLUDED.email, policy = EXCLUDED.policy, imported_at = EXCLUDED.imported_at`,
    [
      shop.id,
      shop.currency_code,
      JSON.stringify(settingsAsFile(shop.settings, shop.currency_code)),
      JSON.stringify(shop.config),
      JSON.stringify(shop.config_variants),
      JSON.stringify(shop.return_reasons),
      JSON.stringify(shop.return_reason_variants),
      JSON.stringify(shop.return_address),
      JSON.stringify(shop.catalogue),
      shop.email ? JSON.stringify(shop.email) : null,
      JSON.stringify(shop.policy),
      now,
    ],
  )
}

/**
 * The shop's currency and whether its prices include tax (what its returns were priced in), its
 * row locked until the transaction ends; null for a shop not stored yet. An import takes it before
 * its orders, as the Orders API's calls do (lockShopForOrder), so neither waits for the other in
 * the other order.
 */
export async function lockShopPricing(
  tx: Queryable,
  shopId: string,
): Promise<{ currency_code: string; prices_include_tax: boolean } | null> {
  const [row] = await tx.query<{ currency_code: string; prices_include_tax: boolean }>(
    `SELECT currency_code, (settings ->> 'prices_include_tax')::boolean AS prices_include_tax
       FROM shops WHERE id = $1 FOR UPDATE`,
    [shopId],
  )
  return row ?? null
}

/** What an order of the shop is checked and priced with (the Orders API). */
export interface ShopForOrder {
  currency_code: string
  settings: Pick<ShopSettings, 'prices_include_tax'>
  order_prefix: string | null
}

/**
 * The shop's currency, tax rule and order prefix, its row locked for share until the transaction
 * ends: orders may be written beside each other, but not while an import or a catalogue change
 * holds the shop (the variants an order names stay in the catalogue). Null when there is no shop.
 */
export async function lockShopForOrder(tx: Queryable, shopId: string): Promise<ShopForOrder | null> {
  const [row] = await tx.query<{ currency_code: string; prices_include_tax: boolean; order_prefix: string | null }>(
    `SELECT currency_code, (settings ->> 'prices_include_tax')::boolean AS prices_include_tax,
            config ->> 'order_prefix' AS order_prefix
       FROM shops WHERE id = $1 FOR SHARE`,
    [shopId],
  )
  if (!row) return null
  return {
    currency_code: row.currency_code,
    settings: { prices_include_tax: row.prices_include_tax },
    order_prefix: row.order_prefix,
  }
}

/**
 * Deletes the shop and everything of it: orders, returns and what hangs on them (a cascade), its
 * support references, its e-mails and webhooks still to send, its webhook endpoints and its API keys. Staff
 * keep their access to its id. False when there is no such shop.
 */
export async function deleteShop(tx: Queryable, shopId: string): Promise<boolean> {
  const deleted = await tx.query<{ id: string }>('DELETE FROM shops WHERE id = $1 RETURNING id', [shopId])
  if (deleted.length === 0) return false
  for (const table of ['outbox', 'support_references', 'webhook_endpoints', 'api_keys', 'store_connections'])
    await tx.query(`DELETE FROM ${table} WHERE shop_id = $1`, [shopId])
  return true
}

/** The policy the shop has now; `{}` for a shop not stored yet. */
export async function findShopPolicy(db: Queryable, shopId: string): Promise<ShopPolicy> {
  const [row] = await db.query<{ policy: ShopPolicy }>('SELECT policy FROM shops WHERE id = $1', [shopId])
  return row?.policy ?? {}
}

/** Whether any shop is stored (the demo shops are loaded on a database without any). */
export async function hasShops(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ count: number }>('SELECT COUNT(*)::int AS count FROM shops')
  return Number(row?.count) > 0
}
