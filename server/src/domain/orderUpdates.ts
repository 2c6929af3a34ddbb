/**
 * What an order that has returns may take from a new copy of itself (an import or the Orders API,
 * docs/decisions/0072-import-keeps-returns.md): its returns were priced from what each unit of
 * their lines was paid, and inspection prices their refunds from the order again, so those lines
 * keep their variant, tax rate, units and price paid. Everything else (the e-mail, dates, address,
 * names and pictures, other lines) may change.
 */
import { fromMinor, parseRate } from '../../../contract/money'
import { orderPricing, unitPricesPaid, type PricingShop } from './orderPricing'
import type { Order } from './shop'

/** A problem of the new copy: the field, relative to the order (`line_items[1].price`), and why. */
export interface OrderUpdateProblem {
  field: string
  message: string
}

/**
 * The problems of replacing `stored` (with `returned` units per line) by `next`, both priced in
 * `shop`'s currency and tax rule; none when every line that has returned units stays as priced.
 */
export function heldLineProblems(
  shop: PricingShop,
  stored: Order,
  returned: ReadonlyMap<string, number>,
  next: Pick<Order, 'discount' | 'line_items'>,
): OrderUpdateProblem[] {
  const currency = shop.currency_code
  const paidBefore = unitPricesPaid(orderPricing(shop, stored))
  const paidAfter = unitPricesPaid(orderPricing(shop, { ...stored, ...next }))
  const problems: OrderUpdateProblem[] = []
  for (const line of stored.line_items) {
    const units = returned.get(line.id) ?? 0
    if (units === 0) continue
    const at = next.line_items.findIndex((candidate) => candidate.id === line.id)
    const held = `${stored.name} has ${units === 1 ? 'a unit' : `${units} units`} of this line returned`
    if (at < 0) {
      problems.push({
        field: 'line_items',
        message: `${stored.name} has ${units === 1 ? 'a unit' : `${units} units`} of line ${line.id} returned; the line must stay`,
      })
      continue
    }
    const candidate = next.line_items[at]!
    const field = (name: string) => `line_items[${at}].${name}`
    if ((candidate.variant_id ?? null) !== (line.variant_id ?? null))
      problems.push({ field: field('variant_id'), message: `${held}; it stays ${JSON.stringify(line.variant_id)}` })
    if (candidate.quantity < units) problems.push({ field: field('quantity'), message: `${held}; it cannot be fewer` })
    if (!sameRate(candidate.tax_rate, line.tax_rate))
      problems.push({ field: field('tax_rate'), message: `${held}; it stays "${line.tax_rate}"` })
    const before = paidBefore.get(line.id)!
    const after = paidAfter.get(line.id)!
    if (before !== after)
      problems.push({
        field: field('price'),
        message: `${held}, each paid ${fromMinor(before, currency)}; with this price and the order's discount it would be ${fromMinor(after, currency)}`,
      })
  }
  return problems
}

function sameRate(a: string, b: string): boolean {
  const x = parseRate(a)
  const y = parseRate(b)
  return x.num * y.den === y.num * x.den
}
