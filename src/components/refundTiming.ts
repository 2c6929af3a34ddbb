import type { RefundTiming, ReturnOrderItem } from '../../contract/api'
import type { MessageId } from '../i18n/i18n'
import type { Translate } from '../i18n/useT'
import { formatNumber } from './format'

const WHEN: Record<'submit' | 'receipt', { now: MessageId; business: MessageId; calendar: MessageId }> = {
  submit: { now: 'timing.atOnce.submit', business: 'timing.businessDays.submit', calendar: 'timing.days.submit' },
  receipt: { now: 'timing.atOnce.receipt', business: 'timing.businessDays.receipt', calendar: 'timing.days.receipt' },
}

/**
 * When the money of one method arrives, in words that continue a sentence: "at once, when you
 * submit your return", "5–10 business days after we receive your items".
 * @example refundWhen({ from_days: 5, to_days: 10, business_days: true, after: 'receipt' }, t, 'en')
 */
export function refundWhen(timing: RefundTiming, t: Translate, locale: string): string {
  const words = WHEN[timing.after]
  if (timing.to_days === 0) return t(words.now)
  const range =
    timing.from_days === timing.to_days
      ? formatNumber(timing.to_days, locale)
      : `${formatNumber(timing.from_days, locale)}–${formatNumber(timing.to_days, locale)}`
  // A range is plural in every language we have ("0–1 days"); a single number by its own rule.
  const count = timing.from_days === timing.to_days ? timing.to_days : Math.max(2, timing.to_days)
  return t(timing.business_days ? words.business : words.calendar, { range, count })
}

/**
 * The timing as it counts for these items: when every refunded (not exchanged) item is kept,
 * nothing is sent back, so a timing "after receipt" counts from the submission instead.
 * @example countedTiming({ from_days: 5, to_days: 10, business_days: true, after: 'receipt' }, [{ keep: true, exchange_variant_id: null }]).after // 'submit'
 */
export function countedTiming(
  timing: RefundTiming,
  items: readonly Pick<ReturnOrderItem, 'keep' | 'exchange_variant_id'>[],
): RefundTiming {
  const refunded = items.filter((item) => !item.exchange_variant_id)
  const allKept = refunded.length > 0 && refunded.every((item) => item.keep === true)
  return allKept && timing.after === 'receipt' ? { ...timing, after: 'submit' } : timing
}

/** A calendar day (YYYY-MM-DD) in the shopper's language: "27 November 2026". */
export function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T12:00:00Z`)
  if (Number.isNaN(date.getTime())) return day
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
  } catch {
    return new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(date)
  }
}

/** A moment (ISO 8601) as its day in the shopper's language and time zone: "20 November 2026". */
export function formatDate(iso: string, locale: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date)
  } catch {
    return new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(date)
  }
}
