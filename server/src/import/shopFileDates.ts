/**
 * The dates of the shop file: an ISO 8601 timestamp ("2026-03-01T10:00:00Z", or a date
 * "2026-03-01" meaning midnight UTC), or a time relative to the import: "now", "now-5d",
 * "now-12h", "now+30m" (units d, h, m).
 */
const RELATIVE_DATE = /^now(?:([+-])([0-9]{1,6})([dhm]))?$/
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2})))?$/
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const

/** An ISO 8601 timestamp or date, not a relative time (the Orders API takes only these). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1) return false
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false
  return !Number.isNaN(Date.parse(value))
}

export function isShopFileDate(value: string): boolean {
  return RELATIVE_DATE.test(value) || isIsoDate(value)
}

/**
 * The instants a shop file's dates may resolve to: 1970-01-01 up to the end of 9999, in UTC.
 * JavaScript reads far more (the year 0000, "now-999999d"), but PostgreSQL refuses the year 0000
 * as JavaScript writes it, and the import would fail midway with an error naming no field (a 500
 * over HTTP) instead of being refused here by name. Four-digit years keep the ISO strings the
 * portal answers with in their usual form, and no order or return of an online shop predates 1970.
 */
const SHOP_FILE_DATES = { from: Date.UTC(1970, 0, 1), until: Date.UTC(10_000, 0, 1) } as const

/**
 * A date of the import format resolved at `now` (relative dates count from it). Throws on
 * anything else (validateShopFile reports those first).
 */
export function resolveDate(value: string, now: Date): Date {
  const relative = RELATIVE_DATE.exec(value)
  if (relative) {
    const [, sign, count, unit] = relative
    if (!sign || !count || !unit) return new Date(now.getTime())
    const offset = Number(count) * UNIT_MS[unit as keyof typeof UNIT_MS]
    return new Date(now.getTime() + (sign === '-' ? -offset : offset))
  }
  if (isIsoDate(value)) return new Date(value)
  throw new Error(`not a date of the shop file format: ${JSON.stringify(value)}`)
}

/**
 * What is wrong with a date of the file, or null when it is good. Relative dates are resolved at
 * the import's own `now`: the range is checked on what is stored.
 */
export function dateProblem(value: string, now: Date): string | null {
  if (!isShopFileDate(value)) {
    return 'must be an ISO 8601 date like "2026-03-01T10:00:00Z" or a relative time like "now", "now-5d", "now-12h" (units d, h, m)'
  }
  const time = resolveDate(value, now).getTime()
  if (time < SHOP_FILE_DATES.from || time >= SHOP_FILE_DATES.until) {
    return 'must be a date from 1970-01-01 to 9999-12-31 (UTC)'
  }
  return null
}
