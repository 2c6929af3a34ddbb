/**
 * Receiving and inspection (docs/lifecycle.md): a return found by its code, what an inspection of
 * its items would do (the preview staff confirm), and the inspection recorded.
 */
import type { Money, ReturnStatus } from '../../../contract/api'
import type { Inspection, InspectionPreview, InspectionRequest, ReceiveFound } from '../../../contract/staff'
import type { PortalContext } from '../context'
import { indexCatalogue } from '../domain/catalogue'
import {
  dropOffCode,
  heldExchanges,
  inspectionProblems,
  mergedDeductions,
  planInspection,
  refundAfterDeductions,
  returnNumber,
  reviewRefusal,
  refundedWithInspection,
  type ExchangeLine,
  type InspectableLine,
  type PlannedInspection,
  type PricedLine,
} from '../domain/inspection'
import { fromMinor, toMinor, type Minor } from '../../../contract/money'
import { orderPricing, unitPricesPaid } from '../domain/orderPricing'
import { keptLineIds, lineState } from '../domain/returnStatus'
import type { Queryable } from '../storage/database'
import {
  type FoundReturn,
  findByDropOffCode,
  findByReturnNumber,
  findInspections,
  findStaffPhotos,
  insertInspections,
  inspectionViews,
  restockVariant,
  variantLabel,
} from '../storage/inspections'
import { findOrderById, type OrderRecord } from '../storage/orders'
import { writeReturnEvents } from '../storage/outbox'
import { findReturnedLines, recordAction, recordLineState, type ReturnedLine } from '../storage/returnStates'
import { findReturn, lockReturn, type ReturnRecord } from '../storage/returns'
import { findReturnShopId } from '../storage/routesReturnShop'
import type { ShopRecord } from '../storage/shops'
import { audit, type Author } from './audit'
import { returnStatus } from './returnStatus'
import type { StaffSignedIn } from './staffSessions'
import { notFound, Refusal } from './refusal'

/**
 * The shop, when the return is one of the staff member's shop; null otherwise. Read before any
 * transaction: the shop cache reads through the database's own handle, which on PGlite (one
 * connection) would wait for an open transaction.
 */
export async function shopOfReturn(context: PortalContext, shopId: string, id: string): Promise<ShopRecord | null> {
  return (await findReturnShopId(context.db, id)) === shopId ? context.shops.find(shopId) : null
}

/** What the inspection would do, for staff to confirm (previewOf). */
export async function previewInspection(
  context: PortalContext,
  shopId: string,
  id: string,
  request: InspectionRequest,
): Promise<InspectionPreview> {
  const shop = await shopOfReturn(context, shopId, id)
  if (!shop) throw notFound('No such return.')
  const assessed = await assess(context, context.db, shop, await findReturn(context.db, id), request)
  return previewOf(shop, assessed, request.refund === true)
}

/** Records the inspection by the staff member, and answers the return's inspections now. */
export async function inspect(
  context: PortalContext,
  staff: StaffSignedIn,
  id: string,
  request: InspectionRequest,
  author: Author,
): Promise<Inspection[]> {
  const shop = await shopOfReturn(context, staff.shop, id)
  if (!shop) throw notFound('No such return.')
  const outcome = await recordInspection(context, shop, id, request, staff.member.email, author)
  // The catalogue changed: the next verify and exchange offer read it again (decision 0050).
  if (outcome.restocked) context.shops.forget()
  context.events.nudge()
  return inspectionViews(context.db, shop, id)
}

/**
 * The shop's return a scanned drop-off code or a typed return number names (every return keeps
 * its code: migration 11 gave the older ones theirs); 404 when none, 409 when a code is shared.
 */
export async function receive(context: PortalContext, shopId: string, typed: string): Promise<ReceiveFound> {
  const found = await findToReceive(context, shopId, typed)
  return { return_id: found.id, name: found.name }
}

async function findToReceive(context: PortalContext, shopId: string, typed: string): Promise<FoundReturn> {
  const code = dropOffCode(typed)
  const number = returnNumber(typed)
  if (code) {
    const found = await findByDropOffCode(context.db, shopId, code)
    if (found.length === 1) return found[0]!
    if (found.length > 1)
      throw new Refusal(409, {
        error: 'ambiguous_code',
        message: `Returns ${found.map((each) => each.name).join(' and ')} share the drop-off code ${code}: type the return's number instead.`,
      })
  }
  const byNumber = number && (await findByReturnNumber(context.db, shopId, number.orderName, number.number))
  if (byNumber) return byNumber
  throw notFound(notReceived(typed, code, number !== null))
}

/**
 * Why nothing was found, naming it as staff typed it: a return number stays as typed ("AC1001-R1"
 * reads as a code too, and its code's spelling "RB-AC1001R1" is not what anyone typed); only a
 * scan that is a code and nothing else is named as its code.
 */
function notReceived(typed: string, code: string | null, isNumber: boolean): string {
  const shown = typed.trim()
  if (isNumber) return `This shop has no return ${shown}.`
  if (code) return `No return of this shop has the drop-off code ${code}.`
  return `“${shown}” is neither a drop-off code (RB-…) nor a return number (#1001-R1).`
}

interface Assessed {
  order: OrderRecord
  /** the return's status as it reads before the inspection */
  before: ReturnStatus
  planned: PlannedInspection[]
  /** what the shop's deductions would take, were the refund not issued at submission already */
  forgone: PlannedInspection[]
  /** the lines "issue the refund" moves on with these (decision 0057) */
  refunding: string[]
  /** the return's lines as they read before it */
  lines: ReturnedLine[]
}

/**
 * What the inspection would record; refused when the return waits for review or was rejected
 * (409), or an item or photo cannot be inspected (422, every problem named).
 */
async function assess(
  context: PortalContext,
  db: Queryable,
  shop: ShopRecord,
  found: ReturnRecord | null,
  request: InspectionRequest,
): Promise<Assessed> {
  if (!found) throw notFound('No such return.')
  const refusal = reviewRefusal(found.review)
  if (refusal) throw new Refusal(409, { error: 'not_approved', message: refusal })
  if (found.ended)
    throw new Refusal(409, {
      error: `return_${found.ended}`,
      message: `This return was ${found.ended}: its items are not inspected.`,
    })
  const order = await findOrderById(db, found.order_id)
  if (!order) throw notFound('No such return.')
  // One after another: in a transaction they share one connection.
  const lines = await findReturnedLines(db, found.id)
  const earlier = await findInspections(db, found.id)
  const inspected = new Set(earlier.map((row) => row.line_item_id))
  const photos = await findStaffPhotos(
    db,
    found.id,
    request.items.flatMap((item) => item.photo_ids ?? []),
  )
  const kept = keptLineIds(found.return_order)
  const inspectable = new Map<string, InspectableLine>(
    lines.map((line) => [
      line.line_item_id,
      {
        kept: kept.has(line.line_item_id),
        state: lineState(line),
        inspected: inspected.has(line.line_item_id),
        quantity: line.quantity,
      },
    ]),
  )
  const before = await returnStatus(context, found, order, shop, lines, db)
  // Named as staff read them: a second person inspecting the same parcel learns which item went first.
  const names = new Map(before.items.map((item) => [item.line_item_id, nameOf(item)]))
  const problems = inspectionProblems(request.items, inspectable, photos, (line) => names.get(line) ?? 'An item')
  if (problems.length > 0) throw new Refusal(422, { error: 'invalid_inspection', message: problems.join('; ') })
  // A refund issued at submission has gone: an inspection cannot take from it.
  const refunds = before.refund !== null && before.refund.issued_at === undefined
  const priced = pricedLines(shop, order, lines)
  const planned = planInspection(request.items, priced, shop.policy, refunds)
  const forgone = before.refund?.issued_at !== undefined ? planInspection(request.items, priced, shop.policy, true) : []
  const held = new Set(
    heldExchanges(exchangeLines(lines, before), earlier, shop.policy).map((line) => line.line_item_id),
  )
  const refunding = refundedWithInspection(
    planned,
    lines.map((line) => ({
      line_item_id: line.line_item_id,
      state: lineState(line),
      kept: kept.has(line.line_item_id),
      held: held.has(line.line_item_id),
      inspected: inspected.has(line.line_item_id),
    })),
  )
  return { order, before, planned, forgone, refunding, lines }
}

/** The return's lines as held exchanges are judged, named as staff read them. */
export function exchangeLines(lines: readonly ReturnedLine[], status: ReturnStatus): ExchangeLine[] {
  const items = new Map(status.items.map((item) => [item.line_item_id, item]))
  return lines.map((line) => {
    const item = items.get(line.line_item_id)
    return {
      line_item_id: line.line_item_id,
      title: item ? nameOf(item) : 'Item',
      exchanged: line.exchange_variant_id !== null,
      exchange_variant_title: item?.exchange_variant_title ?? null,
      state: lineState(line),
    }
  })
}

/** An item as staff read it: "Classic Tee · M". */
const nameOf = (item: ReturnStatus['items'][number]) =>
  item.variant_title ? `${item.title} · ${item.variant_title}` : item.title

/** Each returned line's unit price paid (as verify shows it), its units, whether exchanged, and its catalogue variant. */
function pricedLines(shop: ShopRecord, order: OrderRecord, lines: readonly ReturnedLine[]): Map<string, PricedLine> {
  const paid = unitPricesPaid(orderPricing(shop, order))
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const variantOf = new Map(order.line_items.map((line) => [line.id, line.variant_id ?? null]))
  return new Map(
    lines.map((line) => {
      const variantId = variantOf.get(line.line_item_id) ?? null
      return [
        line.line_item_id,
        {
          unitPaidMinor: paid.get(line.line_item_id) ?? 0,
          quantity: line.quantity,
          exchanged: line.exchange_variant_id !== null,
          catalogueVariantId: variantId && catalogue.variant(variantId) ? variantId : null,
        },
      ]
    }),
  )
}

/**
 * What staff are shown before they confirm: the refund with every deduction (earlier ones too)
 * or, when it was issued at submission, what the deductions would have taken; the restock; the
 * exchanges held for a decision; and, with the refund, what else is refunded with these.
 */
function previewOf(shop: ShopRecord, assessed: Assessed, refundNow: boolean): InspectionPreview {
  const { before, planned, forgone, refunding } = assessed
  const currency = shop.currency_code
  const money = (minor: Minor): Money => ({ amount: fromMinor(minor, currency), currency_code: currency })
  const titles = new Map(before.items.map((item) => [item.line_item_id, item.title]))
  // An item's units in one condition are one deduction, as the status page lists them (findDeductions).
  const deductionsOf = (items: readonly PlannedInspection[]) =>
    items.flatMap((item) =>
      mergedDeductions(item.units).map((unit) => ({
        line_item_id: item.line_item_id,
        title: titles.get(item.line_item_id) ?? 'Item',
        condition: unit.condition,
        percent: unit.percent,
        minor: unit.deduction_minor,
      })),
    )
  const inWords = ({ minor, ...deduction }: ReturnType<typeof deductionsOf>[number]) => ({
    ...deduction,
    amount: money(minor),
  })
  const refund = before.refund
  // Earlier deductions as the status page says them; these ones in the minor units they were planned in.
  const earlier = refund?.deductions ?? []
  const planning = deductionsOf(planned)
  const beforeMoney = refund?.before_deductions ?? refund?.amount
  const catalogue = indexCatalogue(shop.catalogue, currency)
  const inspectedNow = new Set(planned.map((item) => item.line_item_id))
  const names = new Map(before.items.map((item) => [item.line_item_id, nameOf(item)]))
  const heldNow = new Map(
    planned.flatMap((item) => (item.held_condition ? [[item.line_item_id, item.held_condition]] : [])),
  )
  return {
    refund:
      refund && beforeMoney
        ? {
            method: refund.method,
            before: beforeMoney,
            deductions: [...earlier, ...planning.map(inWords)],
            amount: money(
              refundAfterDeductions(toMinor(beforeMoney.amount, currency), [
                ...earlier.map((deduction) => toMinor(deduction.amount.amount, currency)),
                ...planning.map((deduction) => deduction.minor),
              ]),
            ),
            ...(refund.issued_at !== undefined ? { issued_at: refund.issued_at } : {}),
            forgone: deductionsOf(forgone).map(inWords),
          }
        : null,
    restock: planned.flatMap((item) =>
      item.restock_variant_id
        ? [{ line_item_id: item.line_item_id, variant: variantLabel(catalogue, item.restock_variant_id) }]
        : [],
    ),
    held: exchangeLines(assessed.lines, before)
      .filter((line) => heldNow.has(line.line_item_id))
      .map((line) => ({
        line_item_id: line.line_item_id,
        title: line.title,
        condition: heldNow.get(line.line_item_id)!,
        exchange_variant_title: line.exchange_variant_title,
      })),
    refunded_with: refundNow
      ? refunding.filter((id) => !inspectedNow.has(id)).map((id) => names.get(id) ?? 'Item')
      : [],
  }
}

const idsOf = (items: readonly { line_item_id: string }[]) => items.map((item) => item.line_item_id)

/**
 * Records the inspection in one transaction under the return's lock: the inspections, the items
 * received (and, with `refund`, refunded), the action for the timeline, the variants put back on
 * sale, and the events of the change (docs/events.md).
 */
async function recordInspection(
  context: PortalContext,
  shop: ShopRecord,
  id: string,
  request: InspectionRequest,
  actor: string,
  author: Author,
): Promise<{ restocked: boolean }> {
  return context.db.transaction(async (tx) => {
    const locked = await lockReturn(tx, id)
    if (!locked || locked.shop_id !== shop.id) throw notFound('No such return.')
    const assessed = await assess(context, tx, shop, locked, request)
    const { order, before, planned, refunding } = assessed
    const at = context.now()
    await insertInspections(tx, id, planned, at, actor)
    // A missing item never arrived: it is not received (decision 0057).
    await recordLineState(tx, id, idsOf(planned.filter((item) => item.arrived)), 'received', at)
    const refunded = new Set(request.refund ? refunding : [])
    if (refunded.size > 0) await recordLineState(tx, id, [...refunded], 'refunded', at)
    // The timeline: what was inspected and refunded, what was inspected and only received (an
    // exchange held for staff, or no refund asked), and what was refunded with them.
    const inspectedNow = new Set(idsOf(planned))
    const actions = [
      { kind: 'inspected', state: 'refunded', ids: idsOf(planned.filter((item) => refunded.has(item.line_item_id))) },
      {
        kind: 'inspected',
        state: 'received',
        ids: idsOf(planned.filter((item) => item.arrived && !refunded.has(item.line_item_id))),
      },
      { kind: 'state', state: 'refunded', ids: [...refunded].filter((line) => !inspectedNow.has(line)) },
    ] as const
    for (const action of actions)
      if (action.ids.length > 0)
        await recordAction(tx, id, {
          at,
          actor,
          kind: action.kind,
          state: action.state,
          lineItemIds: action.ids,
          note: null,
        })
    let restocked = false
    for (const variantId of new Set(planned.flatMap((item) => item.restock_variant_id ?? [])))
      restocked = (await restockVariant(tx, shop.id, variantId)) || restocked
    const after = await returnStatus(context, locked, order, shop, await findReturnedLines(tx, id), tx)
    await writeReturnEvents(tx, id, before, after, at)
    const detail = {
      return_name: locked.name,
      // An item inspected unit by unit names each unit's condition.
      items: planned.map((item) =>
        item.units.length === 1 && item.units[0]!.unit === 0
          ? { line_item_id: item.line_item_id, condition: item.units[0]!.condition }
          : { line_item_id: item.line_item_id, conditions: item.units.map((unit) => unit.condition) },
      ),
      refunded: refunded.size > 0,
    }
    await audit(tx, { shopId: shop.id, at, ...author, kind: 'return.inspected', subject: id, detail })
    return { restocked }
  })
}
