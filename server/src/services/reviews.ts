import type { ReviewDecided, ReviewDecision, ReviewQueue } from '../../../contract/staff'
import type { PortalContext } from '../context'
import { findOrderById } from '../storage/orders'
import { writeReturnEvents } from '../storage/outbox'
import { findReturnedLines, recordAction } from '../storage/returnStates'
import { decideReview, lockReturn } from '../storage/returns'
import { findShopReturn, listReviewQueue } from '../storage/staffReturns'
import { agentReviewLimit } from '../storage/staffInvites'
import { fromMinor, readMinor } from '../../../contract/money'
import { audit, type Author } from './audit'
import { returnStatus } from './returnStatus'
import { invalidRequest, Refusal } from './refusal'
import type { StaffSignedIn } from './staffSessions'

/** The shop's returns waiting for review, a page as the list's: staff decide 25 at a time, and the next come as these go. */
export const reviewQueue = (context: PortalContext, shopId: string): Promise<ReviewQueue> =>
  listReviewQueue(context.db, shopId, 25)

/**
 * Staff's decisions on returns waiting for review (docs/lifecycle.md), one or many at once: each
 * decided under its return's lock, or named with why it was not.
 */
export async function decideReviews(
  context: PortalContext,
  staff: StaffSignedIn,
  decision: ReviewDecision,
  author: Author,
): Promise<ReviewDecided> {
  const { return_ids: ids } = decision
  const reason = decision.reason?.trim() ?? ''
  if (decision.decision === 'reject' && reason === '')
    throw invalidRequest('reason: say why the return is rejected; the shopper reads it')
  await agentMayDecide(context, staff, ids)
  const decided: string[] = []
  const skipped: { id: string; message: string }[] = []
  for (const id of ids) {
    const outcome = await decideOne(context, staff.shop, id, {
      state: decision.decision === 'approve' ? 'approved' : 'rejected',
      reason: decision.decision === 'reject' ? reason : null,
      by: staff.member.email,
      author,
    })
    if (outcome === true) decided.push(id)
    else skipped.push({ id, message: outcome })
  }
  if (decided.length > 0) context.events.nudge()
  return { decided, skipped }
}

/**
 * One review decision under the return's lock (docs/lifecycle.md): recorded with who and why, on
 * the timeline, and told to the world as the status changes. True when decided; otherwise why not.
 */
async function decideOne(
  context: PortalContext,
  shopId: string,
  id: string,
  decision: { state: 'approved' | 'rejected'; reason: string | null; by: string; author: Author },
): Promise<true | string> {
  // Read before the transaction: the shop cache reads through the database's own handle.
  const shop = await context.shops.find(shopId)
  if (!shop) return 'No such return.'
  return context.db.transaction(async (tx) => {
    const locked = await lockReturn(tx, id)
    if (!locked || locked.shop_id !== shopId) return 'No such return.'
    if (locked.review !== 'pending')
      return `${locked.name} is not waiting for review${locked.review ? ` (already ${locked.review})` : ''}.`
    const order = await findOrderById(tx, locked.order_id)
    if (!order) return 'No such return.'
    const at = context.now()
    const lines = await findReturnedLines(tx, id)
    const before = await returnStatus(context, locked, order, shop, lines, tx)
    await decideReview(tx, locked, { state: decision.state, reason: decision.reason, by: decision.by, at })
    const after = await returnStatus(
      context,
      { ...locked, review: decision.state, review_reason: decision.reason, reviewed_at: at, reviewed_by: decision.by },
      order,
      shop,
      lines,
      tx,
    )
    await recordAction(tx, id, {
      at,
      actor: decision.by,
      kind: decision.state,
      state: null,
      lineItemIds: lines.map((line) => line.line_item_id),
      note: decision.state === 'approved' ? 'Approved after review' : `Rejected: ${decision.reason}`,
    })
    await writeReturnEvents(tx, id, before, after, at)
    await audit(tx, {
      shopId,
      at,
      ...decision.author,
      kind: `return.${decision.state}`,
      subject: id,
      detail: { return_name: locked.name, ...(decision.reason ? { reason: decision.reason } : {}) },
    })
    return true as const
  })
}

/**
 * An agent decides reviews of returns whose refund is at most the shop's review limit, when an
 * owner set one (docs/back-office.md, "Roles"); the whole decision is refused, before any return
 * is decided, when one of them is above it: a 403 `not_allowed` naming the limit and the returns.
 */
async function agentMayDecide(context: PortalContext, staff: StaffSignedIn, ids: readonly string[]): Promise<void> {
  if (staff.role !== 'agent') return
  const limit = await agentReviewLimit(context.db, staff.shop)
  if (limit === null) return
  const currency = (await context.shops.find(staff.shop))?.currency_code ?? 'EUR'
  const above: string[] = []
  for (const id of ids) {
    const found = await findShopReturn(context.db, staff.shop, id)
    const refund = found?.summary.refund
    if (!refund) continue
    const minor = readMinor(refund)
    if (minor !== null && minor > limit) above.push(found.summary.name)
  }
  if (above.length === 0) return
  throw new Refusal(403, {
    error: 'not_allowed',
    message: `Agents decide reviews of returns up to ${fromMinor(limit, currency)} ${currency}: ${above.join(', ')} ${above.length === 1 ? 'is' : 'are'} above it. Ask an owner or admin.`,
  })
}
