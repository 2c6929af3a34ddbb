/**
 * An order read from the shop's commerce engine (docs/commerce.md: Orders from the engine,
 * docs/decisions/0076-verify-reads-the-engine.md), as every engine's adapter gives it, and the
 * pure functions that make it the shop file's order and catalogue products, which Rebound stores
 * and verify reads as any other order. The line item and variant ids stay the engine's, so the
 * actions carried out there later name what the engine knows.
 */
import type { Address } from '../../../contract/api'
import { fromMinor, type Minor } from '../../../contract/money'
import type { CatalogueProduct, CatalogueVariant, LineItem, ShopSettings } from './shop'

/** A line of an engine's order. Amounts are integer minor units of the order's currency. */
export interface EngineLine {
  /** the engine's line item id */
  id: string
  /** the engine's variant id; null for a custom item */
  variantId: string | null
  productId: string | null
  title: string
  variantTitle: string | null
  imageSrc: string | null
  quantity: number
  unitPriceMinor: Minor
  /** whether `unitPriceMinor` includes the tax */
  taxInclusive: boolean
  /** the line's tax rates added up, as a fraction: 0.19 */
  taxRate: number
  /** what the engine's promotions took off the whole line, in the same terms as its price */
  discountMinor: Minor
}

export interface EngineVariant {
  id: string
  title: string | null
  options: { name: string; value: string }[]
  /** its price in the order's currency, null when it has none */
  priceMinor: Minor | null
  /** can be sold now (in stock, or not counted, or backordered) */
  available: boolean
  imageSrc: string | null
}

export interface EngineProduct {
  id: string
  title: string
  imageSrc: string | null
  variants: EngineVariant[]
}

/** An order as an engine's adapter reads it: the engine's ids, amounts in minor units. */
export interface EngineOrder {
  /** the engine's order id (kept as `orders.engine_order_id`) */
  id: string
  /** the number the shopper knows it by, without "#": "1001" */
  number: string
  email: string
  /** ISO 4217, upper case */
  currency: string
  /** ISO 8601 */
  createdAt: string
  /** when its last item was fulfilled (ISO 8601); null while any item waits */
  fulfilledAt: string | null
  shippingAddress: Address | null
  lines: EngineLine[]
  /** the products of its lines, with all their variants */
  products: EngineProduct[]
}

/**
 * The order as the shop file and the Orders API give one once its amounts are read
 * (import/orderUpserts.ts OrderEntry): the engine's minor units, never written as decimals on the way.
 */
export interface EngineOrderInput {
  name: string
  email: string
  processed_at: string
  fulfilled_at: string | null
  shipping_address?: Address
  discount?: Minor
  line_items: LineItem[]
}

export type OrderFromEngine =
  { ok: true; order: EngineOrderInput; products: CatalogueProduct[] } | { ok: false; problem: string }

/** The shop an engine's order is written to: what its amounts are shown in. */
export interface EngineOrderShop {
  currency_code: string
  settings: Pick<ShopSettings, 'prices_include_tax'>
}

/** The name an engine's order is stored and verified by: `#1001`. */
export const engineOrderName = (number: string) => `#${number}`

/**
 * An amount in the terms the shop shows its prices in: with the tax when `prices_include_tax`,
 * without it otherwise, rounded to the minor unit.
 */
function shopTerms(minor: Minor, line: { taxInclusive: boolean; taxRate: number }, includeTax: boolean): Minor {
  if (line.taxInclusive === includeTax || line.taxRate === 0) return minor
  return includeTax ? Math.round(minor * (1 + line.taxRate)) : Math.round(minor / (1 + line.taxRate))
}

/** A fraction as the shop file's tax rate: 0.19 → "0.19", 0 → "0". */
function taxRateText(rate: number): string {
  return String(Number(rate.toFixed(6)))
}

/**
 * The engine's order as the shop file's order (its amounts in minor units) and the catalogue
 * products its lines are of, for `shop`; or why it cannot be taken (another currency, a tax rate of 100% or more, no lines).
 * A line whose variant the engine no longer lists is a custom line (`variant_id` null).
 */
export function orderFromEngine(shop: EngineOrderShop, engine: EngineOrder): OrderFromEngine {
  const currency = shop.currency_code.toUpperCase()
  if (engine.currency.toUpperCase() !== currency)
    return { ok: false, problem: `the order is in ${engine.currency}, the shop in ${currency}` }
  const includeTax = shop.settings.prices_include_tax
  const lines = engine.lines.filter((line) => line.quantity > 0)
  if (lines.length === 0) return { ok: false, problem: 'the order has no items' }
  const badRate = lines.find((line) => !(line.taxRate >= 0 && line.taxRate < 1))
  if (badRate) return { ok: false, problem: `line ${badRate.id}: a tax rate of ${badRate.taxRate}` }

  const products = engine.products.map((product) => catalogueProduct(product, lines, currency, includeTax))
  const variantIds = new Set(products.flatMap((product) => product.variants.map((variant) => variant.id)))
  let discount = 0
  const lineItems = lines.map((line): LineItem => {
    discount += shopTerms(line.discountMinor, line, includeTax)
    return {
      id: line.id,
      variant_id: line.variantId !== null && variantIds.has(line.variantId) ? line.variantId : null,
      title: line.title,
      variant_title: line.variantTitle,
      ...(line.imageSrc ? { product_src: line.imageSrc } : {}),
      quantity: line.quantity,
      price: shopTerms(line.unitPriceMinor, line, includeTax),
      tax_rate: taxRateText(line.taxRate),
    }
  })
  return {
    ok: true,
    order: {
      name: engineOrderName(engine.number),
      email: engine.email,
      processed_at: engine.createdAt,
      fulfilled_at: engine.fulfilledAt,
      ...(engine.shippingAddress ? { shipping_address: engine.shippingAddress } : {}),
      ...(discount > 0 ? { discount } : {}),
      line_items: lineItems,
    },
    products,
  }
}

/**
 * A product of the engine as the catalogue's: its variants with their options, price and stock. A
 * variant without a price in the shop's currency is left out, but for one the order bought, which
 * takes the line's price.
 */
function catalogueProduct(
  product: EngineProduct,
  lines: readonly EngineLine[],
  currency: string,
  includeTax: boolean,
): CatalogueProduct {
  const bought = new Map(lines.map((line) => [line.variantId, line]))
  // The engine's list prices are in the terms of its lines of the product (the tax with them or not).
  const terms = lines.find((line) => line.productId === product.id)
  const variants = product.variants.flatMap((variant): CatalogueVariant[] => {
    const line = bought.get(variant.id)
    const listed = variant.priceMinor ?? line?.unitPriceMinor ?? null
    const price = listed === null || !terms ? listed : shopTerms(listed, terms, includeTax)
    if (price === null) return []
    return [
      {
        id: variant.id,
        ...(variant.title ? { title: variant.title } : {}),
        options: variant.options,
        price: fromMinor(price, currency),
        available: variant.available,
        ...(variant.imageSrc ? { image_src: variant.imageSrc } : {}),
      },
    ]
  })
  return {
    id: product.id,
    title: product.title,
    ...(product.imageSrc ? { image_src: product.imageSrc } : {}),
    variants,
  }
}

/**
 * The catalogue's product after the engine's: the engine's title, image and variants, the shop's
 * own flags and tags kept (the policy names products by tags), and a variant the engine no longer
 * lists kept as not available, since orders and returns may name it (the shop file requires it).
 */
export function mergedProduct(stored: CatalogueProduct | undefined, fresh: CatalogueProduct): CatalogueProduct {
  if (!stored) return fresh
  const listed = new Set(fresh.variants.map((variant) => variant.id))
  const gone = stored.variants
    .filter((variant) => !listed.has(variant.id))
    .map((variant) => ({ ...variant, available: false }))
  const { variants: _variants, title: _title, image_src: _image, ...kept } = stored
  return {
    ...kept,
    id: fresh.id,
    title: fresh.title,
    ...(fresh.image_src ? { image_src: fresh.image_src } : stored.image_src ? { image_src: stored.image_src } : {}),
    variants: [...fresh.variants, ...gone],
  }
}

/** Whether an order name as verify reads it (orderNameKey) can be an engine's order number: digits, no leading zero. */
export function engineOrderNumber(nameKey: string): string | null {
  return /^[1-9][0-9]{0,14}$/.test(nameKey) ? nameKey : null
}
