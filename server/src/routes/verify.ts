import { createHash, timingSafeEqual } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { VerifiedOrder, VerifyRequest } from '../../../contract/api'
import type { PortalContext } from '../context'
import { emailKey, orderNameKey } from '../domain/normalize'
import { issueToken } from '../domain/token'
import { decideVerify } from '../domain/verify'
import { findOrderById, findOrderForVerify, returnedQuantities } from '../storage/orders'
import { requireToken } from './auth'
import { TOO_MANY } from './errors'
import { requestLanguage } from './language'
import { replies, type Api } from './typed'

const digest = (value: string) => createHash('sha256').update(value).digest()
// Compared against when no order matched, so an unknown order costs what a wrong e-mail does.
const NOBODY = digest('nobody@invalid')

/**
 * POST /portal-registration/verify (docs/rules.md §11.2): the order, or 400 { error } with a code of
 * §12. Limited per client and per order name; a failure always takes the same time.
 */
export function verifyRoutes(app: Api, context: PortalContext) {
  const { limits } = context
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
  const perOrder = async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await checkOrder(request)
    if (!limit.isAllowed && limit.isExceeded) {
      return reply
        .code(429)
        .header('retry-after', String(Math.ceil(limit.ttl / 1000)))
        .send(TOO_MANY)
    }
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
      const fail = async (code: string) => {
        const wait = limits.verifyFailureFloorMs - (performance.now() - started)
        if (wait > 0) await sleep(wait)
        return reply.code(400).send({ error: code })
      }

      const shop = await context.shops.find(shopId.toLowerCase())
      const found =
        shop && shop.config.portal_id === portal_id
          ? await findOrderForVerify(context.db, shop.id, orderNameKey(order_name))
          : null
      const order = found?.order
      const emailMatches = timingSafeEqual(digest(emailKey(email)), order ? digest(order.email_key) : NOBODY)
      if (!shop || !found || !order || !emailMatches) return fail('invalid_order')

      const outcome = decideVerify(shop, order, found.returned, now, lang)
      if ('error' in outcome) return fail(outcome.error)
      const expires = Math.floor(now.getTime() / 1000) + limits.tokenTtlSeconds
      return reply.header('cache-control', 'no-store').send({
        ...outcome.order,
        token: issueToken(context.secret, { orderId: order.id, shopId: shop.id, expires, readOnly: false }),
        token_expires_at: new Date(expires * 1000).toISOString(),
      })
    },
  )

  /**
   * GET /portal-registration/order: the token's order as verify would answer it now, with the same
   * token. After a return was refused because a choice no longer holds (a size sold out, units
   * returned meanwhile), the portal reads the order again, so its steps offer what is true now.
   */
  app.get(
    '/portal-registration/order',
    {
      onRequest: requireToken(context),
      schema: { response: replies({ 200: VerifiedOrder }) },
    },
    async (request, reply) => {
      const claims = request.claims!
      const shop = await context.shops.find(claims.shopId)
      const order = await findOrderById(context.db, claims.orderId)
      if (!shop || !order || order.shop_id !== shop.id)
        return reply.code(401).send({ error: 'session_expired', message: 'This order is no longer available.' })
      const outcome = decideVerify(
        shop,
        order,
        await returnedQuantities(context.db, order.id),
        context.now(),
        requestLanguage(request),
      )
      if ('error' in outcome) return reply.code(409).send({ error: outcome.error })
      return reply.header('cache-control', 'no-store').send({
        ...outcome.order,
        token: /^Bearer (.+)$/.exec(request.headers.authorization ?? '')![1]!,
        token_expires_at: new Date(claims.expires * 1000).toISOString(),
      })
    },
  )
}
