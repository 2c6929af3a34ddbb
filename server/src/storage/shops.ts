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

