import { formatShopperMoney, minorDigits } from '../../contract/money'

// The shopper's money: always 2 decimals (rules §13.2); the one money module is contract/money.ts.
export { formatShopperMoney as formatMoney }

/*
 * A page's first currency formatter reads ICU's currency data: at a phone's speed that took the
 * item selection's first render longer than the rest of it (docs/benchmarks.md, the shopper's
 * steps). This module comes with the item selection's chunk, which the start screen fetches while
 * the shopper types (app/boot.ts): the data is read then, when the page is idle, not once the
 * order is verified. (Where idle callbacks are unknown, nothing is done ahead.)
 */
if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function')
  window.requestIdleCallback(
    () => {
      minorDigits('USD')
      formatShopperMoney({ amount: '0', currency_code: 'USD' }, document.documentElement.lang || 'en')
    },
    { timeout: 2_000 },
  )

const percents = new Map<string, Intl.NumberFormat>()
const numbers = new Map<string, Intl.NumberFormat>()

/** A fraction as a percent in the shopper's language: 0.1 → "10%". Its formatter is made once a language. */
export function formatPercent(fraction: number, locale = 'en'): string {
  let format = percents.get(locale)
  if (!format)
    percents.set(locale, (format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })))
  return format.format(fraction)
}

/** A whole number in the shopper's language: 5 → "5". Its formatter is made once a language. */
export function formatNumber(value: number, locale = 'en'): string {
  let format = numbers.get(locale)
  if (!format) numbers.set(locale, (format = new Intl.NumberFormat(locale)))
  return format.format(value)
}

/** The store-credit bonus of a gift-card multiplier: 1.1 → 0.1 (10%). */
export function bonusFraction(multiplier: number | null | undefined): number {
  return multiplier != null && multiplier > 1 ? Math.round((multiplier - 1) * 10_000) / 10_000 : 0
}
