import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { VerifiedOrder, VerifyRequest } from '../../../contract/api'
import type { Shop } from '../domain/shop'
import { issueToken } from '../domain/token'
import { Refusal, TOO_MANY } from '../services/refusal'
import { currentOrder, findVerifiedOrder, verifiedAnswer, type Found } from '../services/verify'
import { verifyAttempts } from '../services/verifyLimits'
import { requestLanguage } from './language'
import { replies, routes } from './typed'

/**
 * A verify answer as JSON around its token: everything verify answers but the token and its expiry
 * depends only on the order found, its shop (its policy with it) and the language, and not on the
 * time until a line's window ends. Kept with the order found (a new object after any write, so a
 * return, an import or a policy saved makes a new answer) for the shop object it was made with (a
 * new one after an import, a policy saved or the shop cache's few seconds) and the language.
 */
interface Answer {
  shop: Shop
  /** the answer holds until then; after it a line's window has ended (or every line's: order_too_old) */
  holdsUntil: number
  order: Omit<VerifiedOrder, 'token' | 'token_expires_at'>
  /**
   * The JSON before and after the token and its expiry, cut when the answer is sent again (the
   * first time it is serialised whole: an answer sent once never pays for the cut); null: the
   * stand-ins were not found, serialise it whole every time.
   */
  around: AroundToken | null | undefined
  /** how many times it was sent */
  sent: number
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
export const verifyRoutes = routes((app, context) => {
  const { limits } = context
  // This app's answers (its secret signs their tokens, its shop repository gives their shops).
  const answers = new WeakMap<Found, Map<string | null, Answer>>()
  // Kept only where verify finds the same order object again: the embedded database's lookups
  // (docs/decisions/0032-verify-cache-pglite.md). On a PostgreSQL server every verify reads its
  // order afresh, so an answer kept there would never be asked for again.
  const keepsAnswers = context.db.exclusive
  const attempt = verifyAttempts(context)
  // The order the limits' step read with them, for the handler's lookup (PostgreSQL only).
  const foundWithLimits = new WeakMap<FastifyRequest, Found | null>()
  const limited = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as Partial<VerifyRequest> | undefined
    const { client, order, found } = await attempt(request.ip, String(body?.shop ?? ''), String(body?.order_name ?? ''))
    if (found !== undefined) foundWithLimits.set(request, found)
    // The client's count on every answer, as @fastify/rate-limit's headers said it.
    const reset = String(Math.ceil(client.ttlMs / 1000))
    reply.header('x-ratelimit-limit', String(limits.verifyPerClient))
    reply.header('x-ratelimit-remaining', String(Math.max(0, limits.verifyPerClient - client.hits)))
    reply.header('x-ratelimit-reset', reset)
    if (client.hits > limits.verifyPerClient) throw new Refusal(429, TOO_MANY, { 'retry-after': reset })
    if (order && order.hits > limits.verifyPerOrder)
      throw new Refusal(429, TOO_MANY, { 'retry-after': String(Math.ceil(order.ttlMs / 1000)) })
  }

  app.post(
    '/verify',
    {
      preHandler: limited,
      schema: { body: VerifyRequest, response: replies({ 200: VerifiedOrder }) },
    },
    async (request, reply) => {
      const started = performance.now()
      const { order_name, email, shop: shopId, portal_id } = request.body
      // The body is exactly docs/rules.md §11.2's; the language comes as a header.
      const lang = requestLanguage(request)
      const now = context.now()
      let shop: Shop
      let found: Found
      let answer: Answer | undefined
      try {
        ;({ shop, found } = await findVerifiedOrder(
          context,
          { shopId, portalId: portal_id, orderName: order_name, email },
          now,
          request.log,
          foundWithLimits.get(request),
        ))
        answer = keepsAnswers ? answers.get(found)?.get(lang) : undefined
        if (!answer || answer.shop !== shop || now.getTime() > answer.holdsUntil) {
          const outcome = verifiedAnswer(shop, found, now, lang)
          answer = {
            shop,
            holdsUntil: outcome.holdsUntil,
            order: outcome.order,
            around: undefined,
            sent: 0,
            latest: null,
          }
          if (keepsAnswers) {
            let byLanguage = answers.get(found)
            if (!byLanguage) answers.set(found, (byLanguage = new Map<string | null, Answer>()))
            byLanguage.set(lang, answer)
          }
        }
      } catch (error) {
        // Every failure takes the same time, so no answer tells by its time what it found.
        if (error instanceof Refusal && error.statusCode === 400) {
          const wait = limits.verifyFailureFloorMs - (performance.now() - started)
          if (wait > 0) await sleep(wait)
        }
        throw error
      }
      const order = found.order

      const expires = Math.floor(now.getTime() / 1000) + limits.tokenTtlSeconds
      if (answer.latest?.expires !== expires) {
        const token = issueToken(context.secret, { orderId: order.id, shopId: shop.id, expires, readOnly: false })
        answer.latest = { expires, token, expiresAt: new Date(expires * 1000).toISOString() }
      }
      const { token, expiresAt: token_expires_at } = answer.latest
      reply.header('cache-control', 'no-store')
      if (answer.sent++ > 0 && answer.around === undefined)
        answer.around = aroundToken((value) => reply.serializeInput(value, '200') as string, answer.order)
      if (!answer.around) return reply.send({ ...answer.order, token, token_expires_at })
      // A string with a JSON content type is sent as it is.
      const json = withToken(answer.around, token, token_expires_at)
      return (reply as FastifyReply).header('content-type', JSON_CONTENT_TYPE).send(json)
    },
  )
})

/**
 * GET /portal-registration/order: the token's order as verify would answer it now, with the same
 * token. After a return was refused because a choice no longer holds (a size sold out, units
 * returned meanwhile), the portal reads the order again, so its steps offer what is true now.
 */
export const orderRoutes = routes((app, context) => {
  app.get(
    '/order',
    {
      schema: { response: replies({ 200: VerifiedOrder }) },
    },
    async (request, reply) => {
      const claims = request.claims
      const order = await currentOrder(context, claims, requestLanguage(request))
      return reply.header('cache-control', 'no-store').send({
        ...order,
        token: /^Bearer (.+)$/.exec(request.headers.authorization ?? '')![1]!,
        token_expires_at: new Date(claims.expires * 1000).toISOString(),
      })
    },
  )
})
