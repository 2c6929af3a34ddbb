import { randomBytes } from 'node:crypto'
import type { FastifyError } from 'fastify'
import { PHOTO_MAX_BYTES, PHOTO_TYPES } from '../../../contract/constants'
import { PhotoIdParams, UploadedPhoto } from '../../../contract/api'
import type { PortalContext } from '../context'
import { cleanPhoto, PHOTO_MAX_MEGAPIXELS } from '../domain/cleanPhoto'
import { sniffImage, UNATTACHED_PHOTO_TTL_MS, UNATTACHED_PHOTOS_PER_ORDER } from '../domain/photos'
import { findOrderById } from '../storage/orders'
import { findPhoto, insertPhoto, pruneUnattachedPhotos } from '../storage/photos'
import { refuseReadOnly, requireToken } from './auth'
import { Bytes, replies, type Api } from './typed'

const MAX_MB = PHOTO_MAX_BYTES / (1024 * 1024)
/** Reads of photos per client a minute: a shopper's previews with room to spare. */
export const PHOTO_READS_PER_MINUTE = 120
const NOT_AN_IMAGE = { error: 'unsupported_media_type', message: 'The file is not a JPEG, PNG or WebP image.' }
const TOO_LARGE = { error: 'photo_too_large', message: `A photo can be at most ${MAX_MB} MB.` }
const UNREADABLE = {
  error: 'unsupported_media_type',
  message: 'The image could not be read: it may be damaged or cut short.',
}
const TOO_MANY_PIXELS = {
  error: 'photo_too_large',
  message: `A photo can be at most ${PHOTO_MAX_MEGAPIXELS} megapixels.`,
}

/**
 * The raw image bodies of the routes of `app`'s plugin (another plugin still reads JSON only): at
 * most PHOTO_MAX_BYTES, of the photo types, refused in words otherwise.
 */
export function acceptImageBodies(app: Api): void {
  app.addContentTypeParser(
    [...PHOTO_TYPES],
    { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES },
    (_request, body, done) => done(null, body),
  )
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return reply.code(413).send(TOO_LARGE)
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send(NOT_AN_IMAGE)
    throw error // the API's own handler answers the rest
  })
}

/**
 * An uploaded body as the photo to keep: the bytes decide its type, not the header (HTML or SVG
 * named image/png is refused), and only its pixels are kept, encoded again, so the camera's
 * metadata (where it was taken) goes no further. Otherwise the answer that refuses it.
 */
export async function cleanedBody(
  body: unknown,
): Promise<
  | { ok: true; type: string; bytes: Uint8Array }
  | { ok: false; status: number; body: { error: string; message: string } }
> {
  if (!Buffer.isBuffer(body)) return { ok: false, status: 415, body: NOT_AN_IMAGE }
  if (body.byteLength === 0)
    return { ok: false, status: 400, body: { error: 'invalid_request', message: 'body: is empty; send the photo' } }
  const type = sniffImage(body)
  if (!type) return { ok: false, status: 415, body: NOT_AN_IMAGE }
  const cleaned = await cleanPhoto(body, type)
  if (!cleaned.ok)
    return cleaned.problem === 'too_many_pixels'
      ? { ok: false, status: 413, body: TOO_MANY_PIXELS }
      : { ok: false, status: 415, body: UNREADABLE }
  return { ok: true, type: cleaned.type, bytes: cleaned.bytes }
}

/**
 * Photos as evidence for a return reason, for the token's order only: an upload (the raw image as
 * the body, checked by its bytes, then decoded and encoded again without its metadata) and a
 * preview of the order's own uploads. The image parser lives in this plugin alone: every other
 * route still reads JSON only.
 */
export function photoRoutes(app: Api, context: PortalContext) {
  const authorised = requireToken(context)
  const perClient = app.rateLimit({ max: 60, timeWindow: 60_000, groupId: 'photo-upload' })
  // A preview is read once or twice a step; a loop of reads of 5 MB photos is not a shopper.
  const readsPerClient = app.rateLimit({ max: PHOTO_READS_PER_MINUTE, timeWindow: 60_000, groupId: 'photo-read' })

  acceptImageBodies(app)

  app.post(
    '/portal-registration/photos',
    {
      onRequest: [authorised, refuseReadOnly, perClient],
      schema: { response: replies({ 201: UploadedPhoto }) },
    },
    async (request, reply) => {
      const claims = request.claims!
      // Only the pixels are kept: the camera's metadata (where it was taken) never reaches the shop.
      const cleaned = await cleanedBody(request.body)
      if (!cleaned.ok) return reply.code(cleaned.status).send(cleaned.body)
      const now = context.now()
      const photo: UploadedPhoto = {
        id: randomBytes(16).toString('base64url'),
        content_type: cleaned.type,
        size: cleaned.bytes.byteLength,
      }
      // The bytes first (on PGlite a file, written off the main thread), then the row: the
      // transaction holds the order's lock for a few small statements only.
      const staged = await context.photos.put(photo.id, cleaned.bytes)
      let outcome: UploadedPhoto | 'gone' | 'full' | undefined
      let expired: string[] = []
      try {
        outcome = await context.db.transaction(async (tx) => {
          // The order's lock: two uploads at once cannot both take the last free place.
          if (!(await findOrderById(tx, claims.orderId, true))) return 'gone' as const
          const pruned = await pruneUnattachedPhotos(
            tx,
            claims.orderId,
            new Date(now.getTime() - UNATTACHED_PHOTO_TTL_MS),
          )
          expired = pruned.deleted
          if (pruned.waiting >= UNATTACHED_PHOTOS_PER_ORDER) return 'full' as const
          await insertPhoto(
            tx,
            {
              id: photo.id,
              orderId: claims.orderId,
              contentType: photo.content_type,
              size: photo.size,
              bytes: staged.column,
            },
            now,
          )
          return photo
        })
      } finally {
        // Not committed (refused, or the transaction failed): the bytes go, as the row never was.
        await staged.settle(typeof outcome === 'object')
      }
      // The expired uploads' bytes go once the deletion of their rows is committed; any that cannot
      // go now go at the next sweep, and the photo just stored is answered all the same.
      await context.photos
        .delete(expired)
        .catch((error: unknown) => request.log.warn({ err: error }, 'expired photos not deleted'))
      if (outcome === 'gone')
        return reply.code(401).send({ error: 'session_expired', message: 'This order is no longer available.' })
      if (outcome === 'full') {
        return reply.code(422).send({
          error: 'too_many_photos',
          message: `This order already has ${UNATTACHED_PHOTOS_PER_ORDER} photos waiting for a return.`,
        })
      }
      return reply.code(201).header('cache-control', 'no-store').send(outcome)
    },
  )

  // The shopper's own preview (after a reload, on the confirm step): never a support replay's.
  app.get(
    '/portal-registration/photos/:id',
    {
      onRequest: [authorised, refuseReadOnly, readsPerClient],
      schema: { params: PhotoIdParams, response: replies({ 200: Bytes }) },
    },
    async (request, reply) => {
      const photo = await findPhoto(context.db, request.claims!.orderId, request.params.id)
      // On PGlite the bytes come from their file, read on libuv's threads, not through the database.
      const bytes = photo && (await context.photos.read(context.db, request.params.id, photo.in_row))
      if (!photo || !bytes)
        return reply.code(404).send({ error: 'not_found', message: 'No such photo for this order.' })
      return reply
        .header('content-type', photo.content_type)
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    },
  )
}
