import { randomUUID } from 'node:crypto'
import { RETURN_ITEM_STATES } from '../../../contract/constants'
import type { ReturnItemState } from '../../../contract/api'
import type { ShopPolicy } from '../../../contract/policy'
import type { Database } from '../storage/database'
import { insertOrder, type OrderRecord } from '../storage/orders'
import type { PhotoStore } from '../storage/photoStore'
import { insertReturn } from '../storage/returns'
import { recordLineState } from '../storage/returnStates'
import { findShopPolicy, replaceShop, type ShopRecord } from '../storage/shops'
import { emailKey, orderNameKey } from '../domain/normalize'
import { priceReturn, type PricedReturn } from '../domain/priceReturn'
import { keptItemCanReach, keptLineIds } from '../domain/returnStatus'
import type { OrderFile, ShopFile } from './shopFile'
import { formatPath, resolveDate, validateShopFile } from './validateShopFile'
import { endpointUrlProblem } from '../delivery/endpointUrl'
import { replaceEndpoints } from '../storage/webhookEndpoints'
import { dropEventsOfRemovedReturns } from '../storage/outbox'

export type ImportResult = { ok: true; shop: string; orders: number } | { ok: false; errors: string[] }

/**
 * Loads a shop from its file in one transaction: the shop is replaced whole (configuration,
 * reasons, catalogue, orders and their returns). An invalid file changes nothing. The orders
 * replaced take their photos' rows with them; with `photos`, their bytes go too. A file without
 * `policy` keeps the one the shop has (the back office's), as it keeps its webhooks.
 */
export async function importShop(
  db: Database,
  input: unknown,
  now = new Date(),
  photos?: PhotoStore,
  /** webhooks may name private addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS) */
  options: { allowPrivateNetworks?: boolean } = {},
): Promise<ImportResult> {
  // Validated at the `now` the rows are written with: relative dates resolve to the same instants.
  const checked = validateShopFile(input, now)
  if (!checked.ok) return { ok: false, errors: checked.errors }
  const file: ShopFile = checked.file
  const policy = file.policy ?? (await findShopPolicy(db, file.shop))
  const tracked = priceTrackedReturns(file, policy, now)
  if (!tracked.ok) return { ok: false, errors: tracked.errors }
  const unsafe = await webhookProblems(file, options.allowPrivateNetworks ?? false)
  if (unsafe.length > 0) return { ok: false, errors: unsafe }
  await db.transaction(async (tx) => {
    // Read again in the transaction: a policy saved since the tracked returns were priced stays.
    const kept = file.policy ?? (await findShopPolicy(tx, file.shop))
    await replaceShop(tx, shopOf(file, kept))
    if (file.webhooks) await replaceEndpoints(tx, file.shop, file.webhooks, now)
    for (const order of file.orders) {
      const id = randomUUID()
      await insertOrder(tx, orderOf(file, order, id, now), orderNameKey(order.name))
      for (const lines of order.returns ?? []) {
        await insertReturn(
          tx,
          {
            id: randomUUID(),
            orderId: id,
            orderName: order.name,
            idempotencyKey: null,
            requestHash: null,
            answer: null,
            lines: lines.map((line) => ({
              lineItemId: line.line_item_id,
              quantity: line.quantity,
              exchangeVariantId: null,
            })),
          },
          now,
        )
      }
      for (const { file: entry, priced } of tracked.byOrder.get(order) ?? []) {
        const returnId = randomUUID()
        const createdAt = resolveDate(entry.created_at, now)
        await insertReturn(
          tx,
          {
            id: returnId,
            orderId: id,
            orderName: order.name,
            idempotencyKey: null,
            requestHash: null,
            answer: (name, at) => ({
              ...priced.order,
              id: returnId,
              status: 'requested',
              name,
              created_at: at.toISOString(),
            }),
            lines: priced.lines,
          },
          createdAt,
        )
        for (const state of RETURN_ITEM_STATES) {
          const when = state === 'requested' ? undefined : entry.progress?.[state]
          // Kept items travel nowhere: a tracked return's in_transit and received concern the items sent.
          const kept = keptLineIds(priced.order)
          const lineIds = priced.lines
            .map((line) => line.lineItemId)
            .filter((lineId) => !kept.has(lineId) || keptItemCanReach(state))
          if (when !== undefined && lineIds.length > 0)
            await recordLineState(
              tx,
              returnId,
              lineIds,
              state as Exclude<ReturnItemState, 'requested'>,
              resolveDate(when, now),
            )
        }
      }
    }
    // The returns the file replaced are gone: so is what was still to be said of them (decision 0047).
    await dropEventsOfRemovedReturns(tx, file.shop)
  })
  await photos?.sweep(db)
  return { ok: true, shop: file.shop, orders: file.orders.length }
}

/** Each webhook's address checked after DNS, as when staff save one: public http(s) only. */
async function webhookProblems(file: ShopFile, allowPrivateNetworks: boolean): Promise<string[]> {
  const problems = await Promise.all(
    (file.webhooks ?? []).map(async (hook, at) => {
      const problem = await endpointUrlProblem(hook.url, allowPrivateNetworks)
      return problem === null ? [] : [`${formatPath(['webhooks', at, 'url'])}: ${problem}`]
    }),
  )
  return problems.flat()
}

/** The shop the file describes, with the policy it is to have. */
function shopOf(file: ShopFile, policy: ShopPolicy): ShopRecord {
  return {
    id: file.shop,
    currency_code: file.currency_code,
    settings: file.settings,
    config: file.config,
    config_variants: file.config_variants ?? {},
    return_reasons: file.return_reasons,
    return_reason_variants: file.return_reason_variants ?? {},
    return_address: file.return_address,
    catalogue: file.catalogue,
    email: file.email ?? null,
    policy,
  }
}

/** An order of the file as stored under `id`, its relative dates resolved at `now`. */
function orderOf(file: ShopFile, order: OrderFile, id: string, now: Date): OrderRecord {
  return {
    id,
    shop_id: file.shop,
    name: order.name,
    email_key: emailKey(order.email),
    processed_at: resolveDate(order.processed_at, now),
    fulfilled_at: order.fulfilled_at === null ? null : resolveDate(order.fulfilled_at, now),
    discount: order.discount ?? '0',
    line_items: order.line_items,
    shipping_address: order.shipping_address ?? null,
  }
}

type TrackedReturn = NonNullable<OrderFile['tracked_returns']>[number]

/**
 * Prices each tracked return as a shopper's submit would be priced (the shop's reasons, stock,
 * fee, bonus), after the order's plain returns and the tracked ones before it. A return that
 * cannot be priced is an error naming it, and nothing is written.
 */
function priceTrackedReturns(
  file: ShopFile,
  policy: ShopPolicy,
  now: Date,
):
  | { ok: true; byOrder: Map<OrderFile, { file: TrackedReturn; priced: PricedReturn }[]> }
  | { ok: false; errors: string[] } {
  const shop = shopOf(file, policy)
  const errors: string[] = []
  const byOrder = new Map<OrderFile, { file: TrackedReturn; priced: PricedReturn }[]>()
  file.orders.forEach((order, o) => {
    if (!order.tracked_returns?.length) return
    const record = orderOf(file, order, `import-${o}`, now)
    const returned = new Map<string, number>()
    for (const line of (order.returns ?? []).flat())
      returned.set(line.line_item_id, (returned.get(line.line_item_id) ?? 0) + line.quantity)
    const priced: { file: TrackedReturn; priced: PricedReturn }[] = []
    order.tracked_returns.forEach((entry, r) => {
      // Judged when it was made: the policy's window rules as they stood for that day.
      const result = priceReturn(
        shop,
        record,
        returned,
        { items: entry.items, refund_method: entry.refund_method ?? null },
        undefined,
        resolveDate(entry.created_at, now),
      )
      if ('problems' in result) {
        for (const problem of result.problems)
          errors.push(`${formatPath(['orders', o, 'tracked_returns', r])}.${problem.field}: ${problem.message}`)
        return
      }
      for (const line of result.lines)
        returned.set(line.lineItemId, (returned.get(line.lineItemId) ?? 0) + line.quantity)
      priced.push({ file: entry, priced: result })
    })
    byOrder.set(order, priced)
  })
  return errors.length > 0 ? { ok: false, errors } : { ok: true, byOrder }
}
