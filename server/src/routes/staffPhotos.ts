import { Type } from '@sinclair/typebox'
import { StaffPhoto, StaffReturnParams } from '../../../contract/staff'
import { staffAuthor } from '../services/audit'
import { addStaffPhoto } from '../services/staffPhotos'
import { acceptImageBodies, senderOf } from './photos'
import { replies, routes } from './typed'

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
export const staffPhotoRoutes = routes((app, context) => {
  const perClient = app.rateLimit({ max: 60, timeWindow: 60_000, groupId: 'staff-photo-upload' })
  acceptImageBodies(app)

  app.post(
    '/returns/:id/photos',
    {
      config: { staffAction: 'returns.receive' },
      // Signed in first (staffSession's hook): nobody else gets the server to read and decode 5 MB.
      onRequest: perClient,
      schema: { params: StaffReturnParams, querystring: PhotoQuery, response: replies({ 201: StaffPhoto }) },
    },
    async (request, reply) => {
      // The staff member is the photo queue's client: a warehouse's desks behind one address each have their share.
      const sender = senderOf(reply, `staff:${request.staff.member.id}`)
      const photo = await addStaffPhoto(
        context,
        request.staff,
        request.params.id,
        request.query.line_item_id,
        request.body,
        sender,
        staffAuthor(request),
      )
      return reply.code(201).send(photo)
    },
  )
})
