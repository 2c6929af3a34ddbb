import sharp from 'sharp'
import { PHOTO_MAX_SIDE } from '../../../src/api/contract'
import type { PhotoType } from './photos'

/**
 * The most pixels decoded: more than a phone's camera takes in its usual mode (12 to 50 MP). A
 * few kilobytes that decode to gigapixels (a decompression bomb) are refused before decoding.
 */
export const PHOTO_MAX_MEGAPIXELS = 50

// No cache of decoded images between uploads: each photo is read once. One libvips thread per
// photo: with libuv's pool of 4, at most 4 photos are decoded at once (about 150 MB each at the
// pixel limit), and the rest wait their turn.
sharp.cache(false)
sharp.concurrency(1)

export type CleanedPhoto = { ok: true; bytes: Buffer; type: PhotoType; width: number; height: number } | { ok: false; problem: 'unreadable' | 'too_many_pixels' }

/**
 * The photo as it is stored: decoded and encoded again, so what is kept is pixels only. The
 * camera's metadata (EXIF with the place it was taken, XMP, the maker's notes) and anything
 * hidden after or inside the image (a polyglot file) are gone; the picture is turned upright as
 * the camera said, and at most PHOTO_MAX_SIDE (2560 px) on its longest side: a chipped rim or a
 * stain stays plain to see, at a fraction of a phone photo's bytes. The type stays as sent.
 */
export async function cleanPhoto(bytes: Buffer, type: PhotoType): Promise<CleanedPhoto> {
  // The header first: a decompression bomb is refused by its stated size, before any decoding.
  const header = await sharp(bytes).metadata().catch(() => null)
  if (!header?.width || !header.height) return { ok: false, problem: 'unreadable' }
  if (header.width * header.height > PHOTO_MAX_MEGAPIXELS * 1_000_000) return { ok: false, problem: 'too_many_pixels' }
  try {
    // failOn 'error', not sharp's stricter 'warning': a phone's slightly odd JPEG is still taken, and
    // since it is encoded again, nothing but its pixels reaches the shop either way.
    const image = sharp(bytes, { limitInputPixels: PHOTO_MAX_MEGAPIXELS * 1_000_000, failOn: 'error', animated: false, autoOrient: true }).resize({
      width: PHOTO_MAX_SIDE,
      height: PHOTO_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    const encoded = type === 'image/png' ? image.png() : type === 'image/webp' ? image.webp({ quality: 85 }) : image.jpeg({ quality: 85 })
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true })
    return { ok: true, bytes: data, type, width: info.width, height: info.height }
  } catch {
    // A header that reads but pixels that do not: a damaged or cut-short file.
    return { ok: false, problem: 'unreadable' }
  }
}
