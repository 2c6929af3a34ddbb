/**
 * The operator's API (docs/api.md): a shop file imported over HTTP, and a return's items moved on
 * by the operator, or by the carrier's and warehouse's systems.
 */
import type { ReturnItemState } from '../../../contract/api'
import type { PortalContext } from '../context'
import { keptItemCanReach, keptLineIds, lineState, transitionProblems } from '../domain/returnStatus'
import { signStatus } from '../domain/token'
import { importShop } from '../import/importShop'
import { findOrderById } from '../storage/orders'
import { writeReturnEvents } from '../storage/outbox'
import { findReturnedLines, recordAction, recordLineState } from '../storage/returnStates'
import { findReturnShopId } from '../storage/routesReturnShop'
import { deleteShop } from '../storage/shops'
import { notFound, Refusal } from './refusal'
import { returnStatus } from './returnStatus'
import { lockMovableReturn } from './staffMoves'

/** A shop file imported (a 400 `invalid_shop_file` naming its problems otherwise): the shop, and how many orders it has. */
export async function importShopFile(context: PortalContext, file: unknown) {
  const result = await importShop(context.db, file, context.now(), context.photos, {
    allowPrivateNetworks: context.events.allowPrivateNetworks,
    secret: context.secret,
  })
  if (!result.ok) throw new Refusal(400, { error: 'invalid_shop_file', message: result.errors.join('\n') })
  context.shops.forget()
  return result
}

/**
 * The shop deleted whole, its returns included (a demo reset, or a shop that leaves): the
 * operator's deliberate act, never an import's (docs/decisions/0072-import-keeps-returns.md).
 */
export async function deleteShopWhole(context: PortalContext, shopId: string): Promise<void> {
  const deleted = await context.db.transaction((tx) => deleteShop(tx, shopId))
  if (!deleted) throw notFound(`There is no shop "${shopId}".`)
  context.shops.forget()
  await context.photos.sweep(context.db)
}

/** A move of a return's items: to which state, which items (all it applies to when absent), by whom, why. */
export interface ItemMove {
  state: Exclude<ReturnItemState, 'requested'>
  line_item_ids?: string[] | undefined
  /** "operator" (the token API) or a staff member's e-mail */
  actor: string
  note: string | null
  /** only a return of this shop (the console's); another shop's is not found */
  shopId?: string
}

/**
 * Moves a return's items on under its lock (the rules of the status API: forward only, kept items
 * never in transit or received) and records who did it, for the return's timeline.
 */
export async function moveReturnItems(context: PortalContext, id: string, move: ItemMove) {
  const { state, line_item_ids: wanted } = move
  // The shop is read before the transaction: its cache reads through the database's own handle,
  // which on PGlite (one connection) would wait for the open transaction.
  const owner = await findReturnShopId(context.db, id)
  const shop = owner ? await context.shops.find(owner) : null
  if (!owner || !shop || (move.shopId !== undefined && owner !== move.shopId)) throw notFound('No such return.')
  const outcome = await context.db.transaction(async (tx) => {
    const locked = await lockMovableReturn(tx, id, shop.id)
    const kept = keptLineIds(locked.return_order)
    const lines = await findReturnedLines(tx, id)
    const order = await findOrderById(tx, locked.order_id)
    if (!order) throw notFound('No such return.')
    const unknown = (wanted ?? []).filter((lineId) => !lines.some((line) => line.line_item_id === lineId))
    if (unknown.length > 0)
      throw new Refusal(422, {
        error: 'invalid_transition',
        message: unknown.map((lineId) => `line_item_ids: "${lineId}" is not an item of this return`).join('; '),
      })
    // "Every item" means every item the state applies to: kept items are never in transit or
    // received, so a scan of the parcel passes them by; named explicitly, they are an error.
    const moving = wanted
      ? lines.filter((line) => wanted.includes(line.line_item_id))
      : lines.filter((line) => !kept.has(line.line_item_id) || keptItemCanReach(state))
    if (moving.length === 0)
      throw new Refusal(422, {
        error: 'invalid_transition',
        message: `state: every item of this return is kept by the shopper (nothing is sent back), so none is ever ${state.replace('_', ' ')}`,
      })
    const problems = transitionProblems(moving, state, kept)
    if (problems.length > 0) throw new Refusal(422, { error: 'invalid_transition', message: problems.join('; ') })
    const at = context.now()
    const ids = moving.map((line) => line.line_item_id)
    await recordLineState(tx, id, ids, state, at)
    await recordAction(tx, id, { at, actor: move.actor, state, lineItemIds: ids, note: move.note })
    const after = await findReturnedLines(tx, id)
    // What the world hears of (docs/events.md), written with the change.
    await writeReturnEvents(
      tx,
      id,
      await returnStatus(context, locked, order, shop, lines, tx),
      await returnStatus(context, locked, order, shop, after, tx),
      at,
    )
    return {
      return_id: id,
      status_token: signStatus(context.secret, id),
      items: after.map((line) => ({ line_item_id: line.line_item_id, state: lineState(line) })),
    }
  })
  context.events.nudge()
  return outcome
}
