import { availableParallelism } from 'node:os'
import sharp from 'sharp'
import { PHOTO_MAX_SIDE } from '../../../contract/constants'
import { FairQueue } from './fairQueue'
import type { PhotoType } from './photos'

/**
 * The most pixels decoded: more than a phone's camera takes in its usual mode (12 to 50 MP). A
 * few kilobytes that decode to gigapixels (a decompression bomb) are refused before decoding.
 */
export const PHOTO_MAX_MEGAPIXELS = 50

// No cache of decoded images between uploads: each photo is read once. One libvips thread per
// photo (about 150 MB each at the pixel limit), and at most ENCODING_AT_ONCE photos at a time.
sharp.cache(false)
sharp.concurrency(1)

/** libuv's pool, where sharp's work and file reads and writes run: 4 threads unless told. */
const POOL_THREADS = Number(process.env.UV_THREADPOOL_SIZE) || 4

/**
 * Photos encoded at once: one core fewer than the machine has, and one of libuv's threads fewer
 * than its pool (at least one photo). Encoding takes a core for up to a second; with every core
 * encoding, the event loop waits for a core between each of its steps, and every request is slow
 * (bench/photos.ts). With every pool thread encoding, the photo files (PGlite) wait behind them.
 */
export const ENCODING_AT_ONCE = Math.max(1, Math.min(availableParallelism(), POOL_THREADS) - 1)

/**
 * Further photos wait their turn, shared fairly between clients, and not too many: 8 for each
 * place (a few seconds each at most, fewer than the portal waits for an answer), and 5 of one
 * client's, running or waiting (an item takes 3 at once). Beyond that, a photo is refused at once
 * with a time to try again (docs/decisions/0038-photo-reencoding-concurrency.md).
 */
export const photoQueue = new FairQueue({ atOnce: ENCODING_AT_ONCE, waiting: 8 * ENCODING_AT_ONCE, perClient: 5 })

/**
 * The most time one photo's encodings take, all tries together: a 49-megapixel photo of noise
 * takes 1.5 to 3 s on a busy core. Past it, the photo is refused rather than hold its place.
 */
export const ENCODING_SECONDS = 20

export type CleanedPhoto =
  | { ok: true; bytes: Buffer; type: PhotoType; width: number; height: number }
  | { ok: false; problem: 'unreadable' | 'too_many_pixels' | 'too_slow' }
  | { ok: false; problem: 'queue_full' | 'client_full' | 'abandoned'; retryAfterSeconds: number }

/** Whose photo it is (a client of the photo queue), and whether its sender still waits for it. */
export interface PhotoSender {
  client: string
  signal?: AbortSignal
}

type Encoding = { type: PhotoType; encode: (image: sharp.Sharp) => sharp.Sharp }

const jpeg = (quality: number): Encoding => ({
  type: 'image/jpeg',
  // A transparent PNG taken as a JPEG: its transparent parts white, as a viewer shows them.
  encode: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality }),
})

/** Quality 85 first; an upload larger at 85 was compressed harder, and a lower one fits it. */
const QUALITIES = [85, 70, 50, 30, 15]

/**
 * The encodings tried in turn: the first no larger than the upload is kept. A PNG first stays a
 * PNG, lossless: with adaptive filtering (a quarter smaller than sharp's default for a photo),
 * then without (smaller for noise and grain, and what sharp itself writes); larger than the upload
 * either way (a palette PNG of 4.9 MB is 8 to 12 MB as the RGB PNG sharp writes), it is a JPEG
 * at quality 85, which still shows a chip or a stain plainly (see docs/decisions/0037-photo-storage.md). JPEG and WebP
 * stay as they are, at quality 85 or the first below it no larger than the upload.
 */
const ENCODINGS: Record<PhotoType, Encoding[]> = {
  'image/png': [
    { type: 'image/png', encode: (image) => image.png({ adaptiveFiltering: true }) },
    { type: 'image/png', encode: (image) => image.png() },
    ...QUALITIES.map(jpeg),
  ],
  'image/jpeg': QUALITIES.map(jpeg),
  'image/webp': QUALITIES.map((quality): Encoding => ({
    type: 'image/webp',
    encode: (image) => image.webp({ quality }),
  })),
}

/**
 * The photo as it is stored: decoded and encoded again, so what is kept is pixels only. The
 * camera's metadata (EXIF with the place it was taken, XMP, the maker's notes) and anything
 * hidden after or inside the image (a polyglot file) are gone; the picture is turned upright as
 * the camera said, and at most PHOTO_MAX_SIDE (2560 px) on its longest side: a chipped rim or a
 * stain stays plain to see, at a fraction of a phone photo's bytes. It is never stored larger than
 * it was sent (ENCODINGS), but for an image of a few hundred bytes, where an encoder's own headers
 * are more than the picture: that one is kept in its smallest encoding. The encoding waits its
 * sender's turn in photoQueue, and is refused when the queue or the sender's share is full.
 */
export async function cleanPhoto(bytes: Buffer, type: PhotoType, sender: PhotoSender): Promise<CleanedPhoto> {
  // The header first: a decompression bomb is refused by its stated size, before any decoding.
  // Without sharp's own limit on pixels (268 MP), which would refuse a 400 MP header as unreadable
  // rather than let it be told apart as too large: reading a header decodes nothing.
  const header = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null)
  if (!header?.width || !header.height) return { ok: false, problem: 'unreadable' }
  if (header.width * header.height > PHOTO_MAX_MEGAPIXELS * 1_000_000) return { ok: false, problem: 'too_many_pixels' }
  const turn = await photoQueue.run(sender.client, () => smallestEncoding(bytes, type, header), sender.signal)
  if (!turn.ok) return turn
  return turn.value
}

async function smallestEncoding(bytes: Buffer, type: PhotoType, header: sharp.Metadata): Promise<CleanedPhoto> {
  const deadline = performance.now() + ENCODING_SECONDS * 1_000
  let found: { data: Buffer; info: sharp.OutputInfo; type: PhotoType } | null = null
  try {
    for (const { type: encodedType, encode } of encodingsFor(type, header)) {
      // libvips stops a try past its time (whole seconds, at least one): the photo's time is shared by its tries.
      const seconds = Math.max(1, Math.ceil((deadline - performance.now()) / 1_000))
      // Decoded again for each try: it takes a fraction of the encoding's time, and a second
      // try is for an upload that did not fit the first.
      const { data, info } = await encode(decoded(bytes)).timeout({ seconds }).toBuffer({ resolveWithObject: true })
      if (!found || data.byteLength < found.data.byteLength) found = { data, info, type: encodedType }
      if (data.byteLength <= bytes.byteLength) break
    }
  } catch (error) {
    if (/timeout/i.test((error as Error).message)) return { ok: false, problem: 'too_slow' }
    // A header that reads but pixels that do not: a damaged or cut-short file.
    return { ok: false, problem: 'unreadable' }
  }
  return { ok: true, bytes: found!.data, type: found!.type, width: found!.info.width, height: found!.info.height }
}

/**
 * ENCODINGS for this upload. A palette PNG (one byte a pixel) kept at its size would only grow as
 * the RGB PNG sharp writes (three bytes a pixel: 4.9 MB of noise became 8.3 MB): it goes straight
 * to JPEG, which saves about a second of encoding. Shrunk to PHOTO_MAX_SIDE, it may not grow, and
 * is tried as a PNG like any other.
 */
function encodingsFor(type: PhotoType, header: sharp.Metadata): Encoding[] {
  const shrunk = Math.max(header.width, header.height) > PHOTO_MAX_SIDE
  if (type === 'image/png' && header.isPalette && !shrunk)
    return ENCODINGS[type].filter((encoding) => encoding.type !== 'image/png')
  return ENCODINGS[type]
}

function decoded(bytes: Buffer): sharp.Sharp {
  // failOn 'error', not sharp's stricter 'warning': a phone's slightly odd JPEG is still taken, and
  // since it is encoded again, nothing but its pixels reaches the shop either way.
  return sharp(bytes, {
    limitInputPixels: PHOTO_MAX_MEGAPIXELS * 1_000_000,
    failOn: 'error',
    animated: false,
    autoOrient: true,
  }).resize({
    width: PHOTO_MAX_SIDE,
    height: PHOTO_MAX_SIDE,
    fit: 'inside',
    withoutEnlargement: true,
  })
}
