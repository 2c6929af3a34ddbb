/**
 * Money, for the server and both screens: integer minor units (cents, yen, fils) with the
 * currency's own decimals from Intl (ICU holds ISO 4217's minor units). Amounts enter and leave
 * as decimal strings and are never multiplied as floats: 19.99 * 100 is 1998.9999999999998 in
 * binary floating point. Sums are taken in minor units, once.
 */
import type { Money, MoneyBag } from './api'

/**
 * An amount in whole minor units of its currency (cents, yen, fils): how the server's rules take
 * money. Decimal strings are read into it where money enters and written from it where money
 * leaves (docs/decisions/0093-money-in-minor-units.md).
 */
export type Minor = number

/** An exact non-negative fraction, e.g. a tax rate "0.19" as 19/100. */
export interface Ratio {
  num: bigint
  den: bigint
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/
const SIGNED_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/
const digitsCache = new Map<string, number>()

/** Digits after the decimal point of a currency: EUR 2, JPY 0, KWD 3. Throws RangeError for an unknown code. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency)
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    digitsCache.set(currency, digits)
  }
  return digits
}

/** A currency's decimals, or 2 for a code Intl does not know (for what a screen was sent). */
function digitsOr2(currency: string): number {
  try {
    return minorDigits(currency)
  } catch {
    return 2
  }
}

/**
 * Parses a non-negative decimal string into minor units exactly; throws RangeError for anything
 * else, and for more decimals than the currency has (cutting them would round what someone typed).
 * @example toMinor('19.99', 'EUR') === 1999
 */
export function toMinor(amount: string, currency: string): Minor {
  const match = DECIMAL.exec(amount)
  if (!match) throw new RangeError(`not a non-negative decimal amount: "${amount}"`)
  const digits = minorDigits(currency)
  const fraction = match[2] ?? ''
  if (fraction.length > digits) throw new RangeError(`"${amount}" has more than ${digits} decimals for ${currency}`)
  const minor = Number(match[1]! + fraction.padEnd(digits, '0'))
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount too large: "${amount}"`)
  return minor
}

/**
 * Money as it arrived (signed), in minor units; null when it is not a decimal amount of its
 * currency. For screens reading what the API sent; a code Intl does not know counts 2 decimals.
 * @example readMinor({ amount: '-3.95', currency_code: 'EUR' }) === -395
 */
export function readMinor({ amount, currency_code }: Money): number | null {
  const match = SIGNED_DECIMAL.exec(amount)
  if (!match) return null
  const digits = digitsOr2(currency_code)
  const fraction = match[3] ?? ''
  if (fraction.length > digits) return null
  const minor = Number(match[2]! + fraction.padEnd(digits, '0'))
  if (!Number.isSafeInteger(minor)) return null
  return match[1] === '-' && minor !== 0 ? -minor : minor
}

/** Writes minor units with exactly the currency's decimals. @example fromMinor(2500, 'EUR') === '25.00' */
export function fromMinor(minor: Minor, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount of minor units: ${minor}`)
  const digits = digitsOr2(currency)
  const sign = minor < 0 ? '-' : ''
  const text = String(Math.abs(minor)).padStart(digits + 1, '0')
  if (digits === 0) return sign + text
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/** Minor units as Money. @example moneyOf(1250, 'KWD') gives { amount: '1.250', currency_code: 'KWD' } */
export function moneyOf(minor: Minor, currency: string): Money {
  return { amount: fromMinor(minor, currency), currency_code: currency }
}

/** A MoneyBag from minor units; shop and presentment money are the same, as each shop has one currency. */
export function moneyBag(minor: Minor, currency: string): MoneyBag {
  const money = moneyOf(minor, currency)
  return { shop_money: money, presentment_money: { ...money } }
}

/**
 * The sum of amounts of one currency, added in minor units. Throws RangeError for an amount that
 * is not one of `currency`, or not an amount at all: a sum that skipped one would be wrong.
 * @example sumMoney([eur('0.10'), eur('0.20')], 'EUR') gives 0.30 EUR, never 0.30000000000000004
 */
export function sumMoney(amounts: readonly Money[], currency: string): Money {
  let minor = 0
  for (const money of amounts) {
    const part = money.currency_code === currency ? readMinor(money) : null
    if (part === null) throw new RangeError(`cannot add ${money.amount} ${money.currency_code} to ${currency}`)
    minor += part
  }
  if (!Number.isSafeInteger(minor)) throw new RangeError('sum too large')
  return moneyOf(minor, currency)
}

/** Parses a non-negative decimal rate or multiplier exactly. @example parseRate('0.075') gives 75n/1000n */
export function parseRate(rate: string): Ratio {
  const match = DECIMAL.exec(rate)
  if (!match) throw new RangeError(`not a non-negative decimal rate: "${rate}"`)
  const fraction = match[2] ?? ''
  return { num: BigInt(match[1]! + fraction), den: 10n ** BigInt(fraction.length) }
}

/**
 * One formatter per locale, currency and decimals, made once: making one costs far more than
 * formatting with it (a list of 150 prices made 150 of them), and the first one of a page reads
 * the currency data of ICU (docs/benchmarks.md, the shopper's steps). A handful of combinations
 * exist; the cache is emptied should a caller ever pass many.
 */
const formatters = new Map<string, Intl.NumberFormat>()
const FORMATTERS_MAX = 64

function formatter(locale: string, currency: string, digits: number): Intl.NumberFormat {
  const key = `${locale} ${currency} ${digits}`
  let made = formatters.get(key)
  if (made === undefined) {
    made = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    })
    if (formatters.size >= FORMATTERS_MAX) formatters.clear()
    formatters.set(key, made)
  }
  return made
}

function format(money: Money, locale: string, digits: number): string {
  // A decimal string keeps every digit (Intl reads strings exactly); a number would round first.
  const value = (readMinor(money) === null ? String(Number(money.amount)) : money.amount) as unknown as number
  try {
    return formatter(locale, money.currency_code, digits).format(value)
  } catch {
    // An unknown currency code: the amount and the code.
    return `${Number(money.amount).toFixed(digits)} ${money.currency_code}`
  }
}

/**
 * Money for staff, with the currency's own decimals: 1.250 KWD, ¥1,500, €45.00. The back office
 * reconciles with the shop's books, so it never rounds a figure (decision 0060).
 */
export function formatMoney(money: Money, locale = 'en'): string {
  return format(money, locale, digitsOr2(money.currency_code))
}

/**
 * Money for the shopper (the portal and its e-mails), always with 2 decimals, as the
 * specification's formatting rule says (docs/rules.md §13.2, decision 0060).
 */
export function formatShopperMoney(money: Money, locale = 'en'): string {
  return format(money, locale, 2)
}
