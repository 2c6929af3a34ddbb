import { allocateDiscount, type OrderPricing } from './refund'
import type { Order, ShopSettings } from './shop'

/** What an order is priced in: its shop's currency and tax rule. */
export interface PricingShop {
  currency_code: string
  settings: Pick<ShopSettings, 'prices_include_tax'>
}

/**
 * The order's lines and discount as the refund arithmetic takes them: the order holds them in
 * minor units already, read where it entered (domain/shopMoney.ts), so nothing is converted here.
 */
export function orderPricing(shop: Pick<PricingShop, 'settings'>, order: Order): OrderPricing {
  return {
    pricesIncludeTax: shop.settings.prices_include_tax,
    discount: order.discount,
    lines: order.line_items.map((line) => ({
      id: line.id,
      quantity: line.quantity,
      unitPrice: line.price,
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
