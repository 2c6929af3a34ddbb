// The shopper's money: always 2 decimals (rules §13.2); the one money module is contract/money.ts.
export { formatShopperMoney as formatMoney } from '../../contract/money'

/** A fraction as a percent in the shopper's language: 0.1 → "10%". */
export function formatPercent(fraction: number, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(fraction)
}

/** The store-credit bonus of a gift-card multiplier: 1.1 → 0.1 (10%). */
export function bonusFraction(multiplier: number | null | undefined): number {
  return multiplier != null && multiplier > 1 ? Math.round((multiplier - 1) * 10_000) / 10_000 : 0
}
