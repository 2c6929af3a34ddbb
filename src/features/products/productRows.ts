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

/** The long-date formatter of each language, made once (below). */
const longDates = new Map<string, Intl.DateTimeFormat>()

function longDate(locale: string): Intl.DateTimeFormat {
  let format = longDates.get(locale)
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(locale, { dateStyle: 'long' })
    } catch {
      format = new Intl.DateTimeFormat('en', { dateStyle: 'long' })
    }
    longDates.set(locale, format)
  }
  return format
}

/*
 * A page's first date formatter reads ICU's calendar data: at a phone's speed, a verify's step
 * waited about 30 ms for it in the item selection's render (docs/benchmarks.md, the shopper's
 * steps). This module comes with that step's chunk, fetched while the shopper types on the start
 * screen (app/boot.ts): the page's formatter is made then, when the page is idle, as the money
 * formatter is (components/format.ts).
 */
if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function')
  window.requestIdleCallback(() => longDate(document.documentElement.lang || 'en'), { timeout: 2_000 })

/** The order date in the shopper's language, e.g. "10 November 2026"; null when not a date. */
export function formatOrderDate(iso: string, locale: string): string | null {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : longDate(locale).format(date)
}
