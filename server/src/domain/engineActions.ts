/**
 * What Rebound asks a shop's commerce engine to do for a return (docs/commerce.md): written to the
 * outbox with the change that calls for it, carried out by the engine's adapter
 * (server/src/commerce). Ids are the engine's, as the order read from it has them; amounts are
 * integer minor units.
 */
import type { ReturnOrder, ReturnStatus, ReturnStatusItem } from '../../../contract/api'
import { toMinor } from '../../../contract/money'
import { refunded } from './events'
import type { ReturnedLine } from './returns'

/** A line of an order in the engine: its ids are the engine's, as Rebound stores them. */
export interface EngineLine {
  line_item_id: string
  quantity: number
}

/** What Rebound asks the engine to do for a return. Amounts are integer minor units. */
export type EngineAction =
  /** open the return in the engine, so the shop's own admin shows it (on submit) */
  | { kind: 'request_return'; order_id: string; items: EngineLine[]; note: string }
  /** receive the items of the return opened under `return_key`: restocked ones raise the stock */
  | {
      kind: 'receive_return'
      order_id: string
      return_key: string
      items: (EngineLine & { restock: boolean })[]
    }
  /** cancel the return opened under `return_key`: Rebound's return was cancelled (decision 0088) */
  | { kind: 'cancel_return'; order_id: string; return_key: string }
  /** refund on the order's payment */
  | { kind: 'refund'; order_id: string; amount_minor: number; note: string }
  /** a single-use code of the amount the shopper can spend in the store */
  | { kind: 'store_credit'; code: string; amount_minor: number; currency: string; email: string }
  /** an exchange order for the new items */
  | {
      kind: 'exchange'
      order_id: string
      return_items: EngineLine[]
      new_items: { variant_id: string; quantity: number }[]
    }

export type EngineActionKind = EngineAction['kind']

/** What an action left in the engine: the id of what it made (or found made), and whether it was done before. */
export interface EngineOutcome {
  reference: string | null
  alreadyDone: boolean
}

/** An action already written for a return: its outbox row's id (the action's key) and the action. */
export interface WrittenAction {
  id: string
  action: EngineAction
}

/** An inspection of one item, or of one unit of it, as the engine's receipt reads it. */
export interface InspectedItem {
  line_item_id: string
  /** it came back (every condition but `missing`) */
  arrived: boolean
  /** its disposition was `restock` */
  restock: boolean
  /** the units it is of: 1 for a unit inspected on its own; absent for every unit of the line (decision 0085) */
  quantity?: number
}

/** What Rebound knows of a return of an order that comes from the engine, after a change. */
export interface EngineReturn {
  /** the order's id in the engine */
  order_id: string
  /** the return as its status page reads it after the change, with its store credit once issued */
  status: ReturnStatus
  /** the return's lines: the exchange's variant, and whether it was received */
  lines: readonly Pick<ReturnedLine, 'line_item_id' | 'exchange_variant_id' | 'events'>[]
  /** the stored answer of the return: its reasons and what it refunds at most */
  answer: Pick<ReturnOrder, 'items' | 'refund_value'> | null
  inspections: readonly InspectedItem[]
  /** the shopper's e-mail, for store credit */
  email: string
}

const atLastState = (item: ReturnStatusItem) => item.state === item.states.at(-1)

/** The words Rebound leaves on what it makes in the engine: the return's number and its reasons. */
export function engineNote(name: string, reasons: readonly string[]): string {
  const unique = [...new Set(reasons)]
  return unique.length > 0 ? `Rebound ${name}: ${unique.join('; ')}` : `Rebound ${name}`
}

/**
 * The actions a return of an engine's order still asks of the engine (docs/commerce.md, decision
 * 0078), derived from what the return is now and the actions written for it before: one home for
 * when each is written, and a change told twice (a retried request) writes nothing more.
 *
 * - `request_return` once the return is open (not waiting for review, not rejected): the items
 *   sent back and refunded, not those the shopper keeps (they never travel) nor the exchanged ones
 *   (the engine's exchange brings those back).
 * - `receive_return` once, when every item of that return is settled: inspected, or at its last
 *   step. It receives the units that arrived, restocked when their inspection said `restock`, the
 *   others dismissed: a line inspected unit by unit may be both (decision 0085); a missing unit or
 *   an item refunded unreceived is not received. Nothing arrived: nothing is written.
 * - `refund` or `store_credit` once, with the change that refunds the return (as `return.refunded`):
 *   the refund after the inspections' deductions, never more than the return refunds to the payment;
 *   the store credit as issued, with its code.
 * - `exchange` for the exchanged items that reached their last step (their new item released),
 *   each item once; and one for the new item taken with the return, once it is sent.
 * - `cancel_return` once, when the return ended `cancelled` after its `request_return` was written
 *   (decision 0088). It names the request's row, and the outbox carries out a return's rows in
 *   order: it waits while the request is pending, so it cancels what the request opened, or, the
 *   request failed for good, finds nothing to cancel.
 *
 * A `receive_return` needs the id of its `request_return`: the caller writes the first action due,
 * adds it to `written`, and asks again until nothing is due.
 */
export function engineActionsDue(input: EngineReturn, written: readonly WrittenAction[]): EngineAction[] {
  const { status, order_id } = input
  const currency = status.refund?.amount.currency_code
  const due: EngineAction[] = []
  const byLine = new Map(input.lines.map((line) => [line.line_item_id, line]))
  const exchangeOf = (item: ReturnStatusItem) => byLine.get(item.line_item_id)?.exchange_variant_id ?? null
  const reasonOf = new Map((input.answer?.items ?? []).map((item) => [item.line_item_id, item.reason_label]))
  const note = (items: readonly { line_item_id: string }[]) =>
    engineNote(
      status.return_name,
      items.flatMap((item) => reasonOf.get(item.line_item_id) ?? []),
    )
  const kinds = new Set(written.map((entry) => entry.action.kind))

  const open = status.review?.state !== 'pending' && status.review?.state !== 'rejected' && !status.ended
  const sentBack = status.items.filter((item) => !item.keep && exchangeOf(item) === null)
  if (open && sentBack.length > 0 && !kinds.has('request_return'))
    due.push({
      kind: 'request_return',
      order_id,
      items: sentBack.map((item) => ({ line_item_id: item.line_item_id, quantity: item.quantity })),
      note: note(sentBack),
    })

  const request = written.find((entry) => entry.action.kind === 'request_return')
  if (request?.action.kind === 'request_return' && !kinds.has('receive_return')) {
    const inspected = new Map<string, InspectedItem[]>()
    for (const item of input.inspections)
      inspected.set(item.line_item_id, [...(inspected.get(item.line_item_id) ?? []), item])
    const items = new Map(status.items.map((item) => [item.line_item_id, item]))
    const settled = request.action.items.every((line) => {
      const item = items.get(line.line_item_id)
      return inspected.has(line.line_item_id) || (item !== undefined && atLastState(item))
    })
    const arrived = request.action.items.flatMap((line) => {
      const inspections = inspected.get(line.line_item_id)
      if (!inspections) {
        const received = byLine.get(line.line_item_id)?.events.some((event) => event.state === 'received') ?? false
        return received ? [{ ...line, restock: false }] : []
      }
      // The units that came back, restocked or not: a line may be received in two parts.
      const count = (restock: boolean) =>
        inspections
          .filter((unit) => unit.arrived && unit.restock === restock)
          .reduce((sum, unit) => sum + (unit.quantity ?? line.quantity), 0)
      return [true, false].flatMap((restock) => {
        const quantity = Math.min(count(restock), line.quantity)
        return quantity > 0 ? [{ line_item_id: line.line_item_id, quantity, restock }] : []
      })
    })
    if (settled && arrived.length > 0)
      due.push({ kind: 'receive_return', order_id, return_key: request.id, items: arrived })
  }
  // Cancelled only while nothing was received (decision 0083): a receipt written means no cancel.
  if (request && status.ended?.state === 'cancelled' && !kinds.has('cancel_return') && !kinds.has('receive_return'))
    due.push({ kind: 'cancel_return', order_id, return_key: request.id })

  if (refunded(status) && status.refund && !kinds.has('refund') && !kinds.has('store_credit') && currency) {
    const credit = status.refund.store_credit
    if (status.refund.method === 'store_credit') {
      const amount = credit ? toMinor(credit.amount.amount, credit.amount.currency_code) : 0
      if (credit && amount > 0)
        due.push({
          kind: 'store_credit',
          code: credit.code,
          amount_minor: amount,
          currency: credit.amount.currency_code,
          email: input.email,
        })
    } else {
      // Never more than the return refunds to the payment, as it was priced (decision 0078).
      const ceiling = input.answer ? toMinor(input.answer.refund_value.presentment_money.amount, currency) : 0
      const amount = Math.min(toMinor(status.refund.amount.amount, currency), ceiling)
      if (amount > 0) due.push({ kind: 'refund', order_id, amount_minor: amount, note: note(status.items) })
    }
  }

  const exchangedBefore = new Set(
    written.flatMap((entry) =>
      entry.action.kind === 'exchange' ? entry.action.return_items.map((line) => line.line_item_id) : [],
    ),
  )
  const released = status.items.filter(
    (item) => exchangeOf(item) !== null && atLastState(item) && !exchangedBefore.has(item.line_item_id),
  )
  if (released.length > 0)
    due.push({
      kind: 'exchange',
      order_id,
      return_items: released.map((item) => ({ line_item_id: item.line_item_id, quantity: item.quantity })),
      new_items: released.map((item) => ({ variant_id: exchangeOf(item)!, quantity: item.quantity })),
    })
  // The new item taken with the return: an exchange of nothing for it (it is paid from the refund).
  const newItemBefore = written.some(
    (entry) => entry.action.kind === 'exchange' && entry.action.return_items.length === 0,
  )
  if (status.new_item?.state === 'sent' && !newItemBefore)
    due.push({
      kind: 'exchange',
      order_id,
      return_items: [],
      new_items: [{ variant_id: status.new_item.variant_id, quantity: 1 }],
    })
  return due
}
