import sharp from 'sharp'
import { PHOTO_MAX_SIDE } from '../../../contract/constants'
import { blackPng, noisyPalettePng, photo } from '../../test/images'
import { cleanPhoto } from './cleanPhoto'
import type { PhotoType } from './photos'

const TESTER = { client: 'cleanPhoto.test' }

async function cleaned(bytes: Buffer, type: PhotoType) {
  const result = await cleanPhoto(bytes, type, TESTER)
  if (!result.ok) throw new Error(`not cleaned: ${result.problem}`)
  return result
}

describe('cleanPhoto stores no more bytes than were sent', () => {
  test('a noisy photo sent as a palette PNG is a JPEG at quality 85, smaller than sent: as a PNG again it would be larger', async () => {
    const sent = await noisyPalettePng(640, 480)
    // What was stored before: sharp's RGB PNG of the same pixels, far larger than the upload.
    expect((await sharp(sent).png().toBuffer()).byteLength).toBeGreaterThan(sent.byteLength * 1.5)
    const stored = await cleaned(sent, 'image/png')
    expect(stored.type).toBe('image/jpeg')
    expect(stored.bytes.byteLength).toBeLessThanOrEqual(sent.byteLength)
    expect(await sharp(stored.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 480 })
  })

  test('a noisy RGB PNG stays a PNG, pixel for pixel, no larger than sent', async () => {
    const sent = await photo('image/png', { width: 320, height: 240 })
    const stored = await cleaned(sent, 'image/png')
    expect(stored.type).toBe('image/png')
    expect(stored.bytes.byteLength).toBeLessThanOrEqual(sent.byteLength)
    const [after, before] = await Promise.all([sharp(stored.bytes).raw().toBuffer(), sharp(sent).raw().toBuffer()])
    expect(after.equals(before)).toBe(true)
  })

  test('a photo-like PNG (smooth, a little grain) stays a PNG, smaller than sharp’s default would write it', async () => {
    // Gradients and soft texture, as a camera's picture, with sensor noise: adaptive filtering pays.
    const width = 480
    const height = 360
    const soft = await sharp({
      create: {
        width: width / 8,
        height: height / 8,
        channels: 3,
        background: '#806040',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .resize(width, height, { kernel: 'cubic' })
      .blur(3)
      .png()
      .toBuffer()
    const stored = await cleaned(soft, 'image/png')
    expect(stored.type).toBe('image/png')
    expect(stored.bytes.byteLength).toBeLessThan(soft.byteLength)
  })

  test.each([
    ['a PNG', 'image/png', { width: 40, height: 30 }],
    ['a large PNG', 'image/png', { width: 900, height: 600 }],
    ['a JPEG', 'image/jpeg', { width: 40, height: 30 }],
    ['a large JPEG', 'image/jpeg', { width: 900, height: 600 }],
    ['a WebP', 'image/webp', { width: 40, height: 30 }],
    ['a large WebP', 'image/webp', { width: 900, height: 600 }],
  ] as const)('%s (noisy) is stored in at most the bytes sent', async (_name, type, size) => {
    const sent = await photo(type, size)
    const stored = await cleaned(sent, type)
    expect(stored.bytes.byteLength).toBeLessThanOrEqual(sent.byteLength)
  })

  test('a JPEG compressed harder than quality 85 is not made larger: a lower quality is taken', async () => {
    const sent = await sharp({
      create: {
        width: 600,
        height: 400,
        channels: 3,
        background: '#a04060',
        noise: { type: 'gaussian', mean: 128, sigma: 20 },
      },
    })
      .jpeg({ quality: 40 })
      .toBuffer()
    const stored = await cleaned(sent, 'image/jpeg')
    expect(stored.type).toBe('image/jpeg')
    expect(stored.bytes.byteLength).toBeLessThanOrEqual(sent.byteLength)
  })

  test('a transparent PNG taken as a JPEG shows its transparent parts white', async () => {
    const width = 200
    const height = 100
    const pixels = Buffer.alloc(width * height * 4)
    for (let y = 0; y < height; y++) {
      for (let x = width / 2; x < width; x++) {
        const at = (y * width + x) * 4
        // The right half: opaque noise; the left half stays transparent.
        pixels.set(
          [Math.floor(Math.random() * 256), Math.floor(Math.random() * 256), Math.floor(Math.random() * 256), 255],
          at,
        )
      }
    }
    const sent = await sharp(pixels, { raw: { width, height, channels: 4 } })
      .png({ palette: true, effort: 1, dither: 0 })
      .toBuffer()
    const stored = await cleaned(sent, 'image/png')
    expect(stored.type).toBe('image/jpeg')
    const { data, info } = await sharp(stored.bytes).raw().toBuffer({ resolveWithObject: true })
    const corner = [...data.subarray(0, info.channels)]
    for (const value of corner) expect(value).toBeGreaterThan(245)
  })
})

describe('cleanPhoto reads the pixel count from the header, without sharp’s own limit', () => {
  test('a 400-megapixel PNG of 50 KB is too many pixels, not unreadable', async () => {
    const huge = blackPng(20_000, 20_000)
    expect(huge.byteLength).toBeLessThan(300 * 1024)
    // sharp alone refuses to read it at all (its limit is 268 megapixels).
    await expect(sharp(huge).metadata()).rejects.toThrow(/pixel limit/)
    expect(await cleanPhoto(huge, 'image/png', TESTER)).toEqual({ ok: false, problem: 'too_many_pixels' })
  })

  test('a large image within the limit (10 megapixels) is read, and stored at most 2560 px on its longest side', async () => {
    const result = await cleanPhoto(blackPng(5000, 2000), 'image/png', TESTER)
    expect(result).toMatchObject({ ok: true, width: PHOTO_MAX_SIDE, height: 1024 })
  })
})
