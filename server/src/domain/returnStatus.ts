import { KEPT_ITEM_STATES, RETURN_ITEM_STATES } from '../../../contract/constants'
import type {
  RefundDeduction,
  RefundTiming,
  ReturnItemState,
  ReturnOrder,
  ReturnStatusItem,
  ReturnStatusRefund,
} from '../../../contract/api'
import type { ReturnedLine } from './returns'
import { refundAfterDeductions } from './inspection'
import { fromMinor, readMinor, toMinor } from '../../../contract/money'

const rank = (state: ReturnItemState) => RETURN_ITEM_STATES.indexOf(state)

/** The furthest state a line reached: `requested` until something else is recorded. */
export function lineState(line: Pick<ReturnedLine, 'events'>): ReturnItemState {
  return line.events.reduce<ReturnItemState>(
    (furthest, event) => (rank(event.state) > rank(furthest) ? event.state : furthest),
    'requested',
  )
}

/** The states reached, in order, with when: `requested` at the return's creation. */
export function lineHistory(line: Pick<ReturnedLine, 'events'>, createdAt: Date): ReturnStatusItem['history'] {
  const later = [...line.events]
    .sort((a, b) => rank(a.state) - rank(b.state))
    .map((event) => ({ state: event.state, at: event.at.toISOString() }))
  return [{ state: 'requested', at: createdAt.toISOString() }, ...later]
}

/** The line ids of a return the shopper keeps (its stored answer says; a return stored without one keeps nothing). */
export function keptLineIds(answer: Pick<ReturnOrder, 'items'> | null): Set<string> {
  return new Set((answer?.items ?? []).filter((item) => item.keep === true).map((item) => item.line_item_id))
}

/** Whether a kept item can ever reach `state`: only `requested` and `refunded` (nothing travels). */
export const keptItemCanReach = (state: ReturnItemState) =>
  (KEPT_ITEM_STATES as readonly ReturnItemState[]).includes(state)

/** Why one line cannot move to `target`, naming it as `name` says; null when it can. */
function lineProblem(
  line: Pick<ReturnedLine, 'line_item_id' | 'events'>,
  target: ReturnItemState,
  kept: ReadonlySet<string>,
  name: string,
): string | null {
  if (kept.has(line.line_item_id) && !keptItemCanReach(target))
    return `${name} is kept by the shopper (not sent back), so it is never ${target.replace('_', ' ')}`
  if (rank(lineState(line)) >= rank(target)) return `${name} is already ${lineState(line).replace('_', ' ')}`
  return null
}

/**
 * Why lines cannot move to `target`: states only move forward (a line already there or beyond
 * stays), and a line the shopper keeps is never in transit or received. An empty list means
 * every line may move.
 * @example transitionProblems([{ line_item_id: 'a', events: [] }], 'received') // []
 */
export function transitionProblems(
  lines: readonly Pick<ReturnedLine, 'line_item_id' | 'events'>[],
  target: ReturnItemState,
  kept: ReadonlySet<string> = new Set(),
): string[] {
  return lines.flatMap((line) => lineProblem(line, target, kept, `line_item_ids: "${line.line_item_id}"`) ?? [])
}

/**
 * A staff move of the items chosen (decision 0058): those that can still reach `target` move, and
 * each of the others is said in words by its title ("Classic Tee · M is already received"), as a
 * second staff member who acted on the same page a moment later needs to read it.
 * @example staffMovePlan([line], 'received', new Set(), () => 'Mug') // { moving: [line], skipped: [] }
 */
export function staffMovePlan<Line extends Pick<ReturnedLine, 'line_item_id' | 'events'>>(
  lines: readonly Line[],
  target: ReturnItemState,
  kept: ReadonlySet<string>,
  titleOf: (lineItemId: string) => string,
): { moving: Line[]; skipped: string[] } {
  const moving: Line[] = []
  const skipped: string[] = []
  for (const line of lines) {
    const problem = lineProblem(line, target, kept, titleOf(line.line_item_id))
    if (problem) skipped.push(problem)
    else moving.push(line)
  }
  return { moving, skipped }
}

/**
 * The lines a move to refunded would refund though they never arrived: sent back (not kept), and
 * not received yet. Refunding them needs staff to confirm the amount (decision 0056).
 */
export function refundedUnreceived<Line extends Pick<ReturnedLine, 'line_item_id' | 'events'>>(
  lines: readonly Line[],
  target: ReturnItemState,
  kept: ReadonlySet<string>,
): Line[] {
  if (target !== 'refunded') return []
  return lines.filter((line) => !kept.has(line.line_item_id) && rank(lineState(line)) < rank('received'))
}

const DAY_MS = 86_400_000

/** `days` after `from` (UTC), counting only Monday to Friday when `business`; 0 is `from` itself. */
export function addDays(from: Date, days: number, business: boolean): Date {
  if (!business) return new Date(from.getTime() + days * DAY_MS)
  let date = new Date(from.getTime())
  let left = days
  while (left > 0) {
    date = new Date(date.getTime() + DAY_MS)
    const weekday = date.getUTCDay()
    if (weekday !== 0 && weekday !== 6) left -= 1
  }
  return date
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/** The days the money is expected between, counted from `anchor` (submission or receipt). */
export function expectedWindow(timing: RefundTiming, anchor: Date): { from: string; to: string } {
  return {
    from: isoDay(addDays(anchor, timing.from_days, timing.business_days)),
    to: isoDay(addDays(anchor, timing.to_days, timing.business_days)),
  }
}

/** A refund counted from the submission; "at once" (0 to 0 days) was issued then, so it says when. */
function fromSubmission(
  method: ReturnStatusRefund['method'],
  amount: ReturnStatusRefund['amount'],
  timing: RefundTiming,
  createdAt: Date,
): ReturnStatusRefund {
  const refund = { method, amount, timing, expected: expectedWindow(timing, createdAt) }
  return timing.to_days === 0 ? { ...refund, issued_at: createdAt.toISOString() } : refund
}

/**
 * An item of a return whose refund was issued at its submission: a refunded item the shopper keeps
 * is refunded then; one sent back keeps the parcel's steps, and its money waits for none of them,
 * so "refunded" is not a step still to come. An exchanged item is untouched.
 */
export function issuedAtSubmission(item: ReturnStatusItem, exchanged: boolean, issuedAt: string): ReturnStatusItem {
  if (exchanged) return item
  if (!item.keep) return { ...item, states: item.states.filter((state) => state !== 'refunded') }
  if (item.history.some((step) => step.state === 'refunded')) return { ...item, state: 'refunded' }
  return { ...item, state: 'refunded', history: [...item.history, { state: 'refunded', at: issuedAt }] }
}

/**
 * The refund of a submitted return for its status page: amount, method, timing and, once what the
 * timing counts from has happened (submission, or every refunded item sent back received), the
 * dates. Items the shopper keeps wait for no parcel: when every refunded item is kept, a timing
 * "after receipt" counts from the submission. A refund at once counted from the submission says
 * when it was issued (`issued_at`). Null when nothing is refunded.
 */
export function statusRefund(
  answer: ReturnOrder | null,
  lines: readonly ReturnedLine[],
  createdAt: Date,
): ReturnStatusRefund | null {
  if (!answer) return null
  const amount = answer.breakdown.total.presentment_money
  // In minor units, as the answer's total was written (fromMinor): a float never decides it.
  const minor = readMinor(amount)
  if (minor === null || minor <= 0) return null
  const method = answer.refund_method ?? 'original_payment'
  const timing = answer.refund_timing?.[method] ?? null
  if (!timing) return { method, amount, timing: null, expected: null }
  if (timing.after === 'submit') return fromSubmission(method, amount, timing, createdAt)
  // Receipt: when the last of the refunded (not exchanged) items that are sent back arrived.
  const kept = keptLineIds(answer)
  const refunded = lines.filter((line) => line.exchange_variant_id === null)
  const sent = refunded.filter((line) => !kept.has(line.line_item_id))
  if (refunded.length > 0 && sent.length === 0) return fromSubmission(method, amount, timing, createdAt)
  const arrivals = sent.map(
    (line) =>
      line.events.find((event) => event.state === 'received')?.at ??
      (lineState(line) === 'refunded' ? line.events.find((event) => event.state === 'refunded')?.at : undefined),
  )
  if (sent.length === 0 || arrivals.some((at) => at === undefined)) return { method, amount, timing, expected: null }
  const last = new Date(Math.max(...arrivals.map((at) => at!.getTime())))
  return { method, amount, timing, expected: expectedWindow(timing, last) }
}

/**
 * The refund less what inspections took (docs/lifecycle.md): `amount` is what the shopper gets
 * back, never below zero, with the deductions per item and the amount before them. A refund
 * nothing was taken from is as it was, without either field.
 */
export function lessDeductions(
  refund: ReturnStatusRefund | null,
  deductions: readonly (Omit<RefundDeduction, 'amount'> & { amount_minor: number })[],
): ReturnStatusRefund | null {
  const taken = deductions.filter((deduction) => deduction.amount_minor > 0)
  if (!refund || taken.length === 0) return refund
  const currency = refund.amount.currency_code
  const before = toMinor(refund.amount.amount, currency)
  const money = (minor: number) => ({ amount: fromMinor(minor, currency), currency_code: currency })
  return {
    ...refund,
    amount: money(
      refundAfterDeductions(
        before,
        taken.map((deduction) => deduction.amount_minor),
      ),
    ),
    deductions: taken.map(({ amount_minor, ...deduction }) => ({ ...deduction, amount: money(amount_minor) })),
    before_deductions: refund.amount,
  }
}
