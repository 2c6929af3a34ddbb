/**
 * The warehouse's photos of the items it received (docs/lifecycle.md): checked and encoded again
 * as the shopper's are (services/photos.ts), the return's at once, never the shopper's to see.
 */
import { randomBytes } from 'node:crypto'
import type { StaffPhoto } from '../../../contract/staff'
import type { PortalContext } from '../context'
import type { PhotoSender } from '../domain/cleanPhoto'
import { keptLineIds } from '../domain/returnStatus'
import { countStaffPhotos, insertStaffPhoto } from '../storage/inspections'
import { findReturnedLines } from '../storage/returnStates'
import { findReturn, lockReturn } from '../storage/returns'
import { shopOfReturn } from './inspection'
import { checkedBody, cleanedBody } from './photos'
import { audit, type Author } from './audit'
import { notFound, Refusal } from './refusal'
import type { StaffSignedIn } from './staffSessions'

/** Photos staff may take of one item of a return: the inspection keeps 3, and retakes need room. */
export const STAFF_PHOTOS_PER_ITEM = 10
const full = () =>
  new Refusal(422, {
    error: 'too_many_photos',
    message: `This item already has ${STAFF_PHOTOS_PER_ITEM} photos taken on receipt.`,
  })

/** A photo of an item of the staff member's shop's return, taken on receipt (`body`, the raw image). */
export async function addStaffPhoto(
  context: PortalContext,
  staff: StaffSignedIn,
  id: string,
  lineItemId: string,
  body: unknown,
  sender: PhotoSender,
  author: Author,
): Promise<StaffPhoto> {
  const shop = await shopOfReturn(context, staff.shop, id)
  const found = shop && (await findReturn(context.db, id))
  if (!found) throw notFound('No such return.')
  const lines = await findReturnedLines(context.db, id)
  const problem = !lines.some((line) => line.line_item_id === lineItemId)
    ? `line_item_id: "${lineItemId}" is not an item of this return`
    : keptLineIds(found.return_order).has(lineItemId)
      ? `line_item_id: "${lineItemId}" is kept by the shopper (never sent back)`
      : null
  if (problem) throw new Refusal(422, { error: 'invalid_request', message: problem })
  const checked = checkedBody(body)
  // An item that cannot take another photo is told so before its photo costs a decoding.
  if ((await countStaffPhotos(context.db, id, lineItemId)) >= STAFF_PHOTOS_PER_ITEM) throw full()
  // Checked and encoded again as the shopper's are: no camera metadata.
  const cleaned = await cleanedBody(checked, sender)
  const photoId = randomBytes(16).toString('base64url')
  const staged = await context.photos.put(photoId, cleaned.bytes)
  let stored = false
  try {
    stored = await context.db.transaction(async (tx) => {
      // The return's lock: two uploads at once cannot both take the last free place.
      if (!(await lockReturn(tx, id))) return false
      if ((await countStaffPhotos(tx, id, lineItemId)) >= STAFF_PHOTOS_PER_ITEM) return false
      const at = context.now()
      await insertStaffPhoto(
        tx,
        {
          id: photoId,
          orderId: found.order_id,
          returnId: id,
          lineItemId,
          contentType: cleaned.type,
          size: cleaned.bytes.byteLength,
          bytes: staged.column,
        },
        at,
      )
      const detail = { return_name: found.name, line_item_id: lineItemId, photo_id: photoId }
      await audit(tx, { shopId: staff.shop, at, ...author, kind: 'return.photo_added', subject: id, detail })
      return true
    })
  } finally {
    // Not committed: the bytes go, as the row never was.
    await staged.settle(stored)
  }
  if (!stored) throw full()
  return {
    id: photoId,
    line_item_id: lineItemId,
    url: `/admin/api/returns/${encodeURIComponent(id)}/photos/${photoId}`,
  }
}
