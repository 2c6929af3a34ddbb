import type { MoneyBag, ReturnOrder, Variant } from '../../../contract/api'
import { readMinor } from '../../../contract/money'

/** What the shopper may spend on a new item: the store credit, or the refund without a multiplier. */
export function creditOf(quote: ReturnOrder): MoneyBag {
  return quote.store_credit_value ?? quote.refund_value
}

/**
 * True when a price is no more than the credit, compared in minor units in a currency both share
 * (the shopper's first, then the shop's); never true across two currencies, nor for an amount
 * that cannot be read.
 */
export function fitsCredit(price: MoneyBag, credit: MoneyBag): boolean {
  for (const key of ['presentment_money', 'shop_money'] as const) {
    if (price[key].currency_code !== credit[key].currency_code) continue
    const [cost, available] = [readMinor(price[key]), readMinor(credit[key])]
    return cost !== null && available !== null && cost <= available
  }
  return false
}

/**
 * A variant named by its option values ("Size M, Colour Blue"), or by its title without options;
 * `optionName` says an option's name in the shopper's language (a size's, "Größe M").
 */
export function variantLabel(
  variant: Pick<Variant, 'options' | 'title'>,
  optionName: (name: string) => string = (name) => name,
): string {
  return variant.options.length > 0
    ? variant.options.map((option) => `${optionName(option.name)} ${option.value}`).join(', ')
    : variant.title
}
