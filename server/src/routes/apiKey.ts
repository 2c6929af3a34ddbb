import fp from 'fastify-plugin'
import type { PortalContext } from '../context'
import { KeyUses, keyOfHeader, type ApiKeyUsed } from '../services/apiKeys'
import { Refusal, TOO_MANY } from '../services/refusal'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The Orders API key of the call (docs/api.md: Orders API), set by apiKeyAuth's hook before any
     * route of its scope runs: null only on the routes outside it, which do not read it.
     */
    apiKey: ApiKeyUsed
  }
}

/** 401 `invalid_api_key`: the same words for a key missing, malformed, unknown or revoked, never the key. */
const invalidKey = () =>
  new Refusal(401, {
    error: 'invalid_api_key',
    message: 'This call needs a valid API key of the shop: Authorization: Bearer rbk_…',
  })

/** 403 `wrong_shop`: a live key, of another shop than the path's (decision 0074). */
const wrongShop = () =>
  new Refusal(403, { error: 'wrong_shop', message: 'This API key is not a key of the shop in the path.' })

const tooMany = (untilMs: number) =>
  new Refusal(429, TOO_MANY, { 'retry-after': String(Math.max(1, Math.ceil((untilMs - Date.now()) / 1000))) })

/**
 * The Orders API's calls, as a plugin registered beside them in their own scope (routes/ordersApi.ts):
 * every request carries `Authorization: Bearer rbk_…`, a live key of the shop its path names (the
 * `:shop` parameter), or is refused on arrival, before its body is read: a 401 `invalid_api_key`,
 * a 403 `wrong_shop`.
 *
 * Wrong keys are counted per client address, in the rate limits' store (the database's on
 * PostgreSQL, so replicas count together). Past the limit, the client's calls are all refused
 * with a 429 until the window ends, a right key's too: otherwise a guess that hits would still be
 * told apart from the others. This process remembers a client it refused so, so that its next
 * calls cost no query.
 */
export const apiKeyAuth = fp<{ context: PortalContext }>(
  (app, { context }, done) => {
    app.decorateRequest('apiKey', null as unknown as ApiKeyUsed)
    // Its groupId names its counters in a shared store (createRateLimit's type leaves the field
    // out, though the plugin passes it on, as routes/verify.ts's per-order limit says).
    const failureLimit = {
      max: context.limits.apiKeyFailuresPerClient,
      timeWindow: 60_000,
      groupId: 'api-key-failures',
    }
    const failures = app.createRateLimit(failureLimit)
    const waiting = new Map<string, number>()
    const uses = new KeyUses(context.db, (error) => app.log.warn({ err: error }, 'an API key’s use was not noted'))
    app.addHook('onRequest', async (request) => {
      const until = waiting.get(request.ip)
      if (until !== undefined) {
        if (until > Date.now()) throw tooMany(until)
        waiting.delete(request.ip)
      }
      const key = await keyOfHeader(context.db, request.headers.authorization)
      if (!key) {
        const limit = await failures(request)
        if (!limit.isAllowed && limit.isExceeded) {
          if (waiting.size > 10_000) for (const [ip, end] of waiting) if (end <= Date.now()) waiting.delete(ip)
          const end = Date.now() + limit.ttl
          waiting.set(request.ip, end)
          throw tooMany(end)
        }
        throw invalidKey()
      }
      const { shop } = request.params as { shop?: string }
      if (shop === undefined || shop.toLowerCase() !== key.shop) throw wrongShop()
      request.apiKey = key
      uses.note(key.id, context.now())
    })
    done()
  },
  { name: 'api-key' },
)
