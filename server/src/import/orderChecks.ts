/**
 * The checks of a shop file's orders that its schema cannot express: unique names with the
 * shop's prefix, dates in order, line items that name the catalogue, a discount the lines cover,
 * and returns that take no more units than were bought, with reasons that exist.
 */
import { RETURN_ITEM_STATES } from '../../../contract/constants'
import { orderNameKey } from '../domain/normalize'
import type { Segment } from './errorLines'
import { toMinor, type FieldChecks } from './fieldChecks'
import type { OrderFile, ReturnLineFile, ShopFile, TrackedReturnFile } from './shopFileSchema'

/** The key orders are stored and matched by: names equal under it collide in the database. */
export function normaliseOrderName(name: string): string {
  return orderNameKey(name)
}

/** What an order is checked against: the shop's order prefix, reasons, catalogue variants and currency. */
export interface OrderScope {
  /** the shop's `config.order_prefix`, when it has one */
  prefix: string | null | undefined
  reasons: ShopFile['return_reasons']
  /** the catalogue's variant ids (at least those the order names) */
  variantIds: ReadonlySet<string>
  /** the currency's decimal places */
  digits: number
}

export function orderErrors(file: ShopFile, variantIds: ReadonlySet<string>, digits: number, checks: FieldChecks) {
  const scope: OrderScope = { prefix: file.config.order_prefix, reasons: file.return_reasons, variantIds, digits }
  const orderNames = new Set<string>()
  file.orders.forEach((order, o) => {
    const at: Segment[] = ['orders', o]
    const name = normaliseOrderName(order.name)
    const duplicate = name !== '' && orderNames.has(name)
    if (duplicate)
      checks.fail(
        [...at, 'name'],
        `"${order.name}" is the same order name as another order (names are matched ignoring "#", case and spaces)`,
      )
    orderNames.add(name)
    checkOrder(order, at, scope, checks, duplicate)
  })
}

/**
 * One order, its fields named under `at` (`orders[2]` in a file, nothing for the Orders API's
 * body): its name, dates, lines, discount, and the returns it comes with.
 */
export function checkOrder(
  order: OrderFile,
  at: Segment[],
  scope: OrderScope,
  checks: FieldChecks,
  /** its name was found wrong already (another order's in the file) */
  nameRefused = false,
): void {
  const { fail } = checks
  const { prefix, variantIds, digits } = scope
  const name = normaliseOrderName(order.name)
  if (!name) fail([...at, 'name'], 'must contain more than "#" and spaces')
  else if (!nameRefused && prefix && !name.startsWith(prefix) && !name.startsWith('EXC')) {
    fail(
      [...at, 'name'],
      `must begin with the order prefix "${prefix}" or "EXC": the portal accepts no other order names for this shop`,
    )
  }

  const processed = checks.date([...at, 'processed_at'], order.processed_at)
  const fulfilled = order.fulfilled_at === null ? null : checks.date([...at, 'fulfilled_at'], order.fulfilled_at)
  if (processed && fulfilled && fulfilled < processed) fail([...at, 'fulfilled_at'], 'must not be before processed_at')

  const lineQuantities = lineErrors(order, at, variantIds, checks)
  if (order.discount !== undefined) {
    checks.amount([...at, 'discount'], order.discount)
    let subtotal = 0
    for (const line of order.line_items) subtotal += toMinor(line.price, digits) * line.quantity
    if (toMinor(order.discount, digits) > subtotal)
      fail([...at, 'discount'], "must not be more than the order's line items are worth")
  }

  // Plain returns, then tracked ones: both take units from the same lines.
  const allReturns: { entries: ReturnLineFile[]; at: Segment[] }[] = [
    ...(order.returns ?? []).map((entries, r) => ({ entries, at: [...at, 'returns', r] })),
    ...(order.tracked_returns ?? []).map((tracked, r) => {
      trackedReturnErrors(tracked, [...at, 'tracked_returns', r], scope.reasons, variantIds, checks)
      return { entries: tracked.items, at: [...at, 'tracked_returns', r, 'items'] }
    }),
  ]
  returnedUnitErrors(allReturns, lineQuantities, fail)
}

/** The order's line items: unique ids, variants of the catalogue. Answers the units bought per line id. */
function lineErrors(order: OrderFile, at: Segment[], variantIds: ReadonlySet<string>, checks: FieldChecks) {
  const { fail } = checks
  const lineQuantities = new Map<string, number>()
  order.line_items.forEach((line, l) => {
    const lineAt: Segment[] = [...at, 'line_items', l]
    checks.id([...lineAt, 'id'], line.id)
    if (lineQuantities.has(line.id)) fail([...lineAt, 'id'], `"${line.id}" is used by another line item of this order`)
    else lineQuantities.set(line.id, line.quantity)
    if (line.variant_id === null) {
      if (line.title === undefined) fail([...lineAt, 'title'], 'is required for a custom item (variant_id null)')
    } else if (!variantIds.has(line.variant_id)) {
      fail([...lineAt, 'variant_id'], `"${line.variant_id}" is not a variant id of the catalogue`)
    }
    if (line.exchange_variant_id != null && !variantIds.has(line.exchange_variant_id)) {
      fail([...lineAt, 'exchange_variant_id'], `"${line.exchange_variant_id}" is not a variant id of the catalogue`)
    }
    checks.amount([...lineAt, 'price'], line.price)
    checks.url([...lineAt, 'product_src'], line.product_src)
  })
  return lineQuantities
}

/** Each return names lines of the order once, and all of them together no more units than were bought. */
function returnedUnitErrors(
  allReturns: { entries: ReturnLineFile[]; at: Segment[] }[],
  lineQuantities: ReadonlyMap<string, number>,
  fail: FieldChecks['fail'],
) {
  const returned = new Map<string, number>()
  allReturns.forEach(({ entries, at }) => {
    const inThisReturn = new Set<string>()
    entries.forEach((entry, e) => {
      const entryAt: Segment[] = [...at, e]
      if (!lineQuantities.has(entry.line_item_id)) {
        fail([...entryAt, 'line_item_id'], `"${entry.line_item_id}" is not a line item id of this order`)
        return
      }
      // One row per line in a return (the database's key): its units are given once.
      if (inThisReturn.has(entry.line_item_id)) {
        fail(
          [...entryAt, 'line_item_id'],
          `"${entry.line_item_id}" is listed twice in this return; give all its units in one entry`,
        )
        return
      }
      inThisReturn.add(entry.line_item_id)
      const total = (returned.get(entry.line_item_id) ?? 0) + entry.quantity
      returned.set(entry.line_item_id, total)
      const bought = lineQuantities.get(entry.line_item_id) ?? 0
      if (total > bought && total - entry.quantity <= bought) {
        fail(
          [...entryAt, 'quantity'],
          `returns ${total} units of line item "${entry.line_item_id}" in all, but only ${bought} were bought`,
        )
      }
    })
  })
}

/** A tracked return's reasons, exchanges and dates: its progress comes after it, in order. */
function trackedReturnErrors(
  tracked: TrackedReturnFile,
  at: Segment[],
  reasons: ShopFile['return_reasons'],
  variantIds: ReadonlySet<string>,
  { fail, date }: FieldChecks,
) {
  tracked.items.forEach((item, i) => {
    const reason = reasons.find((candidate) => candidate.id === item.reason_id)
    if (!reason)
      fail([...at, 'items', i, 'reason_id'], `"${item.reason_id}" is not the id of a return reason in return_reasons`)
    else if (reason.comment_required && !item.comment?.trim())
      fail([...at, 'items', i, 'comment'], `is required by the reason "${item.reason_id}"`)
    if (item.exchange_variant_id != null && !variantIds.has(item.exchange_variant_id)) {
      fail(
        [...at, 'items', i, 'exchange_variant_id'],
        `"${item.exchange_variant_id}" is not a variant id of the catalogue`,
      )
    }
  })
  // Every date is checked, even after a bad one; their order only when created_at is good.
  let previous = date([...at, 'created_at'], tracked.created_at)
  for (const state of RETURN_ITEM_STATES) {
    const value = state === 'requested' ? undefined : tracked.progress?.[state]
    if (value === undefined) continue
    const when = date([...at, 'progress', state], value)
    if (!when || !previous) continue
    if (when < previous) fail([...at, 'progress', state], 'must not be before created_at or an earlier state')
    else previous = when
  }
}
