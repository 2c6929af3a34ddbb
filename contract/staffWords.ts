/**
 * The back office's words for where a return stands, for the console's list and the server's CSV.
 * Apart from contract/staff.ts, which holds the API's schemas: the console's first screen needs
 * these words, and importing them from there would ship TypeBox with it (docs/performance.md).
 */
import type { RETURN_STATES, REVIEW_STATES } from './constants'

/** How a return settles: money back, another size, a new item bought with the credit, or a mix. */
export const RETURN_OUTCOMES = ['refund', 'store_credit', 'exchange', 'upsell', 'mixed'] as const
export type ReturnOutcome = (typeof RETURN_OUTCOMES)[number]

/** An outcome in words, as the console's list and its CSV write it. */
export const OUTCOME_WORDS: Record<ReturnOutcome, string> = {
  refund: 'Refund',
  store_credit: 'Store credit',
  exchange: 'Exchange',
  upsell: 'New item',
  mixed: 'Exchange and refund',
}

/** An item state in words, and how a return ended (decision 0083). */
export const STATE_WORDS: Record<(typeof RETURN_STATES)[number], string> = {
  requested: 'Requested',
  in_transit: 'In transit',
  received: 'Received',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
  closed: 'Closed',
}

/** A review state in words. */
export const REVIEW_WORDS: Record<(typeof REVIEW_STATES)[number], string> = {
  pending: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
}

/**
 * Where a return stands, in words: a return waiting for review or rejected reads as its review
 * (its items were never sent, so "Requested" would say it is on its way); any other as its state.
 * @example returnStandingWords({ state: 'requested', review: 'rejected' }) === 'Rejected'
 */
export function returnStandingWords(summary: {
  state: (typeof RETURN_STATES)[number]
  review: (typeof REVIEW_STATES)[number] | null
}): string {
  return summary.review === 'pending' || summary.review === 'rejected'
    ? REVIEW_WORDS[summary.review]
    : STATE_WORDS[summary.state]
}
