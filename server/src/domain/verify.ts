import type {
  ExchangeData,
  Ineligibility,
  LineItem,
  ReturnReason,
  VerifiedOrder,
  VerifyErrorCode,
} from '../../../contract/api'
import type { ShopRecord } from '../storage/shops'
import type { OrderRecord } from '../storage/orders'
import { indexCatalogue } from './catalogue'
import { keepsItem, keepThreshold } from './keepItems'
import { moneyBag } from './money'
import { orderPricing, unitPricesPaid } from './orderPricing'

const DAY_MS = 24 * 60 * 60 * 1000

export type VerifyOutcome = { error: VerifyErrorCode } | { order: Omit<VerifiedOrder, 'token' | 'token_expires_at'> }

/**
 * What verify answers for an order whose name and e-mail matched: an error of docs/rules.md §12,
 * or the order with each line's eligibility decided here, never by the portal.
 */
export function decideVerify(
  shop: ShopRecord,
  order: OrderRecord,
  returned: Map<string, number>,
  now: Date,
  lang: string | null,
): VerifyOutcome {
  if (order.fulfilled_at === null) return { error: 'order_not_fulfilled' }
  if (now.getTime() > returnWindowEnd(shop, order.fulfilled_at)) return { error: 'order_too_old' }
  const paid = unitPricesPaid(orderPricing(shop, order))
  const threshold = keepThreshold(shop.settings, shop.currency_code)
  const lines = order.line_items.map((line) => {
    const item = toLineItem(shop, line, returned.get(line.id) ?? 0, paid.get(line.id)!)
    // Said before the shopper chooses, so the exchange step does not ask them to send back what they keep.
    return keepsItem({ unitPaid: paid.get(line.id)!, threshold, exchanged: false })
      ? { ...item, keep_if_refunded: true }
      : item
  })
  // An order whose returnable units have all been returned already: the shopper has a return.
  if (returned.size > 0 && lines.every((line) => line.returnable_quantity === 0))
    return { error: 'order_already_has_return' }
  return {
    order: {
      order_id: order.id,
      order_name: order.name,
      email: order.email_key,
      processed_at: order.processed_at.toISOString(),
      currency_code: shop.currency_code,
      line_items: lines,
      exchange_data: exchangeData(shop, order),
      return_reasons: returnReasons(shop, lang),
    },
  }
}

/**
 * The last moment (milliseconds since the epoch) at which an order fulfilled at `fulfilledAt` is
 * inside the shop's return window; verify answers order_too_old after it.
 */
export function returnWindowEnd(shop: ShopRecord, fulfilledAt: Date): number {
  return fulfilledAt.getTime() + shop.settings.return_window_days * DAY_MS
}

function toLineItem(
  shop: ShopRecord,
  line: OrderRecord['line_items'][number],
  returnedUnits: number,
  unitPaid: number,
): LineItem {
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const variant = line.variant_id ? catalogue.variant(line.variant_id) : null
  const left = Math.max(0, line.quantity - returnedUnits)
  const ineligible: Ineligibility | null = line.final_sale ? 'final_sale' : left === 0 ? 'already_returned' : null
  return {
    id: line.id,
    variant_id: line.variant_id,
    product_src: line.product_src ?? variant?.image_src ?? null,
    exchange_variant_id: line.exchange_variant_id ?? null,
    title: line.title ?? variant?.product_title ?? 'Item',
    variant_title: line.variant_title !== undefined ? line.variant_title : (variant?.title ?? null),
    quantity: line.quantity,
    returnable_quantity: ineligible ? 0 : left,
    // Per unit after the order discount: what the shopper paid, as the contract says.
    price: moneyBag(unitPaid, shop.currency_code),
    ineligible_reason: ineligible,
    ...(variant ? { options: variant.options } : {}),
  }
}

/** Each returnable line's variant may go to the other variants of its product, when exchangeable. */
function exchangeData(shop: ShopRecord, order: OrderRecord): ExchangeData {
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const options: ExchangeData['options'] = {}
  const variants: ExchangeData['variants'] = {}
  for (const line of order.line_items) {
    if (!line.variant_id || line.final_sale) continue
    const product = catalogue.product(line.variant_id)
    if (!product || product.exchangeable === false) continue
    options[line.variant_id] = product.variants.map((variant) => variant.id)
    for (const variant of product.variants) variants[variant.id] = catalogue.variant(variant.id)!
  }
  return { options, upsell_enabled: shop.settings.upsell_enabled, variants }
}

/** The shop's reasons, labelled in the shopper's language when the shop has that variant. */
export function returnReasons(shop: ShopRecord, lang: string | null): ReturnReason[] {
  const labels = lang ? shop.return_reason_variants[lang] : undefined
  // Sub-reasons too: their labels are keyed by id like their parents'.
  const label = (reasons: ReturnReason[]): ReturnReason[] =>
    reasons.map((reason) => ({
      ...reason,
      label: labels?.[reason.id] ?? reason.label,
      ...(reason.children ? { children: label(reason.children) } : {}),
    }))
  return label(shop.return_reasons)
}
