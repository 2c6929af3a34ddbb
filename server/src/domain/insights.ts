/**
 * What happened to a return's money (docs/back-office.md, Insights): the refund when it was
 * issued, after the inspections' deductions; an exchange's new item when it was sent; the new item
 * bought with the credit when it was sent. A return asked for and not yet refunded has moved no
 * money, and one waiting for review or rejected moves none (decision 0061).
 */
import { itemStates, RETURN_ITEM_STATES } from '../../../contract/constants'
import type { RefundMethod, ReturnItemState, ReturnOrder } from '../../../contract/api'
import { fromMinor, toMinor } from '../../../contract/money'
import type { ReturnedLine } from './returns'
import { refundAfterDeductions } from './inspection'
import { keptLineIds, statusRefund } from './returnStatus'

/** A return as the insights read it. */
export interface MoneyMoves {
  createdAt: Date
  /** when staff approved it, for a return that waited for review */
  approvedAt: Date | null
  answer: ReturnOrder
  lines: readonly ReturnedLine[]
  /** unit price paid per line, in minor units */
  unitPrices: ReadonlyMap<string, number>
  /** what inspections took off the refund, in minor units */
  deductedMinor: number
  currency: string
}

/** A sum of money that moved, and when. */
export interface Moved {
  minor: number
  at: Date
}

export interface Happened {
  refund: (Moved & { method: RefundMethod }) | null
  exchanges: Moved[]
  upsell: Moved | null
}

const rank = (state: ReturnItemState) => RETURN_ITEM_STATES.indexOf(state)

/**
 * The money a return moved, each sum with its moment. A refund issued at the submission (the
 * shop's "at once", or everything kept) moved then, or when staff approved the return; any other
 * when every item reached its last step, as the `refunded` e-mail and webhook say (events.ts).
 */
export function moneyMoves(moves: MoneyMoves): Happened {
  const { answer, lines, currency } = moves
  const kept = keptLineIds(answer)
  const refund = statusRefund(answer, lines, moves.createdAt)
  const atOnce = refund?.issued_at !== undefined
  const issuedAt = moves.approvedAt && moves.approvedAt > moves.createdAt ? moves.approvedAt : moves.createdAt
  /** When a line reached its last step; null while it has not. */
  const doneAt = (line: ReturnedLine): Date | null => {
    const exchanged = line.exchange_variant_id !== null
    let states = itemStates(kept.has(line.line_item_id))
    if (atOnce && !exchanged) {
      // Its money went at the submission: a kept item is done then, one sent back once it arrives.
      if (kept.has(line.line_item_id)) return issuedAt
      states = states.filter((state) => state !== 'refunded')
    }
    const last = rank(states.at(-1)!)
    const reached = line.events.filter((event) => rank(event.state) >= last).map((event) => event.at.getTime())
    return reached.length > 0 ? new Date(Math.min(...reached)) : null
  }
  const done = lines.map((line) => ({ line, at: doneAt(line) }))
  const finished =
    done.length > 0 && done.every((entry) => entry.at !== null)
      ? new Date(Math.max(...done.map((entry) => entry.at!.getTime())))
      : null
  const refundAt = atOnce ? issuedAt : finished
  return {
    refund:
      refund && refundAt
        ? {
            method: refund.method,
            minor: refundAfterDeductions(toMinor(refund.amount.amount, currency), [moves.deductedMinor]),
            at: refundAt,
          }
        : null,
    exchanges: done.flatMap(({ line, at }) =>
      line.exchange_variant_id !== null && at
        ? [{ minor: line.quantity * (moves.unitPrices.get(line.line_item_id) ?? 0), at }]
        : [],
    ),
    upsell:
      answer.new_item && finished
        ? { minor: toMinor(answer.new_item.price.shop_money.amount, currency), at: finished }
        : null,
  }
}

/** The insights' outcomes in minor units: what moved within [from, until). */
export function outcomesWithin(
  returns: readonly Happened[],
  from: Date,
  until: Date,
): { exchanges: number; upsells: number; store_credit: number; refunded: number } {
  const within = (moved: Moved | null): moved is Moved => moved !== null && moved.at >= from && moved.at < until
  const totals = { exchanges: 0, upsells: 0, store_credit: 0, refunded: 0 }
  for (const happened of returns) {
    if (within(happened.refund))
      totals[happened.refund.method === 'store_credit' ? 'store_credit' : 'refunded'] += happened.refund.minor
    for (const exchange of happened.exchanges) if (within(exchange)) totals.exchanges += exchange.minor
    if (within(happened.upsell)) totals.upsells += happened.upsell.minor
  }
  return totals
}

/** A figure of the insights: how many units, and their value as the shop showed it (a decimal string). */
export interface Tally {
  count: number
  value: string
}

export interface InsightRows {
  returns: number
  reasons: (Tally & { reason_id: string; label: string })[]
  products: (Tally & { title: string })[]
  /** what moved in the period: exchanged and new items sent, store credit issued, money refunded */
  outcomes: { exchanges: string; upsells: string; store_credit: string; refunded: string }
}

/** What the insights of a period are made of, as storage reads it (storage/insights.ts). */
export interface InsightFacts {
  /** returns asked for in the period */
  returns: number
  /** units and their value per reason (`key` its id) and per product (`key` its title) */
  tallies: (Tally & { kind: 'reason' | 'product'; key: string; label: string })[]
  /** the returns that may have moved money in the period */
  moved: MoneyMoves[]
}

/** The insights' outcomes in minor units, as outcomesWithin sums them. */
export type Outcomes = ReturnType<typeof outcomesWithin>

/**
 * The insights of [from, until): the reasons ranked, the ten products most returned, and what
 * moved in the period (worked out from the returns that may have moved money).
 */
export function summarizeInsights(facts: InsightFacts, from: Date, until: Date, currency: string): InsightRows {
  return rankInsights(facts, outcomesWithin(facts.moved.map(moneyMoves), from, until), currency)
}

/**
 * The insights from their tallies: the reasons ranked, the ten products most returned, and the
 * outcomes' sums (in minor units) as decimal strings.
 */
export function rankInsights(
  facts: Pick<InsightFacts, 'returns' | 'tallies'>,
  outcomes: Outcomes,
  currency: string,
): InsightRows {
  // Most units first; a tie by name, so the order never changes between two looks.
  const ranked = (kind: 'reason' | 'product') =>
    facts.tallies
      .filter((row) => row.kind === kind)
      .map((row) => ({ key: row.key, label: row.label, count: Number(row.count), value: row.value }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return {
    returns: facts.returns,
    reasons: ranked('reason').map(({ key, label, count, value }) => ({ reason_id: key, label, count, value })),
    products: ranked('product')
      .slice(0, 10)
      .map(({ key, count, value }) => ({ title: key, count, value })),
    outcomes: {
      exchanges: fromMinor(outcomes.exchanges, currency),
      upsells: fromMinor(outcomes.upsells, currency),
      store_credit: fromMinor(outcomes.store_credit, currency),
      refunded: fromMinor(outcomes.refunded, currency),
    },
  }
}
