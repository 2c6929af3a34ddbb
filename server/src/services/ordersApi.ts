/**
 * The Orders API's writes (docs/api.md: Orders API): a shop's commerce platform puts its orders,
 * catalogue products and stock, each checked as the shop file checks the same thing, in the same
 * words, and each idempotent: the same call again changes nothing. A refusal writes nothing. A
 * change is written to the audit log by its key, in its transaction.
 */
import type { OrderPut, ProductPut, StockUpdate, StockUpdated } from '../../../contract/ordersApi'
import type { PortalContext } from '../context'
import { withAvailability, withProduct } from '../domain/catalogueUpdates'
import { orderNameKey } from '../domain/normalize'
import type { OrderUpdateProblem } from '../domain/orderUpdates'
import { checkOrderBody, checkProductBody, orderErrors, productErrors } from '../import/apiBodies'
import { errorLine } from '../import/errorLines'
import { LIMITS } from '../import/limits'
import { orderEntry, planOrderUpsert, writeOrderUpsert, type OrderEntry, type OrderShop } from '../import/orderUpserts'
import {
  catalogueVariantIds,
  lockShopCatalogue,
  replaceCatalogue,
  variantUses,
  type VariantUse,
} from '../storage/catalogue'
import type { Queryable } from '../storage/database'
import { deleteOrdersWithoutReturns, lockOrderByName } from '../storage/orders'
import { lockShopForOrder } from '../storage/shops'
import { audit, type Author } from './audit'
import { notFound, Refusal } from './refusal'

/** A body refused, each line naming its field: `errors`, and the same lines as the `message`. */
const refused = (status: 400 | 422, error: string, errors: readonly string[]) =>
  new Refusal(status, { error, message: errors.join('\n'), errors: [...errors] })

const noShop = () => notFound('The key’s shop has no shop file imported yet.')

/**
 * PUT …/orders/{name}: the order created, or updated in place by name as an import does (the same
 * id, so its returns, photos and status links stay). An order with returns keeps what they were
 * priced from; the same body again is `unchanged`.
 */
export async function putOrder(
  context: PortalContext,
  shopId: string,
  pathName: string,
  body: unknown,
  author: Author,
): Promise<OrderPut> {
  const checked = checkOrderBody(body, pathName)
  if (!checked.ok) throw refused(400, 'invalid_request', checked.errors)
  const order = checked.value
  const now = context.now()
  return context.db.transaction(async (tx) => {
    // The shop's row before the order's, as an import takes them (storage/shops.ts lockShopPricing).
    const shop = await lockShopForOrder(tx, shopId)
    if (!shop) throw noShop()
    const named = order.line_items.flatMap((line) => [line.variant_id, line.exchange_variant_id ?? null])
    const variantIds = await catalogueVariantIds(
      tx,
      shopId,
      named.filter((id): id is string => id !== null),
    )
    const errors = orderErrors(order, shop, variantIds, now)
    if (errors.length > 0) throw refused(422, 'invalid_order', errors)
    const result = await upsertOrder(tx, { id: shopId, ...shop }, orderEntry(order, shop.currency_code), now)
    if (result !== 'unchanged')
      await audit(tx, { shopId, at: now, ...author, kind: `orders_api.order_${result}`, subject: order.name })
    return { name: order.name, result }
  })
}

/**
 * Writes the order (its amounts read already) under its lock; a new one that another call stored
 * meanwhile is updated instead. Also verify's path for an order read from the engine
 * (services/engineOrders.ts).
 */
export async function upsertOrder(tx: Queryable, shop: OrderShop, order: OrderEntry, now: Date) {
  const nameKey = orderNameKey(order.name)
  for (let attempt = 0; ; attempt++) {
    const plan = planOrderUpsert(shop, order, await lockOrderByName(tx, shop.id, nameKey), now)
    if (plan.problems.length > 0) throw refused(422, 'invalid_order', plan.problems.map(problemLine))
    const written = await writeOrderUpsert(tx, plan)
    if (written !== 'taken') return written
    // Stored by the other transaction, which has committed: the next lock finds it.
    if (attempt > 0) throw new Error(`${order.name}: stored meanwhile twice`)
  }
}

const problemLine = (problem: OrderUpdateProblem) => `${problem.field}: ${problem.message}`

/** DELETE …/orders/{name}: an order without returns removed; one with returns is never (decision 0072). */
export async function deleteOrder(
  context: PortalContext,
  shopId: string,
  pathName: string,
  author: Author,
): Promise<void> {
  await context.db.transaction(async (tx) => {
    const stored = await lockOrderByName(tx, shopId, orderNameKey(pathName))
    if (!stored) throw notFound(`The shop has no order "${pathName}".`)
    if (stored.hasReturns)
      throw new Refusal(409, {
        error: 'order_has_returns',
        message: `${stored.order.name} has returns in Rebound: an order with returns is never removed, so that their status links, refunds and history stay.`,
      })
    await deleteOrdersWithoutReturns(tx, [stored.order.id])
    const at = context.now()
    await audit(tx, { shopId, at, ...author, kind: 'orders_api.order_deleted', subject: stored.order.name })
  })
  // Its photos' rows went with it; their files go now.
  await context.photos.sweep(context.db)
}

/**
 * PUT …/catalogue/products/{id}: the product created, or replaced whole with its variants. A
 * variant an order names (a line's, or the one a line was exchanged from) or a return takes as an
 * exchange stays: the shop file requires it of every order, and so does this.
 */
export async function putProduct(
  context: PortalContext,
  shopId: string,
  pathId: string,
  body: unknown,
  author: Author,
): Promise<ProductPut> {
  const checked = checkProductBody(body, pathId)
  if (!checked.ok) throw refused(400, 'invalid_request', checked.errors)
  const product = checked.value
  const now = context.now()
  const result = await context.db.transaction(async (tx) => {
    const locked = await lockShopCatalogue(tx, shopId)
    if (!locked) throw noShop()
    const others = new Set(
      locked.catalogue.filter((each) => each.id !== product.id).flatMap((each) => each.variants.map((v) => v.id)),
    )
    const errors = productErrors(product, locked, others, now)
    if (errors.length > 0) throw refused(422, 'invalid_product', errors)
    const next = withProduct(locked.catalogue, product)
    if (next.created && locked.catalogue.length >= LIMITS.products)
      throw refused(422, 'invalid_product', [
        errorLine(['id'], `the catalogue has ${locked.catalogue.length} products, the most it may have`),
      ])
    const uses = await variantUses(tx, shopId, next.removedVariantIds)
    if (uses.length > 0) throw refused(422, 'invalid_product', usedVariantErrors(uses))
    if (next.unchanged) return 'unchanged' as const
    await replaceCatalogue(tx, shopId, next.catalogue)
    const done = next.created ? ('created' as const) : ('updated' as const)
    await audit(tx, { shopId, at: now, ...author, kind: `orders_api.product_${done}`, subject: product.id })
    return done
  })
  // The next verify, exchange offer and upsell read the catalogue again (decision 0050).
  if (result !== 'unchanged') context.shops.forget()
  return { id: product.id, result }
}

/** One line per variant that must stay, naming what holds it (the first few). */
function usedVariantErrors(uses: readonly VariantUse[]): string[] {
  const byVariant = new Map<string, VariantUse[]>()
  for (const use of uses) byVariant.set(use.variant_id, [...(byVariant.get(use.variant_id) ?? []), use])
  return [...byVariant].map(([variantId, held]) => {
    const named = held
      .slice(0, 3)
      .map((use) =>
        use.kind === 'exchange'
          ? `return ${use.held_by} takes it as the exchange of line ${use.line_item_id}`
          : use.kind === 'exchanged_from'
            ? `line ${use.line_item_id} of order ${use.held_by} was exchanged from it`
            : `line ${use.line_item_id} of order ${use.held_by} is of it`,
      )
    const more = held.length > 3 ? ` (and ${held.length - 3} more)` : ''
    return errorLine(['variants'], `"${variantId}" must stay in the catalogue: ${named.join('; ')}${more}`)
  })
}

/** PUT …/stock: each named variant's `available` set; a variant not in the catalogue refuses the whole call. */
export async function putStock(
  context: PortalContext,
  shopId: string,
  body: StockUpdate,
  author: Author,
): Promise<StockUpdated> {
  const seen = new Set<string>()
  const twice: string[] = []
  body.variants.forEach((variant, i) => {
    if (seen.has(variant.id))
      twice.push(errorLine(['variants', i, 'id'], `"${variant.id}" is given twice; give each variant once`))
    seen.add(variant.id)
  })
  if (twice.length > 0) throw refused(400, 'invalid_request', twice)
  const changed = await context.db.transaction(async (tx) => {
    const locked = await lockShopCatalogue(tx, shopId)
    if (!locked) throw noShop()
    const next = withAvailability(locked.catalogue, body.variants)
    if (next.unknown.length > 0)
      throw refused(
        422,
        'unknown_variants',
        next.unknown.map((i) =>
          errorLine(['variants', i, 'id'], `"${body.variants[i]!.id}" is not a variant id of the catalogue`),
        ),
      )
    if (next.changed > 0) {
      await replaceCatalogue(tx, shopId, next.catalogue)
      await audit(tx, {
        shopId,
        at: context.now(),
        ...author,
        kind: 'orders_api.stock_updated',
        detail: { variants: body.variants.length, changed: next.changed },
      })
    }
    return next.changed
  })
  if (changed > 0) context.shops.forget()
  return { variants: body.variants.length, changed }
}
