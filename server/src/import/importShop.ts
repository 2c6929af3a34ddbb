import { randomUUID } from 'node:crypto'
import { RETURN_ITEM_STATES } from '../../../contract/constants'
import type { ReturnItemState } from '../../../contract/api'
import type { ShopPolicy } from '../../../contract/policy'
import type { Database, Queryable } from '../storage/database'
import { deleteOrdersWithoutReturns, lockShopOrders } from '../storage/orders'
import type { PhotoStore } from '../storage/photoStore'
import { insertReturn } from '../storage/returns'
import { recordLineState } from '../storage/returnStates'
import { findShopPolicy, lockShopPricing, upsertShop, type ShopRecord } from '../storage/shops'
import { orderNameKey } from '../domain/normalize'
import { reviewOverMinor } from '../domain/policy'
import { settingsInMinor } from '../domain/shopMoney'
import { priceReturn, type PricedReturn } from '../domain/priceReturn'
import { keptItemCanReach, keptLineIds } from '../domain/returnStatus'
import {
  orderEntry,
  orderRecord,
  planOrderUpsert,
  writeOrderUpsert,
  type OrderEntry,
  type OrderUpsert,
} from './orderUpserts'
import type { OrderFile, ShopFile } from './shopFile'
import { formatPath, resolveDate, validateShopFile } from './validateShopFile'
import { endpointUrlProblem } from '../delivery/endpointUrl'
import { replaceEndpoints } from '../storage/webhookEndpoints'
import { importConnection } from './commerce'

/** How an import went: the orders of the file added or updated, those no longer listed removed, and those kept for their returns. */
export type ImportResult =
  | {
      ok: true
      shop: string
      orders: number
      added: number
      updated: number
      removed: number
      /** orders the file no longer lists, kept because they have returns */
      kept: string[]
    }
  | { ok: false; errors: string[] }

/** Problems found once the shop's rows are locked: the transaction is rolled back and nothing changes. */
class Refused extends Error {
  constructor(readonly errors: string[]) {
    super('shop file refused')
  }
}

/**
 * Loads a shop from its file in one transaction (docs/decisions/0072-import-keeps-returns.md):
 * the shop's configuration, reasons and catalogue are the file's; its orders are added or updated
 * by name, and those the file no longer lists are removed unless they have returns. Every return,
 * e-mail, staff action, inspection and review stays. An order with returns keeps what they were
 * priced from (its lines' price paid, tax rate, variant and units), and a shop with returns its
 * currency and tax rule; a file that would change them is refused naming them. An invalid file
 * changes nothing. A file without `policy` keeps the one the shop has (the back office's), as it
 * keeps its webhooks. The removed orders take their unsent photos' rows with them; with
 * `photos`, their bytes go too.
 */
export async function importShop(
  db: Database,
  input: unknown,
  now = new Date(),
  photos?: PhotoStore,
  /** webhooks may name private addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS) */
  options: { allowPrivateNetworks?: boolean; /** seals the `commerce` key (decision 0075) */ secret?: Buffer } = {},
): Promise<ImportResult> {
  // Validated at the `now` the rows are written with: relative dates resolve to the same instants.
  const checked = validateShopFile(input, now)
  if (!checked.ok) return { ok: false, errors: checked.errors }
  const file: ShopFile = checked.file
  // Each order's amounts read once, checked: for its tracked returns' pricing and its write alike.
  const entries = file.orders.map((order) => orderEntry(order, file.currency_code))
  const policy = file.policy ?? (await findShopPolicy(db, file.shop))
  const tracked = priceTrackedReturns(file, entries, policy, now)
  if (!tracked.ok) return { ok: false, errors: tracked.errors }
  const unsafe = await webhookProblems(file, options.allowPrivateNetworks ?? false)
  if (unsafe.length > 0) return { ok: false, errors: unsafe }
  let result: ImportResult
  try {
    result = await db.transaction(async (tx) => {
      // Read again in the transaction: a policy saved since the tracked returns were priced stays.
      const shop = shopOf(file, file.policy ?? (await findShopPolicy(tx, file.shop)))
      // The shop's row first, then its orders: the Orders API's calls take them in that order too.
      const pricedIn = await lockShopPricing(tx, file.shop)
      const stored = await lockShopOrders(tx, file.shop)
      const plans = entries.map((order) =>
        planOrderUpsert(shop, order, stored.get(orderNameKey(order.name)) ?? null, now),
      )
      // Whether the shop has returns, from its orders read once locked: a submit committed while
      // the import waited for them counts.
      const hasReturns = [...stored.values()].some((entry) => entry.hasReturns)
      const problems = [...pricingProblems(file, hasReturns ? pricedIn : null), ...heldOrderProblems(plans)]
      if (problems.length > 0) throw new Refused(problems)
      await upsertShop(tx, shop, now)
      if (file.webhooks) await replaceEndpoints(tx, file.shop, file.webhooks, now)
      if (file.commerce) await importConnection(tx, options.secret, file.shop, file.commerce, now)
      let added = 0
      const listed = new Set<string>()
      for (const [o, plan] of plans.entries()) {
        listed.add(plan.nameKey)
        const written = await writeOrderUpsert(tx, plan)
        // The shop's row is locked: no other transaction adds an order to it meanwhile.
        if (written === 'taken') throw new Error(`${plan.record.name}: stored meanwhile, while the shop was locked`)
        if (written === 'created') added++
        // The returns an order has in Rebound are its record; the file's are written only to an order without any.
        if (!plan.existing?.hasReturns)
          await insertFileReturns(tx, file.orders[o]!, plan.record.id, tracked.byOrder.get(file.orders[o]!) ?? [], now)
      }
      const absent = [...stored.values()].filter((entry) => !listed.has(entry.nameKey))
      const removed = absent.filter((entry) => !entry.hasReturns)
      await deleteOrdersWithoutReturns(
        tx,
        removed.map((entry) => entry.order.id),
      )
      return {
        ok: true as const,
        shop: file.shop,
        orders: file.orders.length,
        added,
        updated: file.orders.length - added,
        removed: removed.length,
        kept: absent.filter((entry) => entry.hasReturns).map((entry) => entry.order.name),
      }
    })
  } catch (error) {
    if (error instanceof Refused) return { ok: false, errors: error.errors }
    throw error
  }
  // The files of the photos whose rows went (removed orders', or a crash's leftovers).
  await photos?.sweep(db)
  return result
}

/** The returns the file gives an order (made before Rebound): plain ones, then tracked ones with their progress. */
async function insertFileReturns(
  tx: Queryable,
  order: OrderFile,
  orderId: string,
  tracked: readonly { file: TrackedReturn; priced: PricedReturn }[],
  now: Date,
): Promise<void> {
  for (const lines of order.returns ?? []) {
    await insertReturn(
      tx,
      {
        id: randomUUID(),
        orderId,
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
  for (const { file: entry, priced } of tracked) {
    const returnId = randomUUID()
    const createdAt = resolveDate(entry.created_at, now)
    await insertReturn(
      tx,
      {
        id: returnId,
        orderId,
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
    // Kept items travel nowhere: a tracked return's in_transit and received concern the items sent.
    const kept = keptLineIds(priced.order)
    for (const state of RETURN_ITEM_STATES) {
      const when = state === 'requested' ? undefined : entry.progress?.[state]
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

/** A shop with returns keeps the currency and tax rule they were priced in. */
function pricingProblems(
  file: ShopFile,
  pricedIn: { currency_code: string; prices_include_tax: boolean } | null,
): string[] {
  if (!pricedIn) return []
  const problems: string[] = []
  if (file.currency_code !== pricedIn.currency_code)
    problems.push(
      `currency_code: the shop has returns priced in ${pricedIn.currency_code}; it stays "${pricedIn.currency_code}"`,
    )
  if (file.settings.prices_include_tax !== pricedIn.prices_include_tax)
    problems.push(
      `settings.prices_include_tax: the shop has returns priced with tax ${pricedIn.prices_include_tax ? 'included' : 'added on top'}; it stays ${String(pricedIn.prices_include_tax)}`,
    )
  return problems
}

/** Each listed order that has returns keeps what they were priced from (domain/orderUpdates.ts). */
function heldOrderProblems(plans: readonly OrderUpsert[]): string[] {
  return plans.flatMap((plan, o) =>
    plan.problems.map((problem) => `${formatPath(['orders', o])}.${problem.field}: ${problem.message}`),
  )
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
    settings: settingsInMinor(file.settings, file.currency_code),
    config: file.config,
    config_variants: file.config_variants ?? {},
    return_reasons: file.return_reasons,
    return_reason_variants: file.return_reason_variants ?? {},
    return_address: file.return_address,
    catalogue: file.catalogue,
    email: file.email ?? null,
    policy,
    review_over_minor: reviewOverMinor(policy, file.currency_code),
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
  entries: readonly OrderEntry[],
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
    const record = orderRecord(file.shop, entries[o]!, `import-${o}`, now)
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
