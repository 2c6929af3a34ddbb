import type { ReturnProblem, ReturnRequest, ReturnReason } from '../../../contract/api'
import { findLeafReason, photosRequired } from '../../../contract/reasonTree'
import { problem } from './priceReturn'

/** Photos an order may hold that no return has taken yet: enough for a real return, not a disk. */
export const UNATTACHED_PHOTOS_PER_ORDER = 30
/** An upload no return took within this time is deleted at the order's next upload. */
export const UNATTACHED_PHOTO_TTL_MS = 24 * 60 * 60 * 1000

export type PhotoType = 'image/jpeg' | 'image/png' | 'image/webp'

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  prefix.every((byte, i) => bytes[at + i] === byte)
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0))

/**
 * The image type the bytes themselves say (JPEG, PNG or WebP), whatever the header claimed; null
 * for anything else. A file renamed to .jpg, an HTML page or an SVG (script) is not an image here.
 */
export function sniffImage(bytes: Uint8Array): PhotoType | null {
  if (bytes.length >= 4 && startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (bytes.length >= 16 && startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (bytes.length >= 16 && startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  return null
}

/** What the order's stored photos are to a return request: whose they are and whether taken. */
export interface StoredPhoto {
  id: string
  return_id: string | null
}

/**
 * Checks each item's photo_ids: photos of this order, not taken by a return, each used once, at
 * most what the reason asks for and at least as many. Problems name the field like priceReturn's.
 */
export function photoProblems(
  reasons: readonly ReturnReason[],
  request: ReturnRequest,
  stored: ReadonlyMap<string, StoredPhoto>,
): ReturnProblem[] {
  const problems: ReturnProblem[] = []
  const fail = (field: string, what: ReturnProblem['problem'], message: string) =>
    void problems.push(problem(field, what, message))
  const used = new Set<string>()
  request.items.forEach((item, index) => {
    const at = `items[${index}]`
    const ids = item.photo_ids ?? []
    const reason = findLeafReason(reasons, item.reason_id)
    if (!reason) return // priceReturn names the reason
    const needed = photosRequired(reason)
    if (ids.length > 0 && needed === 0)
      return fail(`${at}.photo_ids`, 'photos_not_taken', 'this reason takes no photos')
    ids.forEach((id, p) => {
      const photo = stored.get(id)
      if (!photo) fail(`${at}.photo_ids[${p}]`, 'photo_unknown', 'not a photo uploaded for this order')
      else if (photo.return_id !== null)
        fail(`${at}.photo_ids[${p}]`, 'photo_taken', 'already sent with another return')
      else if (used.has(id)) fail(`${at}.photo_ids[${p}]`, 'photo_reused', 'already used for another item')
      used.add(id)
    })
    if (ids.length < needed)
      fail(
        `${at}.photo_ids`,
        'photos_missing',
        `this reason needs at least ${needed} ${needed === 1 ? 'photo' : 'photos'}`,
      )
  })
  return problems
}
