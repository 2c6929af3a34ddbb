import type { FastifyError, FastifyReply } from 'fastify'
import { PHOTO_MAX_BYTES, PHOTO_TYPES } from '../../../contract/constants'
import { PhotoIdParams, UploadedPhoto } from '../../../contract/api'
import type { PhotoSender } from '../domain/cleanPhoto'
import { addPhoto, notAnImage, readPhoto, tooLarge } from '../services/photos'
import { Refusal } from '../services/refusal'
import { refuseReadOnly } from './auth'
import { Bytes, replies, routes, type Api } from './typed'

/** Reads of photos per client a minute: a shopper's previews with room to spare. */
export const PHOTO_READS_PER_MINUTE = 120

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
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) throw tooLarge()
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw notAnImage()
    throw error
  })
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
export const photoRoutes = routes((app, context) => {
  const perClient = app.rateLimit({ max: 60, timeWindow: 60_000, groupId: 'photo-upload' })
  // A preview is read once or twice a step; a loop of reads of 5 MB photos is not a shopper.
  const readsPerClient = app.rateLimit({ max: PHOTO_READS_PER_MINUTE, timeWindow: 60_000, groupId: 'photo-read' })

  acceptImageBodies(app)

  app.post(
    '/photos',
    {
      onRequest: [refuseReadOnly, perClient],
      schema: { response: replies({ 201: UploadedPhoto }) },
    },
    async (request, reply) => {
      // The order is the queue's client: a shopper behind a shared address is not another's share.
      const sender = senderOf(reply, `order:${request.claims.orderId}`)
      const photo = await addPhoto(context, request.claims.orderId, request.body, sender, request.log)
      return reply.code(201).header('cache-control', 'no-store').send(photo)
    },
  )

  // The shopper's own preview (after a reload, on the confirm step): never a support replay's.
  app.get(
    '/photos/:id',
    {
      onRequest: [refuseReadOnly, readsPerClient],
      schema: { params: PhotoIdParams, response: replies({ 200: Bytes }) },
    },
    async (request, reply) => {
      const { contentType, bytes } = await readPhoto(context, request.claims.orderId, request.params.id)
      return reply
        .header('content-type', contentType)
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes)
    },
  )
})
