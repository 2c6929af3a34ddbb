/**
 * A Medusa order as the engine-neutral order of the domain (domain/engineOrders.ts): Medusa's own
 * line item, variant and product ids, amounts already in minor units (the client converts them).
 * Pure, so it is tested without a Medusa (server/src/commerce/medusaOrders.test.ts).
 */
import type { Address } from '../../../contract/api'
import type { EngineOrder, EngineProduct } from '../domain/engineOrders'
import type { MedusaAddress, MedusaOrder, MedusaVariant } from './medusa'

/**
 * When the order was fulfilled: the last of its fulfilments that are not canceled, once every
 * item's units are fulfilled; null while any wait (a partly fulfilled order cannot be returned
 * whole, and its units not yet sent cannot be returned at all).
 */
export function fulfilledAt(order: Pick<MedusaOrder, 'items' | 'fulfillments'>): string | null {
  const made = order.fulfillments.filter((fulfillment) => fulfillment.canceledAt === null)
  if (made.length === 0) return null
  if (order.items.some((item) => item.quantity > 0 && item.fulfilledQuantity < item.quantity)) return null
  return made
    .map((fulfillment) => fulfillment.createdAt)
    .reduce((last, at) => (Date.parse(at) > Date.parse(last) ? at : last))
}

/** Medusa's shipping address as the label's sender, or null when it lacks a part the label needs. */
export function addressOf(address: MedusaAddress | null): Address | null {
  if (!address) return null
  const text = (value: string | null) => value?.trim() ?? ''
  const name = [text(address.firstName), text(address.lastName)].filter(Boolean).join(' ') || text(address.company)
  const line1 = text(address.address1)
  const city = text(address.city)
  const postalCode = text(address.postalCode)
  const country = text(address.countryCode).toUpperCase()
  if (!name || !line1 || !city || !postalCode || !/^[A-Z]{2}$/.test(country)) return null
  const line2 = text(address.address2)
  const region = text(address.province)
  return {
    name,
    line1,
    ...(line2 ? { line2 } : {}),
    city,
    ...(region ? { region } : {}),
    postal_code: postalCode,
    country_code: country,
  }
}

/** The order and its products' variants (by product id) as the domain's engine order. */
export function engineOrderOf(order: MedusaOrder, variants: ReadonlyMap<string, MedusaVariant[]>): EngineOrder {
  const products: EngineProduct[] = [...variants].map(([productId, productVariants]) => {
    const lines = order.items.filter((item) => item.productId === productId)
    return {
      id: productId,
      title: lines.find((item) => item.productTitle)?.productTitle ?? lines[0]?.title ?? productId,
      imageSrc: lines.find((item) => item.thumbnail)?.thumbnail ?? null,
      variants: productVariants.map((variant) => ({
        id: variant.id,
        title: variant.title,
        options: variant.options,
        priceMinor: variant.priceMinor,
        available: variant.available,
        imageSrc: variant.thumbnail,
      })),
    }
  })
  return {
    id: order.id,
    number: String(order.displayId),
    email: order.email,
    currency: order.currency,
    createdAt: order.createdAt,
    fulfilledAt: fulfilledAt(order),
    shippingAddress: addressOf(order.shippingAddress),
    // By id: Medusa lists the items made in one instant in any order, and the stored order would change.
    lines: [...order.items]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((item) => ({
        id: item.id,
        variantId: item.variantId,
        productId: item.productId,
        title: item.productTitle ?? item.title,
        variantTitle: item.variantTitle,
        imageSrc: item.thumbnail,
        quantity: item.quantity,
        unitPriceMinor: item.unitPriceMinor,
        taxInclusive: item.taxInclusive,
        taxRate: item.taxRatePercent / 100,
        discountMinor: item.discountMinor,
      })),
    products,
  }
}
