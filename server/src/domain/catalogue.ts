import type { Variant } from '../../../contract/api'
import type { CatalogueProduct, CatalogueVariant } from './shop'
import { moneyBag, toMinor, type Minor } from '../../../contract/money'

export interface CatalogueIndex {
  variant(id: string): Variant | null
  product(variantId: string): CatalogueProduct | null
  /** the variant's price in minor units, read once with the index: the rules price with it */
  price(variantId: string): Minor | null
}

/** The variant as the contract shows it: named by its options, priced in the shop's currency (`minor`). */
function toVariant(product: CatalogueProduct, variant: CatalogueVariant, minor: Minor, currency: string): Variant {
  return {
    id: variant.id,
    product_id: product.id,
    product_title: product.title,
    title: variant.title ?? variant.options.map((option) => option.value).join(' / '),
    options: variant.options,
    price: moneyBag(minor, currency),
    image_src: variant.image_src ?? product.image_src ?? null,
    available: variant.available ?? true,
  }
}

const indexes = new WeakMap<CatalogueProduct[], CatalogueIndex>()

/**
 * Variants by id, built once per catalogue (shops are cached, so their catalogues are too). Each
 * price is read from its decimal string here, once (docs/decisions/0093-money-in-minor-units.md).
 */
export function indexCatalogue(catalogue: CatalogueProduct[], currency: string): CatalogueIndex {
  const known = indexes.get(catalogue)
  if (known) return known
  const variants = new Map<string, Variant>()
  const prices = new Map<string, Minor>()
  const products = new Map<string, CatalogueProduct>()
  for (const product of catalogue) {
    for (const variant of product.variants) {
      const minor = toMinor(variant.price, currency)
      variants.set(variant.id, toVariant(product, variant, minor, currency))
      prices.set(variant.id, minor)
      products.set(variant.id, product)
    }
  }
  const index: CatalogueIndex = {
    variant: (id) => variants.get(id) ?? null,
    product: (variantId) => products.get(variantId) ?? null,
    price: (variantId) => prices.get(variantId) ?? null,
  }
  indexes.set(catalogue, index)
  return index
}
