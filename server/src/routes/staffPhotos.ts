import { randomBytes } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import { StaffPhoto, StaffReturnParams } from '../../../contract/staff'
import type { PortalContext } from '../context'
import { keptLineIds } from '../domain/returnStatus'
import { countStaffPhotos, insertStaffPhoto } from '../storage/inspections'
import { findReturnedLines } from '../storage/returnStates'
import { findReturn, lockReturn } from '../storage/returns'
import type { ShopRecord } from '../storage/shops'
import { notFound, Refusal } from '../services/refusal'
import { acceptImageBodies, checkedBody, cleanedBody, senderOf } from './photos'
import { replies, type Api } from './typed'

/**
 * The shop, when the return is one of the staff member's shop; null otherwise. Read before any
 * transaction: the shop cache reads through the database's own handle, which on PGlite (one
 * connection) would wait for an open transaction.
 */
export async function shopOfReturn(context: PortalContext, shopId: string, id: string): Promise<ShopRecord | null> {
  const [owner] = await context.db.query<{ shop_id: string }>('SELECT shop_id FROM returns WHERE id = $1', [id])
  return owner?.shop_id === shopId ? context.shops.find(shopId) : null
}

/** Photos staff may take of one item of a return: the inspection keeps 3, and retakes need room. */
export const STAFF_PHOTOS_PER_ITEM = 10
const full = () =>
  new Refusal(422, {
    error: 'too_many_photos',
    message: `This item already has ${STAFF_PHOTOS_PER_ITEM} photos taken on receipt.`,
  })
const PhotoQuery = Type.Object(
  { line_item_id: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
)

/**
 * POST /admin/api/returns/{id}/photos?line_item_id=: a photo the warehouse takes of an item it
 * received, the raw image as the body, checked and re-encoded as the shopper's are (routes/photos.ts).
 * It is the return's at once, served by GET /admin/api/returns/{id}/photos/{photo} and named by
 * the item's inspection; the shopper never sees it.
 */
export function staffPhotoRoutes(app: Api, context: PortalContext): void {
  const perClient = app.rateLimit({ max: 60, timeWindow: 60_000, groupId: 'staff-photo-upload' })
  acceptImageBodies(app)

  app.post(
    '/admin/api/returns/:id/photos',
    {
      // Signed in first: nobody else gets the server to read and decode 5 MB.
      onRequest: perClient,
      schema: { params: StaffReturnParams, querystring: PhotoQuery, response: replies({ 201: StaffPhoto }) },
    },
    async (request, reply) => {
      const { id } = request.params
      const lineItemId = request.query.line_item_id
      const shop = await shopOfReturn(context, request.staff.shop, id)
      const found = shop && (await findReturn(context.db, id))
      if (!found) throw notFound('No such return.')
      const lines = await findReturnedLines(context.db, id)
      const problem = !lines.some((line) => line.line_item_id === lineItemId)
        ? `line_item_id: "${lineItemId}" is not an item of this return`
        : keptLineIds(found.return_order).has(lineItemId)
          ? `line_item_id: "${lineItemId}" is kept by the shopper (never sent back)`
          : null
      if (problem) throw new Refusal(422, { error: 'invalid_request', message: problem })
      const checked = checkedBody(request.body)
      // An item that cannot take another photo is told so before its photo costs a decoding.
      if ((await countStaffPhotos(context.db, id, lineItemId)) >= STAFF_PHOTOS_PER_ITEM) throw full()
      // Checked and encoded again as the shopper's are: no camera metadata. The staff member is
      // the queue's client: a warehouse's desks behind one address each have their share.
      const cleaned = await cleanedBody(checked, senderOf(reply, `staff:${request.staff.member.id}`))
      const photoId = randomBytes(16).toString('base64url')
      const staged = await context.photos.put(photoId, cleaned.bytes)
      let stored = false
      try {
        stored = await context.db.transaction(async (tx) => {
          // The return's lock: two uploads at once cannot both take the last free place.
          if (!(await lockReturn(tx, id))) return false
          if ((await countStaffPhotos(tx, id, lineItemId)) >= STAFF_PHOTOS_PER_ITEM) return false
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
            context.now(),
          )
          return true
        })
      } finally {
        // Not committed: the bytes go, as the row never was.
        await staged.settle(stored)
      }
      if (!stored) throw full()
      return reply.code(201).send({
        id: photoId,
        line_item_id: lineItemId,
        url: `/admin/api/returns/${encodeURIComponent(id)}/photos/${photoId}`,
      })
    },
  )
}
