import { toMinor } from '../../../contract/money'
import { allocateDiscount, type OrderPricing } from './refund'
import type { Order, ShopSettings } from './shop'

/** What an order is priced in: its shop's currency and tax rule. */
export interface PricingShop {
  currency_code: string
  settings: Pick<ShopSettings, 'prices_include_tax'>
}

/** The order's lines and discount in minor units, as the refund arithmetic takes them. */
export function orderPricing(shop: PricingShop, order: Order): OrderPricing {
  const currency = shop.currency_code
  return {
    pricesIncludeTax: shop.settings.prices_include_tax,
    discount: toMinor(order.discount, currency),
    lines: order.line_items.map((line) => ({
      id: line.id,
      quantity: line.quantity,
      unitPrice: toMinor(line.price, currency),
      taxRate: line.tax_rate,
    })),
  }
}

/** What one unit of each line cost after its share of the order discount (rounded up), by line id. */
export function unitPricesPaid(pricing: OrderPricing): Map<string, number> {
  const shares = allocateDiscount(pricing)
  return new Map(
    pricing.lines.map((line) => [
      line.id,
      Math.ceil((line.unitPrice * line.quantity - (shares.get(line.id) ?? 0)) / line.quantity),
    ]),
  )
}
