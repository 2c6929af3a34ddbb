import { randomBytes } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import type { PhotoType } from '../src/domain/photos'

export interface PhotoOptions {
  width?: number
  height?: number
  /** what a phone writes beside the pixels: EXIF tags of IFD0 (e.g. where the photo was taken) */
  exif?: Record<string, string>
  xmp?: string
  /** the EXIF orientation: 6 is a phone held upright, its sensor's picture turned a quarter */
  orientation?: number
}

/** A real image, as a browser would upload it: a colour field with noise, so it compresses like a photo. */
export async function photo(
  type: PhotoType = 'image/png',
  { width = 16, height = 16, exif, xmp, orientation }: PhotoOptions = {},
): Promise<Buffer> {
  let image = sharp({
    create: { width, height, channels: 3, background: '#a04060', noise: { type: 'gaussian', mean: 128, sigma: 20 } },
  })
  image = type === 'image/png' ? image.png() : type === 'image/webp' ? image.webp() : image.jpeg({ quality: 80 })
  if (exif) image = image.withExif({ IFD0: exif })
  if (xmp) image = image.withXmp(xmp)
  if (orientation) image = image.withMetadata({ orientation })
  return image.toBuffer()
}

/** First bytes only: enough for the sniffer, not an image. */
export const MAGIC = {
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.alloc(8)]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(16)]),
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.byteLength)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A valid black PNG of `width` × `height` in one bit per pixel: 20000 × 20000 (400 megapixels) is
 * about 50 KB, made in a fraction of a second (sharp takes seconds, and refuses above its limit).
 */
export function blackPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // greyscale
  // Each row: filter type 0, then width bits of zero.
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height)
  return Buffer.concat([
    MAGIC.png.subarray(0, 8),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * A noisy photo stored as a palette PNG (256 colours, one byte a pixel): the PNG that grows most
 * when written again as the RGB PNG sharp makes (about twice its size).
 */
export function noisyPalettePng(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#a04060', noise: { type: 'gaussian', mean: 128, sigma: 20 } },
  })
    .png({ palette: true, effort: 1, dither: 0 })
    .toBuffer()
}

let noise: Promise<Buffer> | null = null

/**
 * A JPEG of 12 megapixels of pure noise, just under 4 MB: the photo that costs most to decode and
 * encode again for its size (a few tenths of a second). Made once per test file.
 */
export function bigNoiseJpeg(): Promise<Buffer> {
  const width = 4000
  const height = 3000
  noise ??= sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 40 })
    .toBuffer()
  return noise
}
