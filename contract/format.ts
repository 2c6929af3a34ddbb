import type { Money } from './api'

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
