/**
 * The one path that writes a shop's orders, for an import of its file and for the Orders API alike
 * (docs/decisions/0072-import-keeps-returns.md): an order is matched by name as verify reads it
 * (`#1001` and `1001` are one order) and updated in place, keeping its id, or added; an order with
 * returns keeps what they were priced from (domain/orderUpdates.ts).
 *
 * Both callers hold the shop's row and the stored order's row locked (storage: lockShopPricing
 * and lockShopOrders for an import, lockShopForOrder and lockOrderByName for the API), so no
 * submit changes the order's returns between the plan and its write.
 */
import { randomUUID } from 'node:crypto'
import { fromMinor, toMinor, type Minor } from '../../../contract/money'
import { emailKey, orderNameKey } from '../domain/normalize'
import { sameJson } from '../domain/sameJson'
import type { PricingShop } from '../domain/orderPricing'
import { heldLineProblems, type OrderUpdateProblem } from '../domain/orderUpdates'
import type { LineItem, LineItemFile, Shop } from '../domain/shop'
import { lineAsFile, lineInMinor } from '../domain/shopMoney'
import type { Queryable } from '../storage/database'
import { insertOrder, updateOrder, type OrderRecord, type StoredOrder } from '../storage/orders'
import type { OrderFile } from './shopFileSchema'
import { resolveDate } from './shopFileDates'

/** An order as the file and the Orders API give it, without the returns only a file may bring. */
export type OrderInput = Omit<OrderFile, 'returns' | 'tracked_returns'>

/**
 * An order as it enters, its amounts in minor units of the shop's currency: the file's and the
 * API's read once checked (orderEntry), an engine's as its adapter gives them
 * (domain/engineOrders.ts), never written as decimals and read back on the way.
 */
export type OrderEntry = Omit<OrderInput, 'discount' | 'line_items'> & {
  discount?: Minor | undefined
  line_items: LineItem[]
}

/** The shop an order is written to: its id, and what its returns were priced in. */
export type OrderShop = Pick<Shop, 'id'> & PricingShop

/** A checked order of the file or the API, its amounts read in minor units of `currency`. */
export function orderEntry(order: OrderInput, currency: string): OrderEntry {
  const { discount, line_items: lines, ...rest } = order
  return {
    ...rest,
    ...(discount === undefined ? {} : { discount: toMinor(discount, currency) }),
    line_items: lines.map((line) => lineInMinor(line, currency)),
  }
}

/** The order as the Orders API would be given it, its amounts written in `currency`: what its checks read. */
export function orderBody(
  order: OrderEntry,
  currency: string,
): Omit<OrderEntry, 'discount' | 'line_items'> & { discount?: string; line_items: LineItemFile[] } {
  const { discount, line_items: lines, ...rest } = order
  return {
    ...rest,
    ...(discount === undefined ? {} : { discount: fromMinor(discount, currency) }),
    line_items: lines.map((line) => lineAsFile(line, currency)),
  }
}

/** An order as stored under `id`, its relative dates (a file's) resolved at `now`. */
export function orderRecord(shopId: string, order: OrderEntry, id: string, now: Date): OrderRecord {
  return {
    id,
    shop_id: shopId,
    name: order.name,
    email_key: emailKey(order.email),
    processed_at: resolveDate(order.processed_at, now),
    fulfilled_at: order.fulfilled_at === null ? null : resolveDate(order.fulfilled_at, now),
    discount: order.discount ?? 0,
    line_items: order.line_items,
    shipping_address: order.shipping_address ?? null,
  }
}

/** What writing an order would do, worked out before anything is written. */
export interface OrderUpsert {
  record: OrderRecord
  /** the shop's currency, which the record's amounts are written in */
  currency: string
  nameKey: string
  /** the stored order of that name, locked, which the record updates; null: a new order */
  existing: StoredOrder | null
  /** what the stored order's returns were priced from that the record would change; none: it may be written */
  problems: OrderUpdateProblem[]
  /** the stored order is the record already, in the same currency: nothing to write */
  unchanged: boolean
}

/** Plans writing `order` to `shop` over `existing` (the stored order of its name, locked), at `now`. */
export function planOrderUpsert(
  shop: OrderShop,
  order: OrderEntry,
  existing: StoredOrder | null,
  now: Date,
): OrderUpsert {
  const record = orderRecord(shop.id, order, existing?.order.id ?? randomUUID(), now)
  const problems = existing?.hasReturns ? heldLineProblems(shop, existing.order, existing.returned, record) : []
  return {
    record,
    currency: shop.currency_code,
    nameKey: orderNameKey(order.name),
    existing,
    problems,
    // The same minor units in another currency (an import that changes it) are other amounts.
    unchanged: existing !== null && existing.currency === shop.currency_code && sameJson(existing.order, record),
  }
}

/**
 * Writes a plan without problems. `taken` when a new order's name was stored meanwhile by another
 * transaction, which this one waited for (the shop's unique name key): nothing is written, and the
 * caller plans again over the stored order.
 */
export async function writeOrderUpsert(
  tx: Queryable,
  plan: OrderUpsert,
): Promise<'created' | 'updated' | 'unchanged' | 'taken'> {
  if (plan.problems.length > 0) throw new Error(`${plan.record.name}: an order with problems is not written`)
  if (plan.unchanged) return 'unchanged'
  if (plan.existing) {
    await updateOrder(tx, plan.record, plan.nameKey, plan.currency)
    return 'updated'
  }
  return (await insertOrder(tx, plan.record, plan.nameKey, plan.currency)) ? 'created' : 'taken'
}
