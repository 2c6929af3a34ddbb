import type { Money } from '../../contract/api'

/** Money in the shopper's language, always with 2 decimals (docs/rules.md §13.2). */
export function formatMoney(money: Money, locale = 'en'): string {
  const amount = Number(money.amount)
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: money.currency_code,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount)
  } catch {
    // An unknown currency code: the amount with 2 decimals and the code.
    return `${amount.toFixed(2)} ${money.currency_code}`
  }
}

/** A fraction as a percent in the shopper's language: 0.1 → "10%". */
export function formatPercent(fraction: number, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(fraction)
}

/** The store-credit bonus of a gift-card multiplier: 1.1 → 0.1 (10%). */
export function bonusFraction(multiplier: number | null | undefined): number {
  return multiplier != null && multiplier > 1 ? Math.round((multiplier - 1) * 10_000) / 10_000 : 0
}
