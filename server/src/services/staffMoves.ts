/**
 * Staff moving a return's items on from its page (docs/back-office.md): the rules of the operator's
 * status API (forward only, kept items only to refunded), with what a person at a screen needs on
 * top: what another staff member moved first is named by its title and the rest still moves
 * (decision 0058), and items refunded before they arrived need the amount confirmed (decision 0056).
 */
import type { Money, ReturnStatus } from '../../../contract/api'
import type { StaffStateChange } from '../../../contract/staff'
import type { PortalContext } from '../context'
import { keptLineIds, refundedUnreceived, staffMovePlan } from '../domain/returnStatus'
import { waitsOrRejected } from '../domain/review'
import { findOrderById } from '../storage/orders'
import { writeReturnEvents } from '../storage/outbox'
import { findReturnedLines, recordAction, recordLineState } from '../storage/returnStates'
import type { Queryable } from '../storage/database'
import { lockReturn } from '../storage/returns'
import { audit, type Author } from './audit'
import { notFound, Refusal } from './refusal'
import { returnStatus } from './returnStatus'

export interface StaffMove {
  shopId: string
  actor: string
  change: StaffStateChange
  /** who moves them, from where: for the audit log */
  author: Author
}

/** Moved: the items moved now and the items chosen that could not move, both in words. */
export interface StaffMoved {
  moved: string[]
  skipped: string[]
}

/** An item as staff read it on the page: "Classic Tee · M". */
const itemName = (item: ReturnStatus['items'][number]) =>
  item.variant_title ? `${item.title} · ${item.variant_title}` : item.title

/** Names in a sentence: "A", "A and B", "A, B and C". */
const listed = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`

/** What the refund the move would complete comes to: null when no money is paid by it (an exchange, or a refund issued at submission). */
const moneyOf = (before: ReturnStatus): Money | null =>
  before.refund && before.refund.issued_at === undefined ? before.refund.amount : null

/** The amount as staff confirm it: the decimal the refund comes to, "0" when the move pays nothing. */
export const confirmationOf = (amount: Money | null) => amount?.amount ?? '0'

/** What refunding items that never arrived would do, in words, asking for the amount to be confirmed. */
function unreceivedWords(
  unreceived: readonly { line_item_id: string; exchange_variant_id: string | null }[],
  nameOf: (lineId: string) => string,
  amount: Money | null,
): string {
  const one = unreceived.length === 1
  const them = one ? 'it' : 'them'
  const effects = [
    ...(amount ? [`counts ${them} in the return's refund of ${amount.amount} ${amount.currency_code}`] : []),
    ...(unreceived.some((line) => line.exchange_variant_id !== null) ? ['sends the new item'] : []),
  ]
  const items = listed(unreceived.map((line) => nameOf(line.line_item_id)))
  return (
    `${items} ${one ? 'has' : 'have'} not been received. Marking ${them} refunded ` +
    `${effects.length > 0 ? listed(effects) : `closes ${them}`}, tells the shopper and cannot be undone: ` +
    'confirm to go on.'
  )
}

/**
 * Moves the chosen items (every item when none is named) on, under the return's lock, and records
 * who did it and why for the timeline.
 */
/**
 * The return `id` of `shopId`, locked for this transaction (one change of a return at a time: two
 * scans at once cannot both move an item), if its items may move: nothing travels before the shop
 * approves, and nothing after it rejects (docs/lifecycle.md). Otherwise the refusal.
 */
export async function lockMovableReturn(tx: Queryable, id: string, shopId: string) {
  const locked = await lockReturn(tx, id)
  if (!locked || locked.shop_id !== shopId) throw notFound('No such return.')
  if (waitsOrRejected(locked))
    throw new Refusal(409, {
      error: 'not_approved',
      message:
        locked.review === 'pending'
          ? 'This return is waiting for review: approve it before its items move on.'
          : 'This return was rejected: its items do not move on.',
    })
  if (locked.ended)
    throw new Refusal(409, {
      error: `return_${locked.ended}`,
      message: `This return was ${locked.ended}: its items do not move on.`,
    })
  return locked
}

export async function moveStaffItems(context: PortalContext, id: string, move: StaffMove): Promise<StaffMoved> {
  const { state, line_item_ids: wanted, note, confirm_amount: confirmed } = move.change
  // The shop is read before the transaction: on PGlite (one connection) its cache would wait for it.
  const shop = await context.shops.find(move.shopId)
  if (!shop) throw notFound('No such return.')
  const outcome = await context.db.transaction(async (tx): Promise<StaffMoved> => {
    const locked = await lockMovableReturn(tx, id, shop.id)
    const order = await findOrderById(tx, locked.order_id)
    if (!order) throw notFound('No such return.')
    const lines = await findReturnedLines(tx, id)
    const unknown = (wanted ?? []).filter((lineId) => !lines.some((line) => line.line_item_id === lineId))
    if (unknown.length > 0)
      throw new Refusal(422, {
        error: 'invalid_transition',
        message: unknown.map((lineId) => `line_item_ids: "${lineId}" is not an item of this return`).join('; '),
      })
    const before = await returnStatus(context, locked, order, shop, lines, tx)
    const names = new Map(before.items.map((item) => [item.line_item_id, itemName(item)]))
    const nameOf = (lineId: string) => names.get(lineId) ?? 'An item'
    const kept = keptLineIds(locked.return_order)
    const chosen = wanted ? lines.filter((line) => wanted.includes(line.line_item_id)) : lines
    const { moving, skipped } = staffMovePlan(chosen, state, kept, nameOf)
    if (moving.length === 0)
      throw new Refusal(422, { error: 'invalid_transition', message: `Nothing moved: ${skipped.join('; ')}.` })
    const unreceived = refundedUnreceived(moving, state, kept)
    const amount = moneyOf(before)
    if (unreceived.length > 0 && confirmed !== confirmationOf(amount))
      throw new Refusal(409, {
        error: 'confirm_refund',
        message: unreceivedWords(unreceived, nameOf, amount),
        amount,
      })
    const at = context.now()
    const ids = moving.map((line) => line.line_item_id)
    await recordLineState(tx, id, ids, state, at)
    await recordAction(tx, id, { at, actor: move.actor, state, lineItemIds: ids, note: note?.trim() || null })
    const after = await returnStatus(context, locked, order, shop, await findReturnedLines(tx, id), tx)
    // What the world hears of (docs/events.md), written with the change.
    await writeReturnEvents(tx, id, before, after, at)
    const detail = {
      return_name: locked.name,
      state,
      items: ids.map(nameOf),
      ...(note?.trim() ? { note: note.trim() } : {}),
    }
    await audit(tx, { shopId: shop.id, at, ...move.author, kind: 'return.items_moved', subject: id, detail })
    return { moved: ids.map(nameOf), skipped }
  })
  context.events.nudge()
  return outcome
}
