import type { Ineligibility, LineItem, Money } from '../../../contract/api'
import { formatMoney } from '../../components/format'
import type { MessageId } from '../../i18n/i18n'
import { safeUrl } from '../../shop/sanitizeConfig'

/** Why an item cannot be returned, in the shopper's words (docs/rules.md §9.1). */
export const INELIGIBILITY_WORDS: Record<Ineligibility, MessageId> = {
  final_sale: 'ineligible.final_sale',
  return_window_closed: 'ineligible.return_window_closed',
  already_returned: 'ineligible.already_returned',
  not_fulfilled: 'ineligible.not_fulfilled',
}

/** One line item as the selection list shows it; computed once per order, not per render. */
export interface ProductRowModel {
  id: string
  title: string
  variantTitle: string | null
  image: string | null
  /** price paid per unit, formatted */
  price: string
  /** units bought */
  quantity: number
  /** units that can be chosen; 0 when the item cannot be returned */
  maxQuantity: number
  /** why it cannot be returned (the message), or null when it can */
  blockedReason: MessageId | null
  /** the shop's words for the policy rule behind the reason ("Swimwear"); null when none applied */
  blockedRule: string | null
}

/** The reason's message, or null when at least one unit can be returned. */
export function blockedReason(line: Pick<LineItem, 'ineligible_reason' | 'returnable_quantity'>): MessageId | null {
  if (line.ineligible_reason)
    return Object.hasOwn(INELIGIBILITY_WORDS, line.ineligible_reason)
      ? INELIGIBILITY_WORDS[line.ineligible_reason]
      : 'ineligible.other'
  if (!(line.returnable_quantity >= 1)) return 'ineligible.nothingLeft'
  return null
}

/** The shop's label of the rule that made a line ineligible, when it says one (shown as text). */
export function blockedRule(line: Pick<LineItem, 'ineligible_reason' | 'ineligible_rule'>): string | null {
  const rule = line.ineligible_reason ? line.ineligible_rule?.trim() : undefined
  return rule ? rule : null
}

/**
 * The rows of the selection list. Prices repeat across a large order, so each distinct amount is
 * formatted once.
 */
export function productRows(
  lines: readonly LineItem[],
  locale: string,
  /** names the bought variant on its line ("Size 43"); its title as given without one */
  nameVariant: (line: LineItem) => string | null = (line) => line.variant_title,
): ProductRowModel[] {
  const prices = new Map<string, string>()
  const price = (money: Money) => {
    const key = `${money.currency_code} ${money.amount}`
    let text = prices.get(key)
    if (text === undefined) {
      text = formatMoney(money, locale)
      prices.set(key, text)
    }
    return text
  }
  return lines.map((line) => {
    const reason = blockedReason(line)
    return {
      id: line.id,
      title: line.title,
      variantTitle: nameVariant(line),
      image: line.product_src ? safeUrl(line.product_src) : null,
      price: price(line.price.presentment_money),
      quantity: line.quantity,
      maxQuantity: reason ? 0 : Math.floor(line.returnable_quantity),
      blockedReason: reason,
      blockedRule: reason ? blockedRule(line) : null,
    }
  })
}

/** Fetches each distinct product image of the order once, for the steps that show them. */
export function prefetchProductImages(lines: readonly LineItem[]) {
  const urls = new Set(lines.map((line) => (line.product_src ? safeUrl(line.product_src) : null)))
  urls.forEach((url) => {
    if (url) new Image().src = url
  })
}

/** The order date in the shopper's language, e.g. "10 November 2026"; null when not a date. */
export function formatOrderDate(iso: string, locale: string): string | null {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return null
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date)
  } catch {
    return new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(date)
  }
}
