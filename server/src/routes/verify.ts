import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { VerifiedOrder, VerifyRequest } from '../../../contract/api'
import type { PortalContext } from '../context'
import { emailKey, orderNameKey } from '../domain/normalize'
import { issueToken } from '../domain/token'
import { limitSince, shopperRefused } from '../domain/policy'
import { decideVerify } from '../domain/verify'
import type { Queryable } from '../storage/database'
import { findOrderById, findOrderForVerify, returnedQuantities, type OrderRecord } from '../storage/orders'
import { countShopperReturns } from '../storage/shopperReturns'
import type { ShopRecord } from '../storage/shops'
import { lookUpEngineOrder } from '../services/engineOrders'
import { orderGone, Refusal, TOO_MANY } from '../services/refusal'
import { requestLanguage } from './language'
import { replies, type Api } from './typed'

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

type Found = NonNullable<Awaited<ReturnType<typeof findOrderForVerify>>>

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

/**
 * Whether the shop's policy refuses the shopper of this order now: blocked, or at the limit of
 * returns. Decided at every verify and again at submit (routes/returns.ts), never kept with an
 * answer: it depends on the shopper's other orders and on the clock.
 */
export async function refused(db: Queryable, shop: ShopRecord, order: OrderRecord, now: Date): Promise<boolean> {
  const since = limitSince(shop.policy, now)
  const recentReturns = since ? await countShopperReturns(db, shop.id, order.email_key, since) : 0
  return shopperRefused(shop.policy, { email: order.email_key, orderName: order.name, recentReturns })
}

/**
 * A verify answer as JSON around its token: everything verify answers but the token and its expiry
 * depends only on the order found, its shop (its policy with it) and the language, and not on the
 * time until a line's window ends. Kept with the order found (a new object after any write, so a
 * return, an import or a policy saved makes a new answer) for the shop object it was made with (a
 * new one after an import, a policy saved or the shop cache's few seconds) and the language.
 */
interface Answer {
  shop: ShopRecord
  /** the answer holds until then; after it a line's window has ended (or every line's: order_too_old) */
  holdsUntil: number
  order: Omit<VerifiedOrder, 'token' | 'token_expires_at'>
  /** the JSON before and after the token and its expiry; null: serialise the answer whole */
  around: AroundToken | null
  /**
   * The token last issued with it, and its expiry: a token is the signature of its claims alone,
   * so verifies of the order within the same second get the same one.
   */
  latest: { expires: number; token: string; expiresAt: string } | null
}

export type AroundToken = readonly [before: string, after: string]

// Stand-ins for the token and its expiry that no order's data can hold, to find where they go.
const TOKEN_MARK = `token-${randomBytes(16).toString('hex')}`
const EXPIRY_MARK = `expiry-${randomBytes(16).toString('hex')}`
const MARKS = `"token":"${TOKEN_MARK}","token_expires_at":"${EXPIRY_MARK}"`

/**
 * An answer serialised with the stand-ins (`serialise`, the route's own serialiser), cut where
 * the two fields go: the serialiser writes required fields first, so the optional e-mail follows
 * them. Null when the stand-ins are not found together exactly once.
 */
export function aroundToken(
  serialise: (answer: VerifiedOrder) => string,
  order: Omit<VerifiedOrder, 'token' | 'token_expires_at'>,
): AroundToken | null {
  const parts = serialise({ ...order, token: TOKEN_MARK, token_expires_at: EXPIRY_MARK }).split(MARKS)
  return parts.length === 2 ? [parts[0]!, parts[1]!] : null
}

/**
 * The answer with its token, as the serialiser writes it: a token (base64url and a dot) and an ISO
 * time need no escaping.
 */
const withToken = ([before, after]: AroundToken, token: string, expiresAt: string) =>
  `${before}"token":${JSON.stringify(token)},"token_expires_at":${JSON.stringify(expiresAt)}${after}`

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * POST /portal-registration/verify (docs/rules.md §11.2): the order, or 400 { error } with a code of
 * §12. Limited per client and per order name; a failure always takes the same time.
 */
export function verifyRoutes(app: Api, context: PortalContext) {
  const { limits } = context
  // This app's answers (its secret signs their tokens, its shop repository gives their shops).
  const answers = new WeakMap<Found, Map<string | null, Answer>>()
  const perClient = app.rateLimit({ max: limits.verifyPerClient, timeWindow: 60_000, groupId: 'verify-client' })
  // Only one rateLimit() handler runs per request, so the second limit is checked by hand. Its
  // groupId names its counters in a shared store (createRateLimit's type leaves the field out,
  // though the plugin passes it on like rateLimit's).
  const orderLimit = {
    max: limits.verifyPerOrder,
    timeWindow: 60_000,
    groupId: 'verify-order',
    keyGenerator: (request: FastifyRequest) => {
      const body = request.body as Partial<VerifyRequest> | undefined
      // Both parts as the lookup reads them (the shop in lower case, the name by its key), so that
      // "DEMO" or "Demo" cannot buy another ten guesses at the same order.
      return `order:${String(body?.shop ?? '').toLowerCase()}:${orderNameKey(String(body?.order_name ?? ''))}`
    },
  }
  const checkOrder = app.createRateLimit(orderLimit)
  const perOrder = async (request: FastifyRequest) => {
    const limit = await checkOrder(request)
    if (!limit.isAllowed && limit.isExceeded)
      throw new Refusal(429, TOO_MANY, { 'retry-after': String(Math.ceil(limit.ttl / 1000)) })
  }

  app.post(
    '/portal-registration/verify',
    {
      preHandler: [perClient, perOrder],
      schema: { body: VerifyRequest, response: replies({ 200: VerifiedOrder }) },
    },
    async (request, reply) => {
      const started = performance.now()
      const { order_name, email, shop: shopId, portal_id } = request.body
      // The body is exactly docs/rules.md §11.2's; the language comes as a header.
      const lang = requestLanguage(request)
      const now = context.now()
      const fail = async (answer: { error: string; message?: string }) => {
        const wait = limits.verifyFailureFloorMs - (performance.now() - started)
        if (wait > 0) await sleep(wait)
        throw new Refusal(400, answer)
      }

      let shop = await context.shops.find(shopId.toLowerCase())
      if (!shop || shop.config.portal_id !== portal_id) return fail({ error: 'invalid_order' })
      const nameKey = orderNameKey(order_name)
      const typed = digest(emailKey(email))
      let found = await findOrderForVerify(context.db, shop.id, nameKey)
      let order = found?.order
      if (!timingSafeEqual(typed, order ? orderDigest(order) : NOBODY)) {
        // Not stored, or stored with another e-mail: both ask the shop's engine, if it has one, so
        // the time taken tells nobody which (docs/decisions/0076-verify-reads-the-engine.md).
        const fromEngine = await lookUpEngineOrder(context, shop, nameKey, email, request.log)
        if (fromEngine === 'unavailable') return fail(ENGINE_UNAVAILABLE)
        if (fromEngine === 'not_taken') return fail(NOT_AVAILABLE)
        if (fromEngine === 'stored') {
          // The order as stored now, and the shop with the products it may have added.
          ;[found, shop] = await Promise.all([
            findOrderForVerify(context.db, shop.id, nameKey),
            context.shops.find(shop.id),
          ])
          order = found?.order
        }
        if (!shop || !found || !order || !timingSafeEqual(typed, orderDigest(order)))
          return fail({ error: 'invalid_order' })
      }
      if (!found || !order) return fail({ error: 'invalid_order' })
      // Only now that the name and e-mail matched: it tells nobody else anything.
      if (await refused(context.db, shop, order, now)) return fail(NOT_AVAILABLE)

      let answer = answers.get(found)?.get(lang)
      if (!answer || answer.shop !== shop || now.getTime() > answer.holdsUntil) {
        const outcome = decideVerify(shop, order, found.returned, now, lang)
        if ('error' in outcome) return fail({ error: outcome.error })
        answer = {
          shop,
          holdsUntil: outcome.holdsUntil,
          order: outcome.order,
          around: aroundToken((value) => reply.serializeInput(value, '200') as string, outcome.order),
          latest: null,
        }
        let byLanguage = answers.get(found)
        if (!byLanguage) answers.set(found, (byLanguage = new Map<string | null, Answer>()))
        byLanguage.set(lang, answer)
      }

      const expires = Math.floor(now.getTime() / 1000) + limits.tokenTtlSeconds
      if (answer.latest?.expires !== expires) {
        const token = issueToken(context.secret, { orderId: order.id, shopId: shop.id, expires, readOnly: false })
        answer.latest = { expires, token, expiresAt: new Date(expires * 1000).toISOString() }
      }
      const { token, expiresAt: token_expires_at } = answer.latest
      reply.header('cache-control', 'no-store')
      if (answer.around === null) return reply.send({ ...answer.order, token, token_expires_at })
      // A string with a JSON content type is sent as it is.
      const json = withToken(answer.around, token, token_expires_at)
      return (reply as FastifyReply).header('content-type', JSON_CONTENT_TYPE).send(json)
    },
  )
}

/**
 * GET /portal-registration/order: the token's order as verify would answer it now, with the same
 * token. After a return was refused because a choice no longer holds (a size sold out, units
 * returned meanwhile), the portal reads the order again, so its steps offer what is true now.
 */
export function orderRoutes(app: Api, context: PortalContext) {
  app.get(
    '/portal-registration/order',
    {
      schema: { response: replies({ 200: VerifiedOrder }) },
    },
    async (request, reply) => {
      const claims = request.claims
      const shop = await context.shops.find(claims.shopId)
      const order = await findOrderById(context.db, claims.orderId)
      if (!shop || !order || order.shop_id !== shop.id) throw orderGone()
      const now = context.now()
      if (await refused(context.db, shop, order, now)) throw new Refusal(409, NOT_AVAILABLE)
      const outcome = decideVerify(
        shop,
        order,
        await returnedQuantities(context.db, order.id),
        now,
        requestLanguage(request),
      )
      if ('error' in outcome) throw new Refusal(409, { error: outcome.error })
      return reply.header('cache-control', 'no-store').send({
        ...outcome.order,
        token: /^Bearer (.+)$/.exec(request.headers.authorization ?? '')![1]!,
        token_expires_at: new Date(claims.expires * 1000).toISOString(),
      })
    },
  )
}
