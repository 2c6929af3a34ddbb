/**
 * The shapes of a stored return as the rules read them (docs/architecture.md): storage maps its
 * rows to these.
 */
import type { ReturnItemState, ReturnOrder } from '../../../contract/api'
import type { REVIEW_STATES } from '../../../contract/constants'
import type { ReviewFlag } from '../../../contract/staff'

export type ReviewState = (typeof REVIEW_STATES)[number]

export interface ReturnRecord {
  id: string
  order_id: string
  name: string
  request_hash: string | null
  return_order: ReturnOrder | null
  created_at: Date
  /** null when the shop's rules never flagged it (docs/lifecycle.md) */
  review: ReviewState | null
  review_flags: ReviewFlag[] | null
  /** YYYY-MM-DD: the day the shopper was told to expect an answer by */
  review_answer_by: string | null
  review_reason: string | null
  reviewed_at: Date | null
  reviewed_by: string | null
  /** how staff ended it (decision 0083); null or absent while it goes on */
  ended?: 'cancelled' | 'closed' | null
  /** the closing's reason, for staff */
  ended_reason?: string | null
  ended_at?: Date | null
  ended_by?: string | null
}

/** A returned line of one return, with the later states it reached and when. */
export interface ReturnedLine {
  line_item_id: string
  quantity: number
  exchange_variant_id: string | null
  events: { state: Exclude<ReturnItemState, 'requested'>; at: Date }[]
}
