import type { ShopPolicy } from '../../../contract/policy'
import type { Shop } from '../domain/shop'
import type { Queryable } from './database'

/** A shop as stored: its file without the orders. */
export type ShopRecord = Shop

const COLUMNS =
  'id, currency_code, settings, config, config_variants, return_reasons, return_reason_variants, return_address, catalogue, email, policy'

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
    const [row] = await this.db.query<ShopRecord>(`SELECT ${COLUMNS} FROM shops WHERE id = $1`, [id])
    const shop = row ?? null
    if (this.cache.size > 1_000) this.cache.clear()
    this.cache.set(id, { shop, until: Date.now() + this.ttlMs })
    return shop
  }

  /** Forgets cached shops, after an import or a policy saved in this process. */
  forget(): void {
    this.cache.clear()
  }
}

/** Replaces the shop's policy (the back office's editor); false when there is no such shop. */
export async function savePolicy(db: Queryable, shopId: string, policy: ShopPolicy): Promise<boolean> {
  const rows = await db.query<{ id: string }>('UPDATE shops SET policy = $2 WHERE id = $1 RETURNING id', [
    shopId,
    JSON.stringify(policy),
  ])
  return rows.length > 0
}

/** Replaces the shop whole (the import, docs/decisions/0015-import-replaces-shop.md): its orders go with it. */
export async function replaceShop(tx: Queryable, shop: ShopRecord): Promise<void> {
  await tx.query('DELETE FROM shops WHERE id = $1', [shop.id])
  await tx.query(
    `INSERT INTO shops (id, currency_code, settings, config, config_variants, return_reasons, return_reason_variants, return_address, catalogue, email, policy)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      shop.id,
      shop.currency_code,
      JSON.stringify(shop.settings),
      JSON.stringify(shop.config),
      JSON.stringify(shop.config_variants),
      JSON.stringify(shop.return_reasons),
      JSON.stringify(shop.return_reason_variants),
      JSON.stringify(shop.return_address),
      JSON.stringify(shop.catalogue),
      shop.email ? JSON.stringify(shop.email) : null,
      JSON.stringify(shop.policy),
    ],
  )
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
