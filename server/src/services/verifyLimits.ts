/**
 * Verify's two limits (docs/settings.md): attempts a minute from one client address, and at one
 * order name from anywhere, counted in one step (docs/decisions/0092-two-limits-one-statement.md).
 * The route answers by the counts: its headers, and a 429 past either limit.
 */
import { normalizeIP } from '@fastify/rate-limit'
import type { PortalContext } from '../context'
import { orderNameKey } from '../domain/normalize'
import type { Found } from '../storage/orders'
import { countTwoInDatabase, countTwoInMemory, type LimitCount } from '../storage/rateLimits'

/** Both limits count a minute's attempts. */
const WINDOW_MS = 60_000

/**
 * An attempt counted: the client's count always, the order's only while the client is within
 * its limit (null when it was not). On a PostgreSQL server one statement that every replica
 * counts in, which reads the order named too (`found`, for findVerifiedOrder: one round trip in
 * all); on the embedded database this process's memory, and `found` undefined (verify's lookup
 * cache answers there). The keys are those @fastify/rate-limit's store used before, so replicas
 * of both kinds count together.
 */
export function verifyAttempts(context: PortalContext) {
  const { db, limits } = context
  const countTwo = db.exclusive ? countTwoInMemory() : countTwoInDatabase(db)
  return async (
    clientAddress: string,
    shop: string,
    orderName: string,
  ): Promise<{ client: LimitCount; order: LimitCount | null; found?: Found | null }> => {
    const shopId = shop.toLowerCase()
    const nameKey = orderNameKey(orderName)
    const { first, second, found } = await countTwo(
      { key: `verify-client:${normalizeIP(clientAddress)}`, max: limits.verifyPerClient, windowMs: WINDOW_MS },
      {
        // Both parts as the lookup reads them (the shop in lower case, the name by its key), so
        // that "DEMO" or "Demo" cannot buy another ten guesses at the same order.
        key: `verify-order:order:${shopId}:${nameKey}`,
        max: limits.verifyPerOrder,
        windowMs: WINDOW_MS,
      },
      // The order as findVerifiedOrder looks it up: by the shop's id, the name's key.
      { shopId, nameKey },
    )
    return { client: first, order: second, ...(found === undefined ? {} : { found }) }
  }
}
