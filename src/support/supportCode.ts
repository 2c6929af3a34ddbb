import { matchPath } from 'react-router-dom'
import { paths } from '../../contract/paths'
import { stepAt } from '../features/returnFlow/location'
import { restoreReturnFlow } from '../features/returnFlow/restore'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { deflateRaw, fromBase64Url, inflateRaw, toBase64Url } from './bytes'
import { maskEmails } from './maskEmails'
import { isCompleteFlow } from './supportShape'

/**
 * The support code: the shopper's flow state and route, so support staff can open the same screen
 * with the same choices. `RB1.` + base64url(raw deflate(JSON {v: 1, shop, path, flow})).
 */

const VERSION = 1
const PREFIX = `RB${VERSION}.`
/** What a code may be, in characters: #1001 at the confirm step takes about 1,700, the 150-line #1006 about 8,900. */
export const MAX_CODE_LENGTH = 64 * 1024
/** Inflated JSON past this is a zip bomb or not ours: decoding stops reading there. */
const MAX_JSON_BYTES = 2 * 1024 * 1024
// Chat tools wrap long words with line breaks, soft hyphens or zero-width spaces; none is base64url.
const PASTED_NOISE = /[\s\u00AD\u200B-\u200D\u2060]+/g

export interface SupportSnapshot {
  /** the shop whose portal this is (the subdomain's shop id) */
  shop: string
  /** the current route, one of the flow's (paths.ts) */
  path: string
  flow: ReturnFlowState
  /** the read-only token from POST /portal-registration/support-token, in place of the order's */
  token: string
}

export type SupportCodeError = 'malformed' | 'unsupported_version' | 'foreign_shop' | 'too_large'

export type DecodedSupportCode =
  { ok: true; shop: string; path: string; flow: ReturnFlowState } | { ok: false; error: SupportCodeError }

/** Whether `path` is exactly what paths.ts builds for a step after the start screen. */
export function isFlowPath(path: string): boolean {
  if (path.length > 1024) return false
  const step = stepAt(path)
  if (!step) return false
  // Canonical only: the step's item id, decoded, must come back to this very path through the
  // route's own builder.
  const { pattern } = paths[step]
  const build: (id: string) => string = paths[step].build
  try {
    const id = decodeURIComponent(matchPath(pattern, path)?.params.id ?? '')
    return build(id) === path
  } catch {
    return false
  }
}

/**
 * The support code of a session: the flow with the read-only token in place of the order's, no
 * idempotency key (a replay must never be the shopper's submit), every e-mail masked. Rejects a
 * flow without an order, a path outside the flow, or a code past MAX_CODE_LENGTH: codes
 * decodeSupportCode would refuse.
 */
export async function encodeSupportCode({ shop, path, flow, token }: SupportSnapshot): Promise<string> {
  if (!flow.order) throw new Error('A support code needs a verified order.')
  if (!isFlowPath(path)) throw new Error(`Not a route of the return flow: ${path}`)
  const replay: ReturnFlowState = { ...flow, order: { ...flow.order, token }, idempotencyKey: null }
  const json = JSON.stringify({ v: VERSION, shop, path, flow: maskEmails(replay) })
  const code = PREFIX + toBase64Url(await deflateRaw(new TextEncoder().encode(json)))
  if (code.length > MAX_CODE_LENGTH)
    throw new Error(`The support code would be ${code.length} characters; at most ${MAX_CODE_LENGTH} can be read back.`)
  return code
}

const fail = (error: SupportCodeError): DecodedSupportCode => ({ ok: false, error })

/**
 * Whether restoring dropped a choice, the quote or the submitted return. For sessionStorage a
 * repaired state is the best there is; a support code that needs repairing is not the shopper's
 * session, and support staff must not be shown a different one as if it were.
 */
function restoreDropped(raw: unknown, flow: ReturnFlowState): boolean {
  if (!isRecord(raw)) return true
  const items = Array.isArray(raw.items) ? raw.items : []
  if (items.length !== flow.items.length) return true
  const present = (value: unknown) => value !== null && value !== undefined
  // Photo ids that did not restore (image bytes, too many) are a different session too.
  const photoCount = (reason: unknown) =>
    isRecord(reason) && Array.isArray(reason.photoIds) ? reason.photoIds.length : 0
  const changed = (item: unknown, index: number) => {
    const kept = flow.items[index]!
    return (
      !isRecord(item) ||
      present(item.exchange) !== present(kept.exchange) ||
      photoCount(item.reason) !== (kept.reason?.photoIds?.length ?? 0)
    )
  }
  if (items.some(changed)) return true
  return present(raw.quote) !== present(flow.quote) || present(raw.submitted) !== present(flow.submitted)
}
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

async function decode(code: unknown, expectedShop: string): Promise<DecodedSupportCode> {
  if (typeof code !== 'string') return fail('malformed')
  // Bounded before any regular expression runs over it; pasted noise gets a generous allowance.
  if (code.length > 2 * MAX_CODE_LENGTH) return fail('too_large')
  const compact = code.replace(PASTED_NOISE, '')
  if (compact.length > MAX_CODE_LENGTH) return fail('too_large')
  const version = /^RB(\d{1,6})\./.exec(compact)
  if (!version) return fail('malformed')
  if (Number(version[1]) !== VERSION) return fail('unsupported_version')
  const deflated = fromBase64Url(compact.slice(version[0].length))
  if (!deflated || deflated.length === 0) return fail('malformed')
  const inflated = await inflateRaw(deflated, MAX_JSON_BYTES)
  if (!inflated) return fail('too_large')
  const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated))
  if (!isRecord(payload) || typeof payload.v !== 'number') return fail('malformed')
  if (payload.v !== VERSION) return fail('unsupported_version')
  const { shop, path } = payload
  if (typeof shop !== 'string' || typeof path !== 'string') return fail('malformed')
  if (shop !== expectedShop) return fail('foreign_shop')
  if (!isFlowPath(path)) return fail('malformed')
  // Through the same gate as sessionStorage, then the checks a stranger's state needs on top.
  const flow = restoreReturnFlow(payload.flow)
  if (!isCompleteFlow(flow) || restoreDropped(payload.flow, flow)) return fail('malformed')
  return { ok: true, shop, path, flow: { ...flow, idempotencyKey: null } }
}

/**
 * Reads a support code pasted by support staff for the shop they are on. Never throws: any code
 * that is not one this portal made for this shop is an error result.
 */
export async function decodeSupportCode(code: string, expectedShop: string): Promise<DecodedSupportCode> {
  try {
    return await decode(code, expectedShop)
  } catch {
    // Not deflate, not UTF-8, not JSON: all the same to support staff.
    return fail('malformed')
  }
}
