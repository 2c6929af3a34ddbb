/**
 * A shop's catalogue written a product or a stock list at a time (the Orders API, docs/api.md),
 * and what holds its variants: the orders' lines and the returns' exchanges.
 */
import type { CatalogueProduct } from '../domain/shop'
import type { Queryable } from './database'

/** Of `ids`, those that are variants of the shop's catalogue. */
export async function catalogueVariantIds(tx: Queryable, shopId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await tx.query<{ id: string }>(
    `SELECT DISTINCT v.variant ->> 'id' AS id
       FROM shops s,
            jsonb_array_elements(s.catalogue) AS p (product),
            jsonb_array_elements(p.product -> 'variants') AS v (variant)
      WHERE s.id = $1 AND v.variant ->> 'id' = ANY($2::text[])`,
    [shopId, [...new Set(ids)]],
  )
  return new Set(rows.map((row) => row.id))
}

/** The shop's catalogue and currency, its row locked until the transaction ends; null when there is no shop. */
export async function lockShopCatalogue(
  tx: Queryable,
  shopId: string,
): Promise<{ currency_code: string; catalogue: CatalogueProduct[] } | null> {
  const [row] = await tx.query<{ currency_code: string; catalogue: CatalogueProduct[] }>(
    'SELECT currency_code, catalogue FROM shops WHERE id = $1 FOR UPDATE',
    [shopId],
  )
  return row ?? null
}

/** Writes the shop's catalogue. */
export async function replaceCatalogue(tx: Queryable, shopId: string, catalogue: CatalogueProduct[]): Promise<void> {
  await tx.query('UPDATE shops SET catalogue = $2 WHERE id = $1', [shopId, JSON.stringify(catalogue)])
}

/** Something of the shop that names a variant: a line of an order (its variant, or the variant it was exchanged from), or a return's exchange. */
export interface VariantUse {
  variant_id: string
  /** the order, or the return, that names it */
  held_by: string
  line_item_id: string
  kind: 'line' | 'exchanged_from' | 'exchange'
}

/** What names each of `ids` among the shop's orders and returns (at most `limit` in all). */
export async function variantUses(
  tx: Queryable,
  shopId: string,
  ids: readonly string[],
  limit = 100,
): Promise<VariantUse[]> {
  if (ids.length === 0) return []
  return tx.query<VariantUse>(
    `SELECT l.line ->> 'variant_id' AS variant_id, o.name AS held_by, l.line ->> 'id' AS line_item_id, 'line' AS kind
       FROM orders o, jsonb_array_elements(o.line_items) AS l (line)
      WHERE o.shop_id = $1 AND l.line ->> 'variant_id' = ANY($2::text[])
     UNION ALL
     SELECT l.line ->> 'exchange_variant_id', o.name, l.line ->> 'id', 'exchanged_from'
       FROM orders o, jsonb_array_elements(o.line_items) AS l (line)
      WHERE o.shop_id = $1 AND l.line ->> 'exchange_variant_id' = ANY($2::text[])
     UNION ALL
     SELECT i.exchange_variant_id, r.name, i.line_item_id, 'exchange'
       FROM return_items i JOIN returns r ON r.id = i.return_id JOIN orders o ON o.id = i.order_id
      WHERE o.shop_id = $1 AND i.exchange_variant_id = ANY($2::text[])
      LIMIT $3`,
    [shopId, [...ids], limit],
  )
}
