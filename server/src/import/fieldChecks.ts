/**
 * The checks of single fields that a schema cannot express, bound to one file: amounts against
 * the shop's currency, URLs, ids that would be reserved names, dates. Each failure becomes an
 * error line naming the field.
 */
import { errorLine, plural, type Segment } from './errorLines'
import { dateProblem, resolveDate } from './shopFileDates'

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))

export const isCurrency = (code: string): boolean => CURRENCIES.has(code)

/** An amount with a string's decimal digits, in minor units (exact up to 12 integer digits). */
export function toMinor(value: string, digits: number): number {
  const [whole = '0', fraction = ''] = value.split('.')
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0').slice(0, digits) || '0')
}

/** Names that would collide with Object.prototype where ids become object keys (exchange_data.options). */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  '__proto__',
  'prototype',
])

function isUrlOrPath(value: string): boolean {
  if (/[\s\\]/.test(value)) return false
  if (value.startsWith('/')) return !value.startsWith('//')
  try {
    const parsed = new URL(value)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
  } catch {
    return false
  }
}

export interface FieldChecks {
  /** every error found so far, in the order found */
  readonly errors: string[]
  fail: (segments: Segment[], message: string) => void
  /** an amount has no more decimal places than the currency's minor unit */
  amount: (segments: Segment[], value: string) => void
  url: (segments: Segment[], value: string | null | undefined) => void
  id: (segments: Segment[], value: string) => void
  /** the instant a good date stands for (relative ones resolved at the import's `now`), null for a bad one */
  date: (segments: Segment[], value: string) => Date | null
}

/** Checks for a file whose amounts are in `currency` (with `digits` decimal places), imported at `now`. */
export function fieldChecks(currency: string, digits: number, now: Date): FieldChecks {
  const errors: string[] = []
  const fail = (segments: Segment[], message: string) => {
    errors.push(errorLine(segments, message))
  }
  return {
    errors,
    fail,
    amount: (segments, value) => {
      const fraction = value.split('.')[1] ?? ''
      if (fraction.length <= digits) return
      fail(
        segments,
        digits === 0
          ? `must be a whole amount in ${currency}, like "25"`
          : `must have at most ${plural(digits, 'decimal place', 'decimal places')} in ${currency}, like "${(25).toFixed(digits)}"`,
      )
    },
    url: (segments, value) => {
      if (typeof value === 'string' && !isUrlOrPath(value)) {
        fail(segments, 'must be an http(s) URL or an absolute path like "/demo-assets/logo.svg"')
      }
    },
    id: (segments, value) => {
      if (RESERVED_KEYS.has(value)) fail(segments, `"${value}" is a reserved name; choose another id`)
    },
    date: (segments, value) => {
      const problem = dateProblem(value, now)
      if (problem) fail(segments, problem)
      return problem ? null : resolveDate(value, now)
    },
  }
}
