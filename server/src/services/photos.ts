/**
 * Photos (docs/api.md): a shopper's evidence for a return reason, checked by its bytes and encoded
 * again without its metadata, as the warehouse's photos are (services/staffPhotos.ts).
 */
import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { PHOTO_MAX_BYTES } from '../../../contract/constants'
import type { UploadedPhoto } from '../../../contract/api'
import type { PortalContext } from '../context'
import { cleanPhoto, PHOTO_MAX_MEGAPIXELS, type CleanedPhoto, type PhotoSender } from '../domain/cleanPhoto'
import { sniffImage, UNATTACHED_PHOTO_TTL_MS, UNATTACHED_PHOTOS_PER_ORDER, type PhotoType } from '../domain/photos'
import { findOrderById } from '../storage/orders'
import { countWaitingPhotos, findPhoto, insertPhoto, pruneUnattachedPhotos } from '../storage/photos'
import { invalidRequest, notFound, orderGone, Refusal } from './refusal'

/** 413 `photo_too_large`: a body over PHOTO_MAX_BYTES. */
export const tooLarge = () =>
  new Refusal(413, {
    error: 'photo_too_large',
    message: `A photo can be at most ${PHOTO_MAX_BYTES / (1024 * 1024)} MB.`,
  })
export const notAnImage = () =>
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
 * A shopper's photo for a return reason, for the token's order (docs/api.md): checked by its bytes,
 * then decoded and encoded again without its metadata, and kept waiting for a return (at most
 * UNATTACHED_PHOTOS_PER_ORDER at once, for UNATTACHED_PHOTO_TTL_MS).
 */
export async function addPhoto(
  context: PortalContext,
  orderId: string,
  body: unknown,
  sender: PhotoSender,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<UploadedPhoto> {
  const checked = checkedBody(body)
  const now = context.now()
  const expired = new Date(now.getTime() - UNATTACHED_PHOTO_TTL_MS)
  // An order that cannot take another photo is told so before its photo costs a decoding.
  if ((await countWaitingPhotos(context.db, orderId, expired)) >= UNATTACHED_PHOTOS_PER_ORDER) throw tooManyPhotos()
  // Only the pixels are kept: the camera's metadata (where it was taken) never reaches the shop.
  const cleaned = await cleanedBody(checked, sender)
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
      if (!(await findOrderById(tx, orderId, true))) return 'gone' as const
      // Counted again under the lock: another upload may have taken the last place meanwhile.
      const kept = await pruneUnattachedPhotos(tx, orderId, expired)
      pruned = kept.deleted
      if (kept.waiting >= UNATTACHED_PHOTOS_PER_ORDER) return 'full' as const
      await insertPhoto(
        tx,
        { id: photo.id, orderId, contentType: photo.content_type, size: photo.size, bytes: staged.column },
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
  await context.photos.delete(pruned).catch((error: unknown) => log.warn({ err: error }, 'expired photos not deleted'))
  if (outcome === 'gone') throw orderGone()
  if (outcome === 'full') throw tooManyPhotos()
  return outcome
}

/** One of the order's own photos: its type and bytes. */
export async function readPhoto(context: PortalContext, orderId: string, id: string) {
  const photo = await findPhoto(context.db, orderId, id)
  // On PGlite the bytes come from their file, read on libuv's threads, not through the database.
  const bytes = photo && (await context.photos.read(context.db, id, photo.in_row))
  if (!photo || !bytes) throw notFound('No such photo for this order.')
  return { contentType: photo.content_type, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
}
