/**
 * Money as integer minor units (cents, yen, fils). Amounts enter and leave as decimal strings and
 * are never multiplied as floats: 19.99 * 100 is 1998.9999999999998 in binary floating point.
 */
import type { MoneyBag } from '../../../contract/api'

/** An exact non-negative fraction, e.g. a tax rate "0.19" as 19/100. */
export interface Ratio {
  num: bigint
  den: bigint
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/
const digitsCache = new Map<string, number>()

/** Digits after the decimal point of a currency: EUR 2, JPY 0, KWD 3. Throws RangeError for an unknown code. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency)
  if (digits === undefined) {
    // ICU knows ISO 4217's minor units, and the portal formats with the same data.
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    digitsCache.set(currency, digits)
  }
  return digits
}

/** Parses a decimal string into minor units exactly. @example toMinor('19.99', 'EUR') === 1999 */
export function toMinor(amount: string, currency: string): number {
  const match = DECIMAL.exec(amount)
  if (!match) throw new RangeError(`not a non-negative decimal amount: "${amount}"`)
  const digits = minorDigits(currency)
  const fraction = match[2] ?? ''
  // Cutting digits would silently round an amount someone typed; refuse instead.
  if (fraction.length > digits) throw new RangeError(`"${amount}" has more than ${digits} decimals for ${currency}`)
  const minor = Number(match[1]! + fraction.padEnd(digits, '0'))
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount too large: "${amount}"`)
  return minor
}

/** Formats minor units with exactly the currency's decimals. @example fromMinor(2500, 'EUR') === '25.00' */
export function fromMinor(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount of minor units: ${minor}`)
  const digits = minorDigits(currency)
  const sign = minor < 0 ? '-' : ''
  const text = String(Math.abs(minor)).padStart(digits + 1, '0')
  if (digits === 0) return sign + text
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/** A MoneyBag from minor units; shop and presentment money are the same, as each shop has one currency. */
export function moneyBag(minor: number, currency: string): MoneyBag {
  const amount = fromMinor(minor, currency)
  return { shop_money: { amount, currency_code: currency }, presentment_money: { amount, currency_code: currency } }
}

/** Parses a non-negative decimal rate or multiplier exactly. @example parseRate('0.075') gives 75n/1000n */
export function parseRate(rate: string): Ratio {
  const match = DECIMAL.exec(rate)
  if (!match) throw new RangeError(`not a non-negative decimal rate: "${rate}"`)
  const fraction = match[2] ?? ''
  return { num: BigInt(match[1]! + fraction), den: 10n ** BigInt(fraction.length) }
}
