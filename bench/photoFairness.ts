/**
 * Fairness of the photo queue (docs/decisions/0038-photo-reencoding-concurrency.md): one client
 * (127.0.0.2, an order of its own) sends five 49-megapixel JPEGs of noise at once, the costliest
 * photos to re-encode; once they are queued, another client (127.0.0.3, another order) sends one
 * small photo. Measured: how long the small one took, and how many of the large ones finished
 * before it. In one first-come queue it waits for all five.
 */
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import sharp from 'sharp'
import { PHOTO_MAX_BYTES } from '../contract/constants'

export interface Fairness {
  /** the small upload, sent once the five large ones are queued: from sent to answered */
  smallMs: number
  /** large uploads answered before the small one (of 5) */
  largeBefore: number
  /** the large uploads: median time of one */
  largeMedianMs: number
  /** every answer's status: the large ones, then the small one */
  statuses: number[]
}

/** 49 megapixels (7000 × 7000) of noise, as a JPEG just under PHOTO_MAX_BYTES. */
export async function noiseJpeg49(): Promise<Buffer> {
  const side = 7000
  const pixels = randomBytes(side * side * 3)
  for (const quality of [10, 8, 6, 4, 2]) {
    const image = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality })
      .toBuffer()
    if (image.byteLength < PHOTO_MAX_BYTES) return image
  }
  throw new Error('no 49-megapixel JPEG under the size limit')
}

/** A phone photo after the portal shrank it: 1280 × 960, a few hundred KB. */
export function smallJpeg(): Promise<Buffer> {
  return sharp({
    create: {
      width: 1280,
      height: 960,
      channels: 3,
      background: '#a04060',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer()
}

/** One upload from `from` (a loopback address: a client of its own); its status and time. */
function uploadFrom(port: number, from: string, token: string, body: Buffer): Promise<{ status: number; ms: number }> {
  const sent = performance.now()
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/portal-registration/photos',
        agent: false,
        timeout: 60_000,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg', 'content-length': body.byteLength },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - sent }))
        response.on('error', () => resolve({ status: 0, ms: performance.now() - sent }))
      },
    )
    outgoing.on('timeout', () => outgoing.destroy())
    outgoing.on('error', () => resolve({ status: 0, ms: performance.now() - sent }))
    outgoing.end(body)
  })
}

/** Five large photos of `tokens[0]`'s order, then, once queued, one small photo of `tokens[1]`'s. */
export async function measureFairness(
  port: number,
  tokens: readonly [string, string],
  large: Buffer,
  small: Buffer,
): Promise<Fairness> {
  let largeDone = 0
  const larges = Array.from({ length: 5 }, () =>
    uploadFrom(port, '127.0.0.2', tokens[0], large).then((answer) => {
      largeDone++
      return answer
    }),
  )
  // 20 MB on loopback arrive within a few milliseconds; the first large one takes over a second.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const smallAnswer = await uploadFrom(port, '127.0.0.3', tokens[1], small)
  const largeBefore = largeDone
  const largeAnswers = await Promise.all(larges)
  const times = largeAnswers.map((answer) => answer.ms).sort((a, b) => a - b)
  return {
    smallMs: Math.round(smallAnswer.ms),
    largeBefore,
    largeMedianMs: Math.round(times[2]!),
    statuses: [...largeAnswers.map((answer) => answer.status), smallAnswer.status],
  }
}
