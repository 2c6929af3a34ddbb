import { randomBytes } from 'node:crypto'
import type { FastifyError, FastifyReply } from 'fastify'
import { PHOTO_MAX_BYTES, PHOTO_TYPES } from '../../../contract/constants'
import { PhotoIdParams, UploadedPhoto } from '../../../contract/api'
import type { PortalContext } from '../context'
import { cleanPhoto, PHOTO_MAX_MEGAPIXELS, type CleanedPhoto, type PhotoSender } from '../domain/cleanPhoto'
import { sniffImage, UNATTACHED_PHOTO_TTL_MS, UNATTACHED_PHOTOS_PER_ORDER, type PhotoType } from '../domain/photos'
import { findOrderById } from '../storage/orders'
import { countWaitingPhotos, findPhoto, insertPhoto, pruneUnattachedPhotos } from '../storage/photos'
import { invalidRequest, notFound, orderGone, Refusal } from '../services/refusal'
import { refuseReadOnly } from './auth'
import { Bytes, replies, type Api } from './typed'

const MAX_MB = PHOTO_MAX_BYTES / (1024 * 1024)
/** Reads of photos per client a minute: a shopper's previews with room to spare. */
export const PHOTO_READS_PER_MINUTE = 120
const notAnImage = () =>
  new Refusal(415, { error: 'unsupported_media_type', message: 'The file is not a JPEG, PNG or WebP image.' })
const tooManyPhotos = () =>
  new Refusal(422, {
    error: 'too_many_photos',
    message: `This order already has ${UNATTACHED_PHOTOS_PER_ORDER} photos waiting for a return.`,
  })
const BUSY = {
  status: 503,
  error: 'busy',
  message: 'Many photos are being prepared at the moment. Please try again in a few seconds.',
}

/** Why cleanPhoto refused a photo, as its sender is told. */
const CLEANING_REFUSALS: Record<
  Extract<CleanedPhoto, { ok: false }>['problem'],
  { status: number; error: string; message: string }
> = {
  too_many_pixels: {
    status: 413,
    error: 'photo_too_large',
    message: `A photo can be at most ${PHOTO_MAX_MEGAPIXELS} megapixels.`,
  },
  too_slow: {
    status: 413,
    error: 'photo_too_large',
    message: 'The photo took too long to prepare. Please send a smaller photo.',
  },
  client_full: {
    status: 429,
    error: 'too_many_uploads',
    message: 'Your other photos are still being prepared. Please send this one again once they are done.',
  },
  queue_full: BUSY,
  abandoned: BUSY,
  unreadable: {
    status: 415,
    error: 'unsupported_media_type',
    message: 'The image could not be read: it may be damaged or cut short.',
  },
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
  // The body parser's refusals in the photos' words; the API's own handler answers them and the rest.
  app.setErrorHandler((error: FastifyError) => {
    if (error instanceof Refusal) throw error
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)
      throw new Refusal(413, { error: 'photo_too_large', message: `A photo can be at most ${MAX_MB} MB.` })
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw notAnImage()
    throw error
  })
}

/**
 * The photo's own checks that cost nothing (its bytes say an image), before any count or decoding;
 * refused otherwise.
 */
export function checkedBody(body: unknown): { type: PhotoType; bytes: Buffer } {
  if (!Buffer.isBuffer(body)) throw notAnImage()
  if (body.byteLength === 0) throw invalidRequest('body: is empty; send the photo')
  const type = sniffImage(body)
  if (!type) throw notAnImage()
  return { type, bytes: body }
}

/**
 * A checked body as the photo to keep: the bytes decide its type, not the header (HTML or SVG
 * named image/png is refused), and only its pixels are kept, encoded again, so the camera's
 * metadata (where it was taken) goes no further. The encoding waits the sender's turn (cleanPhoto);
 * otherwise refused, with a `retry-after` when waiting helps.
 */
export async function cleanedBody(
  checked: { type: PhotoType; bytes: Buffer },
  sender: PhotoSender,
): Promise<{ type: string; bytes: Uint8Array }> {
  const cleaned = await cleanPhoto(checked.bytes, checked.type, sender)
  if (cleaned.ok) return { type: cleaned.type, bytes: cleaned.bytes }
  const { status, ...body } = CLEANING_REFUSALS[cleaned.problem]
  throw new Refusal(
    status,
    body,
    'retryAfterSeconds' in cleaned ? { 'retry-after': String(cleaned.retryAfterSeconds) } : {},
  )
}

/**
 * The photo queue's client for this request, and a signal that aborts when the client goes away
 * before its answer: a photo still waiting for its turn then never takes one.
 */
export function senderOf(reply: FastifyReply, client: string): PhotoSender {
  const gone = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort()
  })
  return { client, signal: gone.signal }
}

/**
 * Photos as evidence for a return reason, for the token's order only: an upload (the raw image as
 * the body, checked by its bytes, then decoded and encoded again without its metadata) and a
 * preview of the order's own uploads. The image parser lives in this plugin alone: every other
 * route still reads JSON only.
 */
export function photoRoutes(app: Api, context: PortalContext) {
  const perClient = app.rateLimit({ max: 60, timeWindow: 60_000, groupId: 'photo-upload' })
  // A preview is read once or twice a step; a loop of reads of 5 MB photos is not a shopper.
  const readsPerClient = app.rateLimit({ max: PHOTO_READS_PER_MINUTE, timeWindow: 60_000, groupId: 'photo-read' })

  acceptImageBodies(app)

  app.post(
    '/portal-registration/photos',
    {
      onRequest: [refuseReadOnly, perClient],
      schema: { response: replies({ 201: UploadedPhoto }) },
    },
    async (request, reply) => {
      const claims = request.claims
      const checked = checkedBody(request.body)
      const now = context.now()
      const expired = new Date(now.getTime() - UNATTACHED_PHOTO_TTL_MS)
      // An order that cannot take another photo is told so before its photo costs a decoding.
      if ((await countWaitingPhotos(context.db, claims.orderId, expired)) >= UNATTACHED_PHOTOS_PER_ORDER)
        throw tooManyPhotos()
      // Only the pixels are kept: the camera's metadata (where it was taken) never reaches the shop.
      // The order is the queue's client: a shopper behind a shared address is not another's share.
      const cleaned = await cleanedBody(checked, senderOf(reply, `order:${claims.orderId}`))
      const photo: UploadedPhoto = {
        id: randomBytes(16).toString('base64url'),
        content_type: cleaned.type,
        size: cleaned.bytes.byteLength,
      }
      // The bytes first (on PGlite a file, written off the main thread), then the row: the
      // transaction holds the order's lock for a few small statements only.
      const staged = await context.photos.put(photo.id, cleaned.bytes)
      let outcome: UploadedPhoto | 'gone' | 'full' | undefined
      let pruned: string[] = []
      try {
        outcome = await context.db.transaction(async (tx) => {
          // The order's lock: two uploads at once cannot both take the last free place.
          if (!(await findOrderById(tx, claims.orderId, true))) return 'gone' as const
          // Counted again under the lock: another upload may have taken the last place meanwhile.
          const kept = await pruneUnattachedPhotos(tx, claims.orderId, expired)
          pruned = kept.deleted
          if (kept.waiting >= UNATTACHED_PHOTOS_PER_ORDER) return 'full' as const
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
        .delete(pruned)
        .catch((error: unknown) => request.log.warn({ err: error }, 'expired photos not deleted'))
      if (outcome === 'gone') throw orderGone()
      if (outcome === 'full') throw tooManyPhotos()
      return reply.code(201).header('cache-control', 'no-store').send(outcome)
    },
  )

  // The shopper's own preview (after a reload, on the confirm step): never a support replay's.
  app.get(
    '/portal-registration/photos/:id',
    {
      onRequest: [refuseReadOnly, readsPerClient],
      schema: { params: PhotoIdParams, response: replies({ 200: Bytes }) },
    },
    async (request, reply) => {
      const photo = await findPhoto(context.db, request.claims.orderId, request.params.id)
      // On PGlite the bytes come from their file, read on libuv's threads, not through the database.
      const bytes = photo && (await context.photos.read(context.db, request.params.id, photo.in_row))
      if (!photo || !bytes) throw notFound('No such photo for this order.')
      return reply
        .header('content-type', photo.content_type)
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    },
  )
}
