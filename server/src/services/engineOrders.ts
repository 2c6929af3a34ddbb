/**
 * Verify's read of the shop's commerce engine (docs/commerce.md: Orders from the engine,
 * docs/decisions/0076-verify-reads-the-engine.md): an order the stored orders do not have (or
 * whose e-mail they do not match) is looked up in the engine, within a deadline, and when found
 * written as the Orders API writes one, with its products, so that verify answers from the stored
 * order as for any other.
 */
import type { PortalContext } from '../context'
import { mergedProduct, orderFromEngine, type EngineOrder } from '../domain/engineOrders'
import { withProduct } from '../domain/catalogueUpdates'
import { orderNameKey } from '../domain/normalize'
import type { CatalogueProduct } from '../domain/shop'
import { checkOrderBody, checkProductBody, orderErrors, productErrors } from '../import/apiBodies'
import { orderBody } from '../import/orderUpserts'
import { lockShopCatalogue, replaceCatalogue } from '../storage/catalogue'
import { lockEngineOrderId, setEngineOrderId } from '../storage/orders'
import { lockShopForOrder, type ShopRecord } from '../storage/shops'
import { upsertOrder } from './ordersApi'
import { Refusal } from './refusal'

/** The engine's whole lookup (its order search and its products' variants) ends by then. */
export const ENGINE_LOOKUP_MS = 3_000

/**
 * What the engine said: `stored` (its order is now the stored order of that name), `absent` (no
 * such order with that e-mail, or no engine), `unavailable` (the engine failed or did not answer
 * in time), `not_taken` (found, but it cannot be a Rebound order: another currency, lines its
 * returns were priced from changed…; logged).
 */
export type EngineLookup = 'stored' | 'absent' | 'unavailable' | 'not_taken'

/** Why an engine's order was not written: logged, never shown to the shopper. */
class NotTaken extends Error {
  override name = 'NotTaken'
}

/**
 * Looks the order up in the shop's engine and, found, stores it (and its products in the
 * catalogue). `nameKey` is the order name as verify reads it (orderNameKey); `email` as typed.
 */
export async function lookUpEngineOrder(
  context: PortalContext,
  shop: ShopRecord,
  nameKey: string,
  email: string,
  log: { warn(object: object, message: string): void },
  timeoutMs = ENGINE_LOOKUP_MS,
): Promise<EngineLookup> {
  let found: EngineOrder | null
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const engine = await context.engines.forShop(shop.id)
    if (!engine?.findOrder) return 'absent'
    // The signal bounds each call; the race bounds whatever else the adapter waits on.
    found = await Promise.race([
      engine.findOrder(nameKey, email, { signal }),
      new Promise<never>((_, reject) => {
        const late = () => reject(new Error(`no answer within ${timeoutMs} ms`))
        if (signal.aborted) late()
        signal.addEventListener('abort', late, { once: true })
      }),
    ])
  } catch (error) {
    log.warn({ shop: shop.id, error: (error as Error).message }, 'the engine did not answer verify')
    return 'unavailable'
  }
  if (!found || orderNameKey(`#${found.number}`) !== nameKey) return 'absent'
  try {
    return (await storeEngineOrder(context, shop.id, found)) ? 'stored' : 'not_taken'
  } catch (error) {
    if (!(error instanceof NotTaken)) throw error
    log.warn({ shop: shop.id, order: found.id, problem: error.message }, 'an order of the engine was not taken')
    return 'not_taken'
  }
}

/**
 * Writes the engine's order and its products under the Orders API's locks (the shop's row, then
 * the order's), checked as the Orders API checks them; the order keeps the engine's id. False
 * when the shop is gone.
 */
export async function storeEngineOrder(context: PortalContext, shopId: string, found: EngineOrder): Promise<boolean> {
  const now = context.now()
  const catalogueChanged = await context.db.transaction(async (tx) => {
    const locked = await lockShopCatalogue(tx, shopId)
    const shop = await lockShopForOrder(tx, shopId)
    if (!locked || !shop) return null
    const mapped = orderFromEngine(shop, found)
    if (!mapped.ok) throw new NotTaken(mapped.problem)
    // A stored order of that name that is not this one of the engine's (a shop file's, another
    // engine order's) stays its shopper's: the engine's order does not take it over.
    const storedAs = await lockEngineOrderId(tx, shopId, orderNameKey(mapped.order.name))
    if (storedAs !== undefined && storedAs !== found.id)
      throw new NotTaken(`${mapped.order.name} is stored already, not as the engine's order ${found.id}`)

    let catalogue: CatalogueProduct[] = locked.catalogue
    let changed = false
    for (const fresh of mapped.products) {
      const product = mergedProduct(
        catalogue.find((each) => each.id === fresh.id),
        fresh,
      )
      const checked = checkProductBody(product, product.id)
      const others = new Set(
        catalogue.filter((each) => each.id !== product.id).flatMap((each) => each.variants.map((v) => v.id)),
      )
      const errors = checked.ok ? productErrors(checked.value, shop, others, now) : checked.errors
      if (errors.length > 0) throw new NotTaken(`product ${product.id}: ${errors.join('; ')}`)
      const next = withProduct(catalogue, product)
      if (next.unchanged) continue
      catalogue = next.catalogue
      changed = true
    }
    if (changed) await replaceCatalogue(tx, shopId, catalogue)

    // Checked as the Orders API checks an order, on the body that API would be given; what is
    // written is the engine's order itself, its amounts the engine's minor units.
    const checked = checkOrderBody(orderBody(mapped.order, shop.currency_code), mapped.order.name)
    if (!checked.ok) throw new NotTaken(checked.errors.join('; '))
    const variantIds = new Set(catalogue.flatMap((product) => product.variants.map((variant) => variant.id)))
    // The name is the engine's (`#1001`): the shop's order prefix is for the names its file gives.
    const errors = orderErrors(checked.value, { currency_code: shop.currency_code }, variantIds, now)
    if (errors.length > 0) throw new NotTaken(errors.join('; '))
    try {
      await upsertOrder(tx, { id: shopId, ...shop }, mapped.order, now)
    } catch (error) {
      // Lines its returns were priced from would change (a 422 of the Orders API): it stays as it is.
      if (error instanceof Refusal) throw new NotTaken(error.message)
      throw error
    }
    await setEngineOrderId(tx, shopId, orderNameKey(mapped.order.name), found.id)
    return changed
  })
  if (catalogueChanged === null) return false
  // The next verify, exchange offer and upsell read the catalogue again (as the Orders API's products).
  if (catalogueChanged) context.shops.forget()
  return true
}
