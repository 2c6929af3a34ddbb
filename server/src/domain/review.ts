/**
 * A flagged return's review (docs/lifecycle.md): whether it may have a label and move on, and what
 * its shopper reads of it. Pure functions of the stored return.
 */
import type { ReturnStatus } from '../../../contract/api'
import type { ReturnRecord } from './returns'

/** A return with no label (docs/lifecycle.md): waiting for review, or rejected. */
export const waitsOrRejected = (found: Pick<ReturnRecord, 'review'>): boolean =>
  found.review === 'pending' || found.review === 'rejected'

/** The review as the shopper reads it: when to expect an answer, or what was decided and why. */
export function shopperReview(found: ReturnRecord): Pick<ReturnStatus, 'review'> {
  if (found.review === null) return {}
  if (found.review === 'pending') return { review: { state: 'pending', answer_by: found.review_answer_by! } }
  return {
    review: {
      state: found.review,
      ...(found.review === 'rejected' && found.review_reason ? { reason: found.review_reason } : {}),
      ...(found.reviewed_at ? { decided_at: new Date(found.reviewed_at).toISOString() } : {}),
    },
  }
}
