import type { Money } from '../../contract/api'

/*
 * Money as integer minor units (cents, yen, fils), as the server counts it: the API sends amounts
 * as decimal strings, which are parsed here, never multiplied as floats (19.99 * 100 is
 * 1998.9999999999998 in binary floating point). Shown with Intl by formatMoney (format.ts).
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/
const digitsCache = new Map<string, number>()

/** Digits after the decimal point of a currency: EUR 2, JPY 0, KWD 3; 2 for a code Intl does not know. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency)
  if (digits === undefined) {
    try {
      // ICU knows ISO 4217's minor units: the same data the server and formatMoney use.
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    } catch {
      digits = 2
    }
    digitsCache.set(currency, digits)
  }
  return digits
}

/**
 * An amount in minor units; null when it is not a decimal amount of its currency (more decimals
 * than the currency has would have to be rounded: not an amount the server sends).
 * @example toMinor({ amount: '19.99', currency_code: 'EUR' }) === 1999
 */
export function toMinor({ amount, currency_code }: Money): number | null {
  const match = DECIMAL.exec(amount)
  if (!match) return null
  const digits = minorDigits(currency_code)
  const fraction = match[3] ?? ''
  if (fraction.length > digits) return null
  const minor = Number(match[2]! + fraction.padEnd(digits, '0'))
  if (!Number.isSafeInteger(minor)) return null
  return match[1] === '-' ? -minor : minor
}

/** Minor units as money, with exactly the currency's decimals. @example fromMinor(2500, 'EUR').amount === '25.00' */
export function fromMinor(minor: number, currency_code: string): Money {
  const digits = minorDigits(currency_code)
  const text = String(Math.abs(minor)).padStart(digits + 1, '0')
  const amount = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`
  return { amount: minor < 0 ? `-${amount}` : amount, currency_code }
}
