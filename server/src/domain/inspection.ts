/**
 * Receiving and inspection (docs/lifecycle.md): which items of a return the warehouse may
 * inspect, what an inspection takes off the refund, and which variants it puts back on sale.
 * Pure: the routes read and write, these decide.
 */
import type { DISPOSITIONS, INSPECTION_CONDITIONS, REVIEW_STATES } from '../../../contract/constants'
import type { ReturnItemState } from '../../../contract/api'
import type { Deductions, ShopPolicy } from '../../../contract/policy'
import type { HeldExchange, InspectionRequest } from '../../../contract/staff'
import { orderNameKey } from './normalize'

export type InspectionCondition = (typeof INSPECTION_CONDITIONS)[number]
export type Disposition = (typeof DISPOSITIONS)[number]

/**
 * What an inspection takes off one item's refund, in minor units: the percent of what the
 * shopper paid, rounded down (in the shopper's favour, as every rounding of a refund).
 * @example deductionMinor(4500, 10) === 450
 */
export function deductionMinor(paidMinor: number, percent: number): number {
  // In integers throughout: a float product of a large amount could land a cent off.
  return Number((BigInt(paidMinor) * BigInt(percent)) / 100n)
}

/**
 * The shop's percent for the condition found; a condition its policy does not name takes nothing,
 * but a missing item, unless the shop says otherwise, is not refunded at all (decision 0057).
 */
export function deductionPercent(deductions: Deductions | undefined, condition: InspectionCondition): number {
  return deductions?.[condition] ?? (condition === 'missing' ? 100 : 0)
}

/** The conditions that always hold an exchange: the shop cannot send a new item for what it did not get back. */
export const ALWAYS_HOLDING: readonly InspectionCondition[] = ['wrong_item', 'missing']

/**
 * The conditions that hold an exchange for a staff decision (decision 0055): a wrong or missing
 * item always, and those the shop's policy adds (`hold`).
 * @example holdingConditions({ hold: ['damaged'] }).has('damaged') === true
 */
export function holdingConditions(policy: Pick<ShopPolicy, 'hold'>): Set<InspectionCondition> {
  return new Set([...ALWAYS_HOLDING, ...(policy.hold ?? [])])
}

/** The refund less what inspections took, never below zero. @example refundAfterDeductions(1000, [300, 800]) === 0 */
export function refundAfterDeductions(beforeMinor: number, deductions: readonly number[]): number {
  return Math.max(0, beforeMinor - deductions.reduce((sum, amount) => sum + amount, 0))
}

/** Why a return's items cannot be inspected while it waits for review or after it was rejected; null when they can. */
export function reviewRefusal(review: (typeof REVIEW_STATES)[number] | null): string | null {
  if (review === 'pending') return 'This return is waiting for review: approve it before its items are inspected.'
  if (review === 'rejected') return 'This return was rejected: its items are not inspected.'
  return null
}

/** A line of the return as inspection judges it. */
export interface InspectableLine {
  /** the shopper keeps it: it is never sent back */
  kept: boolean
  state: ReturnItemState
  inspected: boolean
  /** the units returned: a request's `units` names each of them */
  quantity: number
}

/** What an inspection found of one unit, or of every unit of its line (docs/decisions/0085-inspection-per-unit.md). */
type FoundUnit = NonNullable<InspectionRequest['items'][number]['units']>[number]

/**
 * What the request says of each unit of an item: its `units`, one for each; or its `condition`
 * (and disposition), which is every unit's. Empty when it says neither.
 */
export function unitsOf(item: InspectionRequest['items'][number]): FoundUnit[] {
  if (item.units) return item.units
  if (item.condition === undefined) return []
  return [{ condition: item.condition, ...(item.disposition ? { disposition: item.disposition } : {}) }]
}

/**
 * Every reason the request cannot be recorded, each naming its field: an item not of this return,
 * kept, already inspected or refunded, or listed twice; a condition for the whole line and for
 * its units too, or for neither, or units not one for each unit returned; a disposition left out
 * (but for a missing unit); a photo that is not one staff took of that item (`staffPhotos`: the
 * return's staff photos, by id, with the line each was taken of). Empty when it can.
 */
export function inspectionProblems(
  items: InspectionRequest['items'],
  lines: ReadonlyMap<string, InspectableLine>,
  staffPhotos: ReadonlyMap<string, string>,
  /** the item as staff read it ("Rain Jacket"): a line that another inspection took first is named so */
  nameOf?: (lineItemId: string) => string,
): string[] {
  const seen = new Set<string>()
  return items.flatMap((item, index) => {
    const field = `items[${index}]`
    const id = item.line_item_id
    const line = lines.get(id)
    const twice = seen.has(id)
    seen.add(id)
    if (twice) return [`${field}.line_item_id: "${id}" is listed twice`]
    if (!line) return [`${field}.line_item_id: "${id}" is not an item of this return`]
    const named = nameOf ? `${field}: ${nameOf(id)}` : `${field}.line_item_id: "${id}"`
    if (line.kept) return [`${named} is kept by the shopper (never sent back), so it is not inspected`]
    if (line.inspected) return [`${named} is already inspected`]
    if (line.state === 'refunded') return [`${named} is already refunded`]
    if (item.units && (item.condition !== undefined || item.disposition !== undefined))
      return [`${field}: give the condition of the item or of each of its units, not both`]
    if (!item.units && item.condition === undefined)
      return [`${field}.condition: say what condition the item came back in`]
    if (item.units && item.units.length !== line.quantity)
      return [
        `${field}.units: one for each of the ${line.quantity} ${line.quantity === 1 ? 'unit' : 'units'} returned, not ${item.units.length}`,
      ]
    const undisposed = unitsOf(item).findIndex((unit) => unit.disposition === undefined && unit.condition !== 'missing')
    if (undisposed >= 0)
      return [
        `${item.units ? `${field}.units[${undisposed}]` : field}.disposition: say what becomes of the item (restock, refurbish or dispose)`,
      ]
    return (item.photo_ids ?? []).flatMap((photoId, photoIndex) =>
      staffPhotos.get(photoId) === id
        ? []
        : [`${field}.photo_ids[${photoIndex}]: "${photoId}" is not a photo staff took of this item of this return`],
    )
  })
}

/** A line as its deduction and restock are worked out. */
export interface PricedLine {
  /** what the shopper paid for one unit returned, minor units */
  unitPaidMinor: number
  /** the units returned */
  quantity: number
  /** exchanged for another variant: nothing of it is refunded */
  exchanged: boolean
  /** the returned unit's variant, when the shop's catalogue has it; null otherwise */
  catalogueVariantId: string | null
}

/** What an inspection recorded of one unit of an item, or of every unit of it (unit 0). */
export interface PlannedUnit {
  /** 1 to the line's quantity; 0 for the whole line, every unit in this condition (docs/decisions/0085-inspection-per-unit.md) */
  unit: number
  /** the units it stands for: 1, or the line's quantity for unit 0 */
  quantity: number
  condition: InspectionCondition
  /** null for a missing unit: nothing came back to restock, refurbish or dispose of */
  disposition: Disposition | null
  /** the percent taken; 0 when nothing is (an exchange, a return that refunds nothing) */
  percent: number
  /** what it takes: the percent of each unit's price paid, rounded down, times its units */
  deduction_minor: number
  /** the variant a `restock` puts back on sale; null otherwise */
  restock_variant_id: string | null
}

/** One item's inspection as it is recorded: its units, and what they come to. */
export interface PlannedInspection {
  line_item_id: string
  units: PlannedUnit[]
  note: string | null
  photo_ids: string[]
  /** what its units take off the refund, summed */
  deduction_minor: number
  /** the variant put back on sale when any unit is restocked; null otherwise */
  restock_variant_id: string | null
  /** something of it came back (a unit in any condition but `missing`): it is marked received */
  arrived: boolean
  /** an exchange with a unit in a holding condition: its new item waits for staff (decision 0055) */
  held: boolean
  /** the condition that holds it (the first unit's found in one); null when not held */
  held_condition: InspectionCondition | null
}

/**
 * Each item's deductions, restock and hold, unit by unit (docs/decisions/0085-inspection-per-unit.md). `refunds` is
 * false when the return refunds nothing an inspection could take from (no money back, or a refund
 * already issued at submission): then nothing is deducted. A missing unit is never restocked and
 * has no disposition. Call with items that passed inspectionProblems.
 */
export function planInspection(
  items: InspectionRequest['items'],
  lines: ReadonlyMap<string, PricedLine>,
  policy: Pick<ShopPolicy, 'deductions' | 'hold'>,
  refunds: boolean,
): PlannedInspection[] {
  const holding = holdingConditions(policy)
  return items.map((item) => {
    const line = lines.get(item.line_item_id)
    const deducts = refunds && line !== undefined && !line.exchanged
    const found = unitsOf(item)
    const units = found.map((unit, index): PlannedUnit => {
      const quantity = item.units ? 1 : (line?.quantity ?? 1)
      const percent = deducts ? deductionPercent(policy.deductions, unit.condition) : 0
      const disposition = unit.condition === 'missing' ? null : (unit.disposition ?? null)
      return {
        unit: item.units ? index + 1 : 0,
        quantity,
        condition: unit.condition,
        disposition,
        percent,
        deduction_minor: deducts ? quantity * deductionMinor(line.unitPaidMinor, percent) : 0,
        restock_variant_id: disposition === 'restock' ? (line?.catalogueVariantId ?? null) : null,
      }
    })
    const heldBy = line?.exchanged === true ? units.find((unit) => holding.has(unit.condition)) : undefined
    return {
      line_item_id: item.line_item_id,
      units,
      note: item.note?.trim() || null,
      photo_ids: item.photo_ids ?? [],
      deduction_minor: units.reduce((sum, unit) => sum + unit.deduction_minor, 0),
      restock_variant_id: units.find((unit) => unit.restock_variant_id)?.restock_variant_id ?? null,
      arrived: units.some((unit) => unit.condition !== 'missing'),
      held: heldBy !== undefined,
      held_condition: heldBy?.condition ?? null,
    }
  })
}

/**
 * An item's deductions as the refund lists them: its units' merged by condition and percent (two
 * units damaged are one deduction of both), in the order first found; only those that take something.
 * @example mergedDeductions([{ condition: 'damaged', percent: 50, deduction_minor: 500 }, { condition: 'damaged', percent: 50, deduction_minor: 500 }]) // [{ condition: 'damaged', percent: 50, deduction_minor: 1000 }]
 */
export function mergedDeductions<
  T extends { condition: InspectionCondition; percent: number; deduction_minor: number },
>(units: readonly T[]): T[] {
  const merged = new Map<string, T>()
  for (const unit of units) {
    if (unit.deduction_minor <= 0) continue
    const key = `${unit.condition} ${unit.percent}`
    const before = merged.get(key)
    merged.set(key, before ? { ...before, deduction_minor: before.deduction_minor + unit.deduction_minor } : unit)
  }
  return [...merged.values()]
}

/** A line of the return as "issue the refund" finds it. */
export interface SettledLine {
  line_item_id: string
  state: ReturnItemState
  kept: boolean
  /** inspected earlier, and that inspection holds its exchange */
  held: boolean
  /** inspected earlier or now */
  inspected: boolean
}

/**
 * The lines an inspection that issues the refund moves to refunded (decision 0057): the items it
 * inspects, those the shopper keeps, and those received earlier, so the return is done when
 * nothing else is still to come; never an exchange held for staff (decision 0055), nor an item
 * sent back that was not inspected yet (it may still come).
 */
export function refundedWithInspection(planned: readonly PlannedInspection[], lines: readonly SettledLine[]): string[] {
  const now = new Map(planned.map((item) => [item.line_item_id, item]))
  return lines
    .filter((line) => {
      if (line.state === 'refunded') return false
      const inspected = now.get(line.line_item_id)
      if (inspected) return !inspected.held
      if (line.kept) return true
      return line.inspected && line.state === 'received' && !line.held
    })
    .map((line) => line.line_item_id)
}

/**
 * A drop-off code as staff scan or type it, in its one spelling (`RB-` and 8 of Crockford's
 * digits), or null when it cannot be one. Case, spaces and dashes do not count and `RB-` may be
 * left out; O reads as 0 and I or L as 1, which the code's alphabet never holds, so no code is
 * mistaken for another.
 * @example dropOffCode(' rb dy1m-dq2x ') === 'RB-DY1MDQ2X'
 */
export function dropOffCode(typed: string): string | null {
  const compact = typed.toUpperCase().replace(/[\s-]+/g, '')
  const digits = (compact.length === 10 && compact.startsWith('RB') ? compact.slice(2) : compact)
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')
  return /^[0-9A-HJKMNP-TV-Z]{8}$/.test(digits) ? `RB-${digits}` : null
}

/**
 * A return's number as staff type it (`#1001-R1`, `1001-r1`): the order's name as verify reads it
 * and the return's number within the order; null when it is not one.
 * @example returnNumber('#1001-R2') // { orderName: '1001', number: 2 }
 */
export function returnNumber(typed: string): { orderName: string; number: number } | null {
  const match = /^(.+)-R(\d{1,9})$/i.exec(typed.trim())
  if (!match) return null
  const orderName = orderNameKey(match[1]!)
  const number = Number(match[2])
  return orderName === '' || number === 0 ? null : { orderName, number }
}

/** An item of the return as its held exchange is judged. */
export interface ExchangeLine {
  line_item_id: string
  /** "Classic Tee · S" */
  title: string
  exchanged: boolean
  exchange_variant_title: string | null
  state: ReturnItemState
}

/**
 * The exchanges waiting for a staff decision (decision 0055): a unit inspected in a holding
 * condition (any unit of the line: the first found names it), their new item not sent yet (the
 * item not moved on to its last state).
 */
export function heldExchanges(
  lines: readonly ExchangeLine[],
  inspections: readonly { line_item_id: string; condition: InspectionCondition }[],
  policy: Pick<ShopPolicy, 'hold'>,
): HeldExchange[] {
  const holding = holdingConditions(policy)
  const found = new Map<string, InspectionCondition>()
  for (const row of inspections)
    if (holding.has(row.condition) && !found.has(row.line_item_id)) found.set(row.line_item_id, row.condition)
  return lines.flatMap((line) => {
    const condition = found.get(line.line_item_id)
    if (!line.exchanged || condition === undefined || line.state === 'refunded') return []
    return [
      {
        line_item_id: line.line_item_id,
        title: line.title,
        condition,
        exchange_variant_title: line.exchange_variant_title,
      },
    ]
  })
}
