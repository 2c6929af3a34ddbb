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
export async function photo(type: PhotoType = 'image/png', { width = 16, height = 16, exif, xmp, orientation }: PhotoOptions = {}): Promise<Buffer> {
  let image = sharp({ create: { width, height, channels: 3, background: '#a04060', noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
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
