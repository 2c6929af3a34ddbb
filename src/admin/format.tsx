import type { RefundTiming } from '../../contract/api'
import type { DISPOSITIONS, INSPECTION_CONDITIONS, RETURN_STATES } from '../../contract/constants'
import { OUTCOME_WORDS, REVIEW_WORDS, STATE_WORDS, type ReturnOutcome } from '../../contract/staffWords'
import type { ReviewState } from './api'

/** Where a return stands: an item state, or how it ended (cancelled, closed: decision 0083). */
export type ReturnState = (typeof RETURN_STATES)[number]

export const STATE_LABELS: Record<ReturnState, string> = STATE_WORDS

export const OUTCOME_LABELS: Record<ReturnOutcome, string> = OUTCOME_WORDS

export const REVIEW_LABELS: Record<ReviewState, string> = REVIEW_WORDS

export const CONDITION_LABELS: Record<(typeof INSPECTION_CONDITIONS)[number], string> = {
  as_new: 'As new',
  opened: 'Opened',
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  missing: 'Missing from the parcel',
}

export const DISPOSITION_LABELS: Record<(typeof DISPOSITIONS)[number], string> = {
  restock: 'Restock',
  refurbish: 'Refurbish',
  dispose: 'Dispose',
}

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
const MOMENT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** 22 Nov 2026 */
export const formatDay = (iso: string) => DAY.format(new Date(iso))
const CALENDAR_DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
})
/** A calendar day (YYYY-MM-DD) as written, in any time zone: 2026-11-24 → 24 Nov 2026 */
export const formatCalendarDay = (day: string) => CALENDAR_DAY.format(new Date(`${day}T00:00:00Z`))

/**
 * How an answer-by day (YYYY-MM-DD, UTC) stands today, in words: colour alone says nothing to
 * some readers.
 * @example answerByText('2026-11-20', new Date('2026-11-23T10:00:00Z')) // '20 Nov 2026 (overdue)'
 */
export function answerByText(day: string, now = new Date()): { text: string; overdue: boolean } {
  const today = now.toISOString().slice(0, 10)
  const overdue = day < today
  const when = day === today ? ' (today)' : overdue ? ' (overdue)' : ''
  return { text: `${formatCalendarDay(day)}${when}`, overdue }
}

/** 22 Nov 2026, 14:05 (the staff member's time zone) */
export const formatMoment = (iso: string) => MOMENT.format(new Date(iso))

export function StateBadge({ state }: { state: ReturnState }) {
  return <span className={`state-badge state-badge--${state}`}>{STATE_LABELS[state]}</span>
}

/**
 * Where a return stands: a return waiting for review or rejected shows its review alone (its items
 * were never sent, so "Requested" would mislead); any other its state (decision 0059).
 */
export function StandingBadge({ state, review }: { state: ReturnState; review: ReviewState | null }) {
  return review === 'pending' || review === 'rejected' ? <ReviewBadge review={review} /> : <StateBadge state={state} />
}

/** A flagged return's review in words, for the states staff must notice (approved goes as any return). */
export function ReviewBadge({ review }: { review: ReviewState | null }) {
  if (review !== 'pending' && review !== 'rejected') return null
  return <span className={`state-badge state-badge--review-${review}`}>{REVIEW_LABELS[review]}</span>
}

/** The shop's refund timing as staff read it: "5–10 business days after the parcel arrives". */
export function timingText(timing: RefundTiming): string {
  if (timing.to_days === 0)
    return timing.after === 'receipt' ? 'At once, when the parcel arrives' : 'At once, when the return is submitted'
  const after = timing.after === 'receipt' ? 'after the parcel arrives' : 'after the return is submitted'
  const days = timing.from_days === timing.to_days ? `${timing.to_days}` : `${timing.from_days}–${timing.to_days}`
  return `${days} ${timing.business_days ? 'business ' : ''}day${timing.to_days === 1 ? '' : 's'} ${after}`
}
