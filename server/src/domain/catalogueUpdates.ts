/**
 * A shop's catalogue changed one product or one stock list at a time (the Orders API, docs/api.md),
 * rather than replaced whole by a shop file: pure functions from the catalogue to the next one.
 */
import { sameJson } from './sameJson'
import type { CatalogueProduct } from './shop'

/** The catalogue with `product` in place of the one of its id (or added at the end), and what that changes. */
export function withProduct(
  catalogue: readonly CatalogueProduct[],
  product: CatalogueProduct,
): {
  catalogue: CatalogueProduct[]
  created: boolean
  /** the same product as stored: nothing to write */
  unchanged: boolean
  /** the stored product's variants the new one no longer has */
  removedVariantIds: string[]
} {
  const at = catalogue.findIndex((candidate) => candidate.id === product.id)
  if (at < 0) return { catalogue: [...catalogue, product], created: true, unchanged: false, removedVariantIds: [] }
  const before = catalogue[at]!
  const kept = new Set(product.variants.map((variant) => variant.id))
  return {
    catalogue: catalogue.map((candidate, i) => (i === at ? product : candidate)),
    created: false,
    unchanged: sameJson(before, product),
    removedVariantIds: before.variants.map((variant) => variant.id).filter((variantId) => !kept.has(variantId)),
  }
}

/** A variant's stock as a platform sends it: on sale or not (decision 0050: a flag, not a count). */
export interface StockChange {
  id: string
  available: boolean
}

/**
 * The catalogue with each variant's `available` set as `changes` say. `unknown` are the indexes
 * of the changes naming no variant of the catalogue; `changed` how many variants it changes.
 */
export function withAvailability(
  catalogue: readonly CatalogueProduct[],
  changes: readonly StockChange[],
): { catalogue: CatalogueProduct[]; unknown: number[]; changed: number } {
  const wanted = new Map(changes.map((change) => [change.id, change.available]))
  const found = new Set<string>()
  let changed = 0
  const next = catalogue.map((product) => {
    if (!product.variants.some((variant) => wanted.has(variant.id))) return product
    return {
      ...product,
      variants: product.variants.map((variant) => {
        const available = wanted.get(variant.id)
        if (available === undefined) return variant
        found.add(variant.id)
        if ((variant.available ?? true) === available) return variant
        changed++
        return { ...variant, available }
      }),
    }
  })
  const unknown = changes.flatMap((change, i) => (found.has(change.id) ? [] : [i]))
  return { catalogue: changed > 0 ? next : [...catalogue], unknown, changed }
}
