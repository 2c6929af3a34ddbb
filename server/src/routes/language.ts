import type { FastifyRequest } from 'fastify'

/**
 * The shopper's language from Accept-Language, as its primary subtag ('de-AT;q=0.9' → 'de'), or
 * null. The portal sends it from `?lang=`; the bodies stay exactly as specified.
 */
export function requestLanguage(request: FastifyRequest): string | null {
  return /^([a-z]{2})\b/i.exec(request.headers['accept-language'] ?? '')?.[1]?.toLowerCase() ?? null
}
