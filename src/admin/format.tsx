import type { RefundTiming, ReturnItemState } from '../../contract/api'
import type { ReturnOutcome } from '../../contract/staff'

export const STATE_LABELS: Record<ReturnItemState, string> = {
  requested: 'Requested',
  in_transit: 'In transit',
  received: 'Received',
  refunded: 'Refunded',
}

export const OUTCOME_LABELS: Record<ReturnOutcome, string> = {
  refund: 'Refund',
  store_credit: 'Store credit',
  exchange: 'Exchange',
  upsell: 'New item',
  mixed: 'Exchange and refund',
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
/** 22 Nov 2026, 14:05 (the staff member's time zone) */
export const formatMoment = (iso: string) => MOMENT.format(new Date(iso))

export function StateBadge({ state }: { state: ReturnItemState }) {
  return <span className={`state-badge state-badge--${state}`}>{STATE_LABELS[state]}</span>
}

/** The shop's refund timing as staff read it: "5–10 business days after the parcel arrives". */
export function timingText(timing: RefundTiming): string {
  if (timing.to_days === 0)
    return timing.after === 'receipt' ? 'At once, when the parcel arrives' : 'At once, when the return is submitted'
  const after = timing.after === 'receipt' ? 'after the parcel arrives' : 'after the return is submitted'
  const days = timing.from_days === timing.to_days ? `${timing.to_days}` : `${timing.from_days}–${timing.to_days}`
  return `${days} ${timing.business_days ? 'business ' : ''}day${timing.to_days === 1 ? '' : 's'} ${after}`
}
