/**
 * What a change of a return tells the world (docs/events.md): the webhooks the shop's systems get
 * and the e-mails the shopper gets, read from the return's status before and after the change,
 * and when a delivery that failed is tried again.
 */
import type { ReturnStatus } from '../../../contract/api'
import type { EMAIL_KINDS, WEBHOOK_EVENTS } from '../../../contract/constants'

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export type EmailKind = (typeof EMAIL_KINDS)[number]

/** An e-mail to send: its kind, and the items it is about (by line id) where it names some. */
export interface EmailEvent {
  kind: EmailKind
  line_item_ids: string[]
}

export interface ReturnEvents {
  webhooks: WebhookEvent[]
  emails: EmailEvent[]
}

const atLastState = (item: ReturnStatus['items'][number]) => item.state === item.states.at(-1)

/** Refunded: there is money back, and it is issued at once or every item has reached its last step. */
export const refunded = (status: ReturnStatus | null) =>
  status !== null &&
  status.refund !== null &&
  (status.refund.issued_at !== undefined || (status.items.length > 0 && status.items.every(atLastState)))

/**
 * The events of one change: `before` is null when the return was just created. A staff or
 * operator move is always `return.updated`; `return.refunded` comes once, with the change that
 * refunds the return. E-mails say what the shopper would want to hear of: the return registered
 * (or, when the shop's rules flagged it, its request received), the review's answer (approved,
 * with the label, or rejected, with the reason: docs/lifecycle.md), items received, the refund
 * issued, the new item (an exchange's or the one taken with it) sent, the return cancelled.
 */
export function eventsOf(before: ReturnStatus | null, after: ReturnStatus): ReturnEvents {
  const webhooks: WebhookEvent[] = [before === null ? 'return.created' : 'return.updated']
  const emails: EmailEvent[] = []
  const was = new Map((before?.items ?? []).map((item) => [item.line_item_id, item]))
  const newly = (test: (item: ReturnStatus['items'][number]) => boolean) =>
    after.items
      .filter((item) => test(item) && !(was.has(item.line_item_id) && test(was.get(item.line_item_id)!)))
      .map((item) => item.line_item_id)
  const every = after.items.map((item) => item.line_item_id)
  if (before === null) emails.push({ kind: 'created', line_item_ids: every })
  const decided = before?.review?.state === 'pending' ? after.review?.state : undefined
  if (decided === 'approved' || decided === 'rejected') emails.push({ kind: decided, line_item_ids: every })
  const received = newly((item) => !item.keep && item.state === 'received')
  if (before !== null && received.length > 0) emails.push({ kind: 'received', line_item_ids: received })
  if (refunded(after) && !refunded(before)) {
    webhooks.push('return.refunded')
    emails.push({
      kind: 'refunded',
      line_item_ids: after.items.filter((item) => item.exchange_variant_title === null).map((i) => i.line_item_id),
    })
  }
  // An exchange's new variant ships when its item is done; the new item taken with the return
  // ships once the whole return is done (its state says `sent`).
  const exchanged = before === null ? [] : newly((item) => item.exchange_variant_title !== null && atLastState(item))
  const newItemSent = after.new_item?.state === 'sent' && before?.new_item?.state !== 'sent'
  if (exchanged.length > 0 || newItemSent) emails.push({ kind: 'new_item_sent', line_item_ids: exchanged })
  // Ended by staff (decision 0083): its own event; the shopper is told of a cancellation (the label
  // they hold no longer works), while a closing is for the shop's own reasons and shows on the status page.
  if (after.ended && !before?.ended) {
    webhooks.push(after.ended.state === 'cancelled' ? 'return.cancelled' : 'return.closed')
    if (after.ended.state === 'cancelled') emails.push({ kind: 'cancelled', line_item_ids: every })
  }
  return { webhooks, emails }
}

/**
 * The wait before each retry of a failed delivery (the Standard Webhooks schedule): 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h. Eight attempts over 27 h 35 min; after the last, it has failed.
 */
export const RETRY_DELAYS_MS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000].map((seconds) => seconds * 1000)

/** When to try again after failed attempt number `attempts` (1 is the first), or null: no more. */
export function retryAt(attempts: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1]
  return delay === undefined ? null : new Date(failedAt.getTime() + delay)
}

/** An endpoint that has failed every delivery for this long is disabled until staff enable it. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000
