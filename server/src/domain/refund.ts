/**
 * The refund of a return, in integer minor units. Intermediate values are exact bigint fractions;
 * each reported figure is rounded once, up, so the shopper never loses a fraction of a cent and
 * per-line roundings cannot add up to a drift.
 */
import { parseRate, type Ratio } from '../../../contract/money'

export interface PricedLine {
  id: string
  quantity: number
  /** minor units per unit as the shop shows it (tax included when pricesIncludeTax), before the order discount */
  unitPrice: number
  /** e.g. "0.19"; "0" for none */
  taxRate: string
}

export interface OrderPricing {
  pricesIncludeTax: boolean
  /** order-level discount in minor units, shared across the lines by allocateDiscount */
  discount: number
  lines: PricedLine[]
}

export interface ReturnedLine {
  lineId: string
  quantity: number
  exchanged: boolean
  /** refunded without being sent back (keep-item returns); never with exchanged */
  kept?: boolean
}

export interface RefundInput {
  order: OrderPricing
  returned: ReturnedLine[]
  /**
   * minor; charged once per return that refunds at least one unit sent back: never on exchanges
   * only, nor when every refunded unit is kept
   */
  returnFee: number
  /** gift_card_value_multiplier as a decimal string like "1.1"; null for none */
  multiplier: string | null
  refundMethod: 'original_payment' | 'store_credit' | null
  /** minor, 0 without an upsell; paid from the store credit */
  upsellPrice: number
}

export interface RefundFigures {
  /** refunded (not exchanged) units, tax excluded, after their share of the discount */
  itemsSubtotal: number
  tax: number
  /** actually charged: capped so the refund never goes below zero */
  returnFee: number
  /** the part of itemsSubtotal + tax for kept units (refunded without being sent back) */
  keptValue: number
  /**
   * what goes to the original payment: itemsSubtotal + tax - returnFee, less what a new item
   * (upsell) takes of it (its price divided by the multiplier), never below 0
   */
  refundValue: number
  /** what goes to store credit: the refund times the multiplier, less the new item's price, never below 0; null without a multiplier */
  storeCreditValue: number | null
  /** what the returned items are worth as credit before any new item: the refund times the multiplier, or the refund without one */
  credit: number
  /** the bonus of the store credit on what is paid as store credit (the new item, and the rest when store credit is chosen); 0 otherwise */
  bonus: number
  upsell: number
  /** what the shopper gets back, never below 0 */
  total: number
}

const ZERO: Ratio = { num: 0n, den: 1n }

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

function ratio(num: bigint, den: bigint = 1n): Ratio {
  const divisor = gcd(num, den)
  return { num: num / divisor, den: den / divisor }
}

const add = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.den + b.num * a.den, a.den * b.den)
const times = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.num, a.den * b.den)

function ceil(value: Ratio): number {
  const rounded = (value.num + value.den - 1n) / value.den
  if (rounded > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount too large: ${rounded} minor units`)
  return Number(rounded)
}

function checkMinor(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${what} must be a non-negative whole number of minor units, got ${value}`)
}

function lineTotal(line: PricedLine): bigint {
  checkMinor(line.unitPrice, `line ${line.id}: unit price`)
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
    throw new RangeError(`line ${line.id}: quantity ${line.quantity} is not a whole number of at least 1`)
  return BigInt(line.unitPrice) * BigInt(line.quantity)
}

function lineRate(line: PricedLine): Ratio {
  try {
    return parseRate(line.taxRate)
  } catch {
    throw new RangeError(`line ${line.id}: tax rate "${line.taxRate}" is not a non-negative decimal`)
  }
}

/** Shares the order discount across whole lines in proportion to their totals; shares sum exactly to the discount. */
export function allocateDiscount(order: OrderPricing): Map<string, number> {
  const totals = order.lines.map(lineTotal)
  if (new Set(order.lines.map((line) => line.id)).size !== order.lines.length)
    throw new RangeError('a line id appears twice on the order')
  checkMinor(order.discount, 'discount')
  const sum = totals.reduce((a, b) => a + b, 0n)
  const discount = BigInt(order.discount)
  if (discount > sum) throw new RangeError(`discount ${order.discount} exceeds the order total ${sum}`)
  if (sum === 0n) return new Map(order.lines.map((line) => [line.id, 0]))
  // Each share is discount * total / sum; floors first, then the units left over go one each to
  // the largest remainders (ties to the earlier line), so no line is ever off by a whole unit.
  const shares = totals.map((total) => (discount * total) / sum)
  const remainders = totals.map((total) => (discount * total) % sum)
  const left = Number(discount - shares.reduce((a, b) => a + b, 0n))
  const byRemainder = totals
    .map((_, i) => i)
    .sort((i, j) => (remainders[j]! > remainders[i]! ? 1 : remainders[j]! < remainders[i]! ? -1 : i - j))
  for (const i of byRemainder.slice(0, left)) shares[i]! += 1n
  return new Map(order.lines.map((line, i) => [line.id, Number(shares[i]!)]))
}

interface RefundedUnits {
  /** refunded (not exchanged) units per line id */
  refunded: Map<string, number>
  /** of those, the units kept by the shopper, per line id */
  kept: Map<string, number>
}

/** Refunded (not exchanged) and kept units per line id; throws RangeError naming the line for an impossible return. */
function refundedUnits(order: OrderPricing, returned: ReturnedLine[]): RefundedUnits {
  const lines = new Map(order.lines.map((line) => [line.id, line]))
  const returnedSoFar = new Map<string, number>()
  const refunded = new Map<string, number>()
  const kept = new Map<string, number>()
  for (const item of returned) {
    const line = lines.get(item.lineId)
    if (!line) throw new RangeError(`line ${item.lineId} is not on the order`)
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1)
      throw new RangeError(
        `line ${item.lineId}: returned quantity ${item.quantity} is not a whole number of at least 1`,
      )
    // The same line may come back partly refunded and partly exchanged; together they must fit.
    const units = (returnedSoFar.get(item.lineId) ?? 0) + item.quantity
    if (units > line.quantity)
      throw new RangeError(`line ${item.lineId}: ${units} units returned but only ${line.quantity} bought`)
    returnedSoFar.set(item.lineId, units)
    if (item.exchanged && item.kept) throw new RangeError(`line ${item.lineId}: an exchanged item cannot be kept`)
    if (!item.exchanged) refunded.set(item.lineId, (refunded.get(item.lineId) ?? 0) + item.quantity)
    if (item.kept) kept.set(item.lineId, (kept.get(item.lineId) ?? 0) + item.quantity)
  }
  return { refunded, kept }
}

/** Computes every figure of a return's refund in minor units, rounded once each in the shopper's favour. */
export function computeRefund(input: RefundInput): RefundFigures {
  const { order } = input
  checkMinor(input.returnFee, 'return fee')
  checkMinor(input.upsellPrice, 'upsell price')
  const discounts = allocateDiscount(order)
  const { refunded, kept } = refundedUnits(order, input.returned)
  const multiplier = input.multiplier === null ? null : parseRate(input.multiplier)
  if (multiplier && multiplier.num < multiplier.den)
    throw new RangeError(`gift card multiplier ${input.multiplier} is below 1`)

  let gross = ZERO
  let tax = ZERO
  let keptGross = ZERO
  for (const line of order.lines) {
    const rate = lineRate(line)
    const units = refunded.get(line.id) ?? 0
    if (units === 0) continue
    // k of n units get k/n of the discounted line, so the discount is neither lost nor taken twice.
    const net = ratio((lineTotal(line) - BigInt(discounts.get(line.id)!)) * BigInt(units), BigInt(line.quantity))
    // Inclusive: the shown price is base * (1 + rate), so its tax is price * rate / (1 + rate).
    const lineTax = order.pricesIncludeTax ? times(net, ratio(rate.num, rate.den + rate.num)) : times(net, rate)
    const lineGross = order.pricesIncludeTax ? net : add(net, lineTax)
    gross = add(gross, lineGross)
    tax = add(tax, lineTax)
    const keptUnits = kept.get(line.id) ?? 0
    if (keptUnits > 0) keptGross = add(keptGross, times(lineGross, ratio(BigInt(keptUnits), BigInt(units))))
  }
  // Round what the shopper gets and the tax; the subtotal takes the rest. Rounding the subtotal
  // up as well could refund a cent more than a whole line cost.
  const itemsAndTax = ceil(gross)
  const taxMinor = ceil(tax)
  // The fee pays for a parcel of refunded items: none when every refunded unit is kept.
  const sentBack = [...refunded].some(([lineId, units]) => units > (kept.get(lineId) ?? 0))
  const returnFee = sentBack ? Math.min(input.returnFee, itemsAndTax) : 0
  const fullRefund = itemsAndTax - returnFee
  const fullCredit = multiplier ? ceil(times(ratio(BigInt(fullRefund)), multiplier)) : fullRefund
  // A new item is paid from the credit, bonus included: it takes its price divided by the
  // multiplier of the refund. The remainder is refunded as the shopper chooses, each figure
  // rounded once in their favour; when the item takes the whole credit both are 0.
  const rate = multiplier ?? { num: 1n, den: 1n }
  // (fullRefund - upsellPrice / rate) over rate.num, kept whole so its sign is plain
  const leftOver = BigInt(fullRefund) * rate.num - BigInt(input.upsellPrice) * rate.den
  const refundValue = leftOver > 0n ? ceil(ratio(leftOver, rate.num)) : 0
  const storeCreditValue = multiplier ? Math.max(0, fullCredit - input.upsellPrice) : null
  const total = input.refundMethod === 'store_credit' ? (storeCreditValue ?? refundValue) : refundValue
  return {
    itemsSubtotal: itemsAndTax - taxMinor,
    tax: taxMinor,
    returnFee,
    // A part of gross, rounded the same way, so it never exceeds itemsAndTax and equals it when all is kept.
    keptValue: ceil(keptGross),
    refundValue,
    storeCreditValue,
    credit: fullCredit,
    // What the items + tax - fee became: the total plus the new item, capped at the credit (a new
    // item dearer than the credit is refused by priceReturn; here the total just stops at 0).
    bonus: Math.min(fullCredit, total + input.upsellPrice) - fullRefund,
    upsell: input.upsellPrice,
    total,
  }
}
