/**
 * Staff's daily work on one return (docs/back-office.md): a note on its timeline, cancelling it
 * before anything was received, closing it with a reason (decision 0083), and sending one of its
 * shopper's e-mails again. Each change and its audit entry are written in one transaction.
 */
import type { EmailResent, ReturnDetail } from '../../../contract/staff'
import type { PortalContext } from '../context'
import type { EmailPayload } from '../storage/outbox'
import { copyEmail, findOutboxRow, writeReturnEvents } from '../storage/outbox'
import { findOrderById } from '../storage/orders'
import { findReturnedLines, recordAction } from '../storage/returnStates'
import { endReturn, lockReturn } from '../storage/returns'
import { audit, staffActor } from './audit'
import { notFound, Refusal } from './refusal'
import { returnStatus } from './returnStatus'
import { returnDetail } from './staffReturns'
import type { StaffSignedIn } from './staffSessions'

/** Who acts, and from where: the audit log's actor and address. */
export interface StaffRequest {
  staff: StaffSignedIn
  address: string | null
}

/** A note on the return's timeline, with who and when; nothing moves. */
export async function addNote(
  context: PortalContext,
  by: StaffRequest,
  id: string,
  text: string,
): Promise<ReturnDetail> {
  const note = text.trim()
  await context.db.transaction(async (tx) => {
    const locked = await lockReturn(tx, id)
    if (!locked || locked.shop_id !== by.staff.shop) throw notFound('No such return.')
    const at = context.now()
    await recordAction(tx, id, { at, actor: by.staff.member.email, kind: 'note', state: null, lineItemIds: [], note })
    await audit(tx, {
      shopId: by.staff.shop,
      at,
      actor: staffActor(by.staff),
      address: by.address,
      kind: 'return.note_added',
      subject: id,
      detail: { return_name: locked.name, length: note.length },
    })
  })
  return returnDetail(context, by.staff.shop, id)
}

/**
 * Ends the return (decision 0083): `cancelled` only while none of its items was received or
 * refunded (its units may be returned again, the shopper is told, the label stops working);
 * `closed` whatever its items' states, with a reason, refunding nothing. Either is told to the
 * shop's webhooks, and once ended a return does not move again.
 */
export async function endShopReturn(
  context: PortalContext,
  by: StaffRequest,
  id: string,
  ending: { state: 'cancelled' | 'closed'; reason: string | null },
): Promise<ReturnDetail> {
  const shop = await context.shops.find(by.staff.shop)
  if (!shop) throw notFound('No such return.')
  await context.db.transaction(async (tx) => {
    const locked = await lockReturn(tx, id)
    if (!locked || locked.shop_id !== shop.id) throw notFound('No such return.')
    if (locked.ended)
      throw new Refusal(409, { error: 'already_ended', message: `${locked.name} is already ${locked.ended}.` })
    const order = await findOrderById(tx, locked.order_id)
    if (!order) throw notFound('No such return.')
    const lines = await findReturnedLines(tx, id)
    const before = await returnStatus(context, locked, order, shop, lines, tx)
    if (ending.state === 'cancelled') {
      const moved = before.items.filter((item) => item.state === 'received' || item.state === 'refunded')
      if (moved.length > 0)
        throw new Refusal(409, {
          error: 'not_cancellable',
          message: `${locked.name} cannot be cancelled: ${moved
            .map((item) => `${item.title}${item.variant_title ? ` · ${item.variant_title}` : ''} is ${item.state}`)
            .join(', ')}. Close it with a reason instead.`,
        })
    }
    const at = context.now()
    const actor = by.staff.member.email
    await endReturn(tx, locked, { ...ending, by: actor, at })
    const ended = { ...locked, ended: ending.state, ended_reason: ending.reason, ended_at: at, ended_by: actor }
    const after = await returnStatus(context, ended, order, shop, lines, tx)
    await recordAction(tx, id, {
      at,
      actor,
      kind: ending.state,
      state: null,
      lineItemIds: lines.map((line) => line.line_item_id),
      note: ending.reason,
    })
    await writeReturnEvents(tx, id, before, after, at)
    await audit(tx, {
      shopId: shop.id,
      at,
      actor: staffActor(by.staff),
      address: by.address,
      kind: ending.state === 'cancelled' ? 'return.cancelled' : 'return.closed',
      subject: id,
      detail: { return_name: locked.name, ...(ending.reason === null ? {} : { reason: ending.reason }) },
    })
  })
  context.events.nudge()
  return returnDetail(context, shop.id, id)
}

/** Writes one of the shop's e-mails to its shopper again, as a new e-mail in the outbox. */
export async function resendEmail(context: PortalContext, by: StaffRequest, emailId: string): Promise<EmailResent> {
  const resent = await context.db.transaction(async (tx) => {
    const row = await findOutboxRow(tx, by.staff.shop, emailId)
    if (!row || row.channel !== 'email') throw notFound('No such e-mail.')
    const at = context.now()
    const id = await copyEmail(tx, row, at)
    await audit(tx, {
      shopId: by.staff.shop,
      at,
      actor: staffActor(by.staff),
      address: by.address,
      kind: 'email.resent',
      subject: row.return_id,
      detail: {
        email: emailId,
        resent_as: id,
        kind: (row.payload as EmailPayload).kind,
        email_subject: row.message?.subject ?? null,
      },
    })
    return { id, subject: row.message?.subject ?? null }
  })
  context.events.nudge()
  return resent
}
