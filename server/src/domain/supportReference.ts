import { randomBytes } from 'node:crypto'
import { inflateRawSync } from 'node:zlib'
import { Value } from '@sinclair/typebox/value'
import { SUPPORT_REFERENCE_PATTERN } from '../../../contract/constants'
import { SupportCodePayload } from '../../../contract/supportCode'
import { readToken, type TokenClaims } from './token'

/** Crockford's base32: no I, L, O or U, so nothing read out on a phone is taken for another. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A new reference: 40 random bits as eight characters, `7KQ2-9XHD`. */
export function newSupportReference(): string {
  let bits = 0n
  for (const byte of randomBytes(5)) bits = (bits << 8n) | BigInt(byte)
  let text = ''
  for (let i = 0; i < 8; i++) text = ALPHABET[Number((bits >> BigInt(5 * i)) & 31n)]! + text
  return `${text.slice(0, 4)}-${text.slice(4)}`
}

/**
 * A reference as typed or heard back: any case, with or without the dash or spaces, an I or L
 * for 1 and an O for 0 (Crockford's reading). Null when it cannot be one.
 */
export function readSupportReference(typed: string): string | null {
  const compact = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0')
  const reference = `${compact.slice(0, 4)}-${compact.slice(4)}`
  return SUPPORT_REFERENCE_PATTERN.test(reference) ? reference : null
}

/** Inflated JSON past this is not a code the portal makes (the 150-item order's is about 60 KB). */
const MAX_JSON_BYTES = 2 * 1024 * 1024

/**
 * Whether `code` is a support code the portal made for this session: its payload has the support
 * code's shape, names the token's shop, and carries a read-only token of the token's own order
 * (so a stored code never lets anyone submit, nor reach another order). Why not, otherwise.
 */
export function supportCodeProblem(code: string, claims: TokenClaims, secret: Buffer, now: Date): string | null {
  let payload: unknown
  try {
    const json = inflateRawSync(Buffer.from(code.slice('RB1.'.length), 'base64url'), {
      maxOutputLength: MAX_JSON_BYTES,
    })
    payload = JSON.parse(json.toString('utf8'))
  } catch {
    return 'code: not a support code'
  }
  if (!Value.Check(SupportCodePayload, payload)) return 'code: not a support code of this portal'
  if (payload.shop !== claims.shopId) return "code: made for another shop's portal"
  const replay = readToken(secret, payload.flow.order.token, now)
  if (!replay || !replay.readOnly || replay.orderId !== claims.orderId || replay.shopId !== claims.shopId)
    return "code: its token is not a read-only token of this session's order"
  return null
}
