import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** What a verify token grants: the later calls on one order of one shop, until it expires. */
export interface TokenClaims {
  orderId: string
  shopId: string
  /** seconds since the epoch */
  expires: number
  /** a support replay's token: it reads the order's session (quote, catalogue, instructions), never submits */
  readOnly: boolean
}

const sign = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url')

function sameSignature(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** A bearer token: base64url(JSON claims) + "." + HMAC-SHA256 of it. */
export function issueToken(secret: Buffer, claims: TokenClaims): string {
  // `r` only when read-only: a shopper's token stays as short as it was, and one without `r` can submit.
  const body = { o: claims.orderId, s: claims.shopId, e: claims.expires, ...(claims.readOnly ? { r: 1 } : {}) }
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url')
  return `${payload}.${sign(secret, payload)}`
}

/** The claims of a well-signed, unexpired token; null for anything else. */
export function readToken(secret: Buffer, token: string, now: Date): TokenClaims | null {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined || payload.length > 512) return null
  if (!sameSignature(signature, sign(secret, payload))) return null
  try {
    const { o, s, e, r } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    if (typeof o !== 'string' || typeof s !== 'string' || typeof e !== 'number') return null
    // Anything but absent or 1 was not signed by issueToken: refused rather than guessed at.
    if (r !== undefined && r !== 1) return null
    if (e * 1000 <= now.getTime()) return null
    return { orderId: o, shopId: s, expires: e, readOnly: r === 1 }
  } catch {
    return null
  }
}

/** The signature of a label link, so the PDF opens in a new tab without a header. */
export function signLabel(secret: Buffer, returnId: string, expires: number): string {
  return sign(secret, `label:${returnId}:${expires}`)
}

export function labelSignatureValid(
  secret: Buffer,
  returnId: string,
  expires: number,
  signature: string,
  now: Date,
): boolean {
  return expires * 1000 > now.getTime() && sameSignature(signature, signLabel(secret, returnId, expires))
}

/**
 * The signature of a return's status link: it names the return only, so it reads that return's
 * status and nothing else (no token, no label, no other return). The link lasts as long as the
 * return's status is worth reading (see statusLinkTtlSeconds); the purpose prefix keeps it from
 * ever equalling a label's signature.
 */
export function signStatus(secret: Buffer, returnId: string): string {
  return sign(secret, `status:${returnId}`)
}

export function statusSignatureValid(secret: Buffer, returnId: string, signature: string): boolean {
  return sameSignature(signature, signStatus(secret, returnId))
}

/** A fresh random secret (32 bytes), for a database that has none yet. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}
