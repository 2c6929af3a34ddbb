/**
 * Verify (docs/rules.md §11.2): the order a shopper names by its name and e-mail, or the refusal
 * verify answers, each a thrown Refusal. The route keeps what is HTTP's alone: the limits, the
 * failure's time floor and the answer's serialisation around its token.
 */
import { createHash, hash, timingSafeEqual } from 'node:crypto'
import type { VerifiedOrder } from '../../../contract/api'
import type { PortalContext } from '../context'
import { emailKey, orderNameKey } from '../domain/normalize'
import { limitSince, shopperRefused } from '../domain/policy'
import type { TokenClaims } from '../domain/token'
import { decideVerify } from '../domain/verify'
import type { Queryable } from '../storage/database'
import { findOrderById, findOrderForVerify, returnedQuantities, type OrderRecord } from '../storage/orders'
import { countShopperReturns } from '../storage/shopperReturns'
import type { ShopRecord } from '../storage/shops'
import { lookUpEngineOrder } from './engineOrders'
import { orderGone, Refusal } from './refusal'

// The one-call hash (Node 20.12 and later) costs less than half of createHash's three calls.
const digest: (value: string) => Buffer =
  typeof hash === 'function'
    ? (value) => hash('sha256', value, 'buffer')
    : (value) => createHash('sha256').update(value).digest()
// Compared against when no order matched, so an unknown order costs what a wrong e-mail does.
const NOBODY = digest('nobody@invalid')

/**
 * The digest of each order's e-mail, kept with the order object: on PGlite verify finds the same
 * object again until the process writes (docs/decisions/0032-verify-cache-pglite.md).
 */
const orderDigests = new WeakMap<OrderRecord, Buffer>()
function orderDigest(order: OrderRecord): Buffer {
  let known = orderDigests.get(order)
  if (!known) orderDigests.set(order, (known = digest(order.email_key)))
  return known
}

/** An order as verify finds it, with the units of each line returned already. */
export type Found = NonNullable<Awaited<ReturnType<typeof findOrderForVerify>>>

/** What a shopper the policy refuses is told: never why (docs/lifecycle.md). */
export const NOT_AVAILABLE = {
  error: 'return_not_available',
  message: 'Returns for this order cannot be made online. Please contact the shop.',
}

/**
 * The shop's engine failed or did not answer within its deadline: a verify error of no code of
 * its own in the catalogue, so the portal shows the shop's `default_error_message`
 * (docs/rules.md §12), within the deadline, never a hang or a 500.
 */
export const ENGINE_UNAVAILABLE = {
  error: 'store_unavailable',
  message: 'The shop’s store did not answer in time. Please try again in a moment.',
}

/** 400 with verify's code: what every failed verify answers. */
const failed = (answer: { error: string; message?: string }) => new Refusal(400, answer)

/**
 * Whether the shop's policy refuses the shopper of this order now: blocked, or at the limit of
 * returns. Decided at every verify and again at submit (routes/returns.ts), never
 * kept with an answer: it depends on the shopper's other orders and on the clock.
 */
export async function refused(db: Queryable, shop: ShopRecord, order: OrderRecord, now: Date): Promise<boolean> {
  const since = limitSince(shop.policy, now)
  const recentReturns = since ? await countShopperReturns(db, shop.id, order.email_key, since) : 0
  return shopperRefused(shop.policy, { email: order.email_key, orderName: order.name, recentReturns })
}

/**
 * The order the shopper names, with its shop as verify judges it; a 400 with verify's code when
 * there is none to answer. An order not stored, or stored with another e-mail, is asked of the
 * shop's engine when it has one, both alike, so the time taken tells nobody which
 * (docs/decisions/0076-verify-reads-the-engine.md). `read`: the order as looked up already, by
 * the shop's id in lower case and the name's key, with verify's limits
 * (docs/decisions/0092-two-limits-one-statement.md); undefined, it is looked up here.
 */
export async function findVerifiedOrder(
  context: PortalContext,
  asked: { shopId: string; portalId: string; orderName: string; email: string },
  now: Date,
  log: { warn(object: object, message: string): void },
  read?: Found | null,
): Promise<{ shop: ShopRecord; found: Found; order: OrderRecord }> {
  let shop = await context.shops.find(asked.shopId.toLowerCase())
  if (!shop || shop.config.portal_id !== asked.portalId) throw failed({ error: 'invalid_order' })
  const nameKey = orderNameKey(asked.orderName)
  const typed = digest(emailKey(asked.email))
  let found = read !== undefined ? read : await findOrderForVerify(context.db, shop.id, nameKey)
  let order = found?.order
  if (!timingSafeEqual(typed, order ? orderDigest(order) : NOBODY)) {
    const fromEngine = await lookUpEngineOrder(context, shop, nameKey, asked.email, log)
    if (fromEngine === 'unavailable') throw failed(ENGINE_UNAVAILABLE)
    if (fromEngine === 'not_taken') throw failed(NOT_AVAILABLE)
    if (fromEngine === 'stored') {
      // The order as stored now, and the shop with the products it may have added.
      ;[found, shop] = await Promise.all([
        findOrderForVerify(context.db, shop.id, nameKey),
        context.shops.find(shop.id),
      ])
      order = found?.order
    }
    if (!shop || !found || !order || !timingSafeEqual(typed, orderDigest(order)))
      throw failed({ error: 'invalid_order' })
  }
  if (!found || !order) throw failed({ error: 'invalid_order' })
  // Only now that the name and e-mail matched: it tells nobody else anything.
  if (await refused(context.db, shop, order, now)) throw failed(NOT_AVAILABLE)
  return { shop, found, order }
}

/** What verify answers of a found order now, but its token; a 400 with verify's code when it has no line to return. */
export function verifiedAnswer(
  shop: ShopRecord,
  found: Found,
  now: Date,
  lang: string | null,
): { order: Omit<VerifiedOrder, 'token' | 'token_expires_at'>; holdsUntil: number } {
  const outcome = decideVerify(shop, found.order, found.returned, now, lang)
  if ('error' in outcome) throw failed({ error: outcome.error })
  return outcome
}

/**
 * The token's order as verify would answer it now, but its token: after a return was refused
 * because a choice no longer holds, the portal reads the order again. A 409 with verify's code
 * when it has no line to return now, a 401 when the order is gone.
 */
export async function currentOrder(
  context: PortalContext,
  claims: TokenClaims,
  lang: string | null,
): Promise<Omit<VerifiedOrder, 'token' | 'token_expires_at'>> {
  const shop = await context.shops.find(claims.shopId)
  const order = await findOrderById(context.db, claims.orderId)
  if (!shop || !order || order.shop_id !== shop.id) throw orderGone()
  const now = context.now()
  if (await refused(context.db, shop, order, now)) throw new Refusal(409, NOT_AVAILABLE)
  const outcome = decideVerify(shop, order, await returnedQuantities(context.db, order.id), now, lang)
  if ('error' in outcome) throw new Refusal(409, { error: outcome.error })
  return outcome.order
}
