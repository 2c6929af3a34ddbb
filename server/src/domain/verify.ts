import type {
  ExchangeData,
  Ineligibility,
  LineItem,
  ReturnReason,
  VerifiedOrder,
  VerifyErrorCode,
} from '../../../contract/api'
import { indexCatalogue } from './catalogue'
import { keepsItem } from './keepItems'
import { moneyBag } from '../../../contract/money'
import { orderPricing, unitPricesPaid } from './orderPricing'
import { ruleOfLine, windowEnd } from './policy'
import type { LineItem as OrderLine, Order, Shop } from './shop'

export type VerifyOutcome =
  | { error: VerifyErrorCode }
  | {
      order: Omit<VerifiedOrder, 'token' | 'token_expires_at'>
      /** the last moment (ms since the epoch) this answer holds: then the next line's window ends */
      holdsUntil: number
    }

/** What a line's policy says of it at a moment: why it cannot be returned (by the policy), and by which rule. */
interface Standing {
  ineligible: 'final_sale' | 'return_window_closed' | null
  /** the label of the rule that made it ineligible; null for the shop's own window or the line's own final_sale */
  rule: string | null
  /** the last moment its window is open */
  end: number
}

/**
 * What verify answers for an order whose name and e-mail matched: an error of docs/rules.md §12,
 * or the order with each line's eligibility decided here, never by the portal. A line's window is
 * the shop's, or a window rule's by its product's tags (docs/lifecycle.md): the order is too old
 * only when every line's window has ended.
 */
export function decideVerify(
  shop: Shop,
  order: Order,
  returned: Map<string, number>,
  now: Date,
  lang: string | null,
): VerifyOutcome {
  const fulfilledAt = order.fulfilled_at
  if (fulfilledAt === null) return { error: 'order_not_fulfilled' }
  const standings = order.line_items.map((line) => standingOf(shop, line, fulfilledAt, now))
  if (standings.every((standing) => now.getTime() > standing.end)) return { error: 'order_too_old' }
  const paid = unitPricesPaid(orderPricing(shop, order))
  const threshold = shop.settings.keep_item_below
  const lines = order.line_items.map((line, at) => {
    const item = toLineItem(shop, line, returned.get(line.id) ?? 0, paid.get(line.id)!, standings[at]!)
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
      exchange_data: exchangeData(shop, order, standings),
      return_reasons: returnReasons(shop, lang),
    },
    // The answer changes only when a window still open ends.
    holdsUntil: Math.min(...standings.map((standing) => standing.end).filter((end) => end >= now.getTime())),
  }
}

/** A line as the policy sees it at `now`: final sale (its own flag or a rule), its window ended, or neither. */
function standingOf(shop: Shop, line: OrderLine, fulfilledAt: Date, now: Date): Standing {
  const rule = ruleOfLine(shop, line.variant_id)
  const end = windowEnd(fulfilledAt, rule.days)
  if (rule.finalSale !== null) return { ineligible: 'final_sale', rule: rule.finalSale, end }
  if (line.final_sale) return { ineligible: 'final_sale', rule: null, end }
  if (now.getTime() > end) return { ineligible: 'return_window_closed', rule: rule.window, end }
  return { ineligible: null, rule: null, end }
}

function toLineItem(
  shop: Shop,
  line: Order['line_items'][number],
  returnedUnits: number,
  unitPaid: number,
  standing: Standing,
): LineItem {
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const variant = line.variant_id ? catalogue.variant(line.variant_id) : null
  const left = Math.max(0, line.quantity - returnedUnits)
  const ineligible: Ineligibility | null =
    standing.ineligible === 'final_sale' ? 'final_sale' : left === 0 ? 'already_returned' : standing.ineligible
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
    ...(ineligible === standing.ineligible && standing.rule !== null ? { ineligible_rule: standing.rule } : {}),
    ...(variant ? { options: variant.options } : {}),
  }
}

/** Each returnable line's variant may go to the other variants of its product, when exchangeable. */
function exchangeData(shop: Shop, order: Order, standings: Standing[]): ExchangeData {
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const options: ExchangeData['options'] = {}
  const variants: ExchangeData['variants'] = {}
  for (const [at, line] of order.line_items.entries()) {
    if (!line.variant_id || standings[at]!.ineligible !== null) continue
    const product = catalogue.product(line.variant_id)
    if (!product || product.exchangeable === false) continue
    options[line.variant_id] = product.variants.map((variant) => variant.id)
    for (const variant of product.variants) variants[variant.id] = catalogue.variant(variant.id)!
  }
  return { options, upsell_enabled: shop.settings.upsell_enabled, variants }
}

/** The shop's reasons, labelled in the shopper's language when the shop has that variant. */
export function returnReasons(shop: Shop, lang: string | null): ReturnReason[] {
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
