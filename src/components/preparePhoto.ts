import { PHOTO_MAX_BYTES, PHOTO_MAX_SIDE, PHOTO_TYPES } from '../../contract/constants'

/**
 * The largest file the browser is asked to shrink: a phone camera's photo (a 50 MP JPEG is 15 to
 * 25 MB). Files are shrunk one at a time, so a phone decodes one picture at once.
 */
export const PHOTO_PICK_MAX_BYTES = 30 * 1024 * 1024
const JPEG_QUALITY = 0.85

/** A file's bytes (FileReader: every browser, and jsdom in the tests). */
function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as ArrayBuffer)
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsArrayBuffer(file)
  })
}

export type PreparedPhoto =
  { ok: true; bytes: ArrayBuffer; type: string } | { ok: false; problem: 'notImage' | 'tooLarge'; maxBytes: number }

/** Whether this browser draws photos again before sending them (every current one does). */
const canShrink = () =>
  typeof createImageBitmap === 'function' &&
  typeof HTMLCanvasElement !== 'undefined' &&
  typeof HTMLCanvasElement.prototype.toBlob === 'function'

/** The largest file the shopper may choose here: what the browser shrinks, else what the API takes. */
export const photoPickMaxBytes = () => (canShrink() ? PHOTO_PICK_MAX_BYTES : PHOTO_MAX_BYTES)

const sendable = (file: Blob) => (PHOTO_TYPES as readonly string[]).includes(file.type)

/** What is wrong with the file before anything is read (a text file, a 100 MB file), or null. */
export function checkPhotoFile(file: File): Extract<PreparedPhoto, { ok: false }> | null {
  // An empty type is a photo the platform does not name (HEIC on some systems): the browser may still read it.
  if (!sendable(file) && file.type !== '' && !file.type.startsWith('image/'))
    return { ok: false, problem: 'notImage', maxBytes: PHOTO_MAX_BYTES }
  const maxBytes = photoPickMaxBytes()
  if (file.size > maxBytes) return { ok: false, problem: 'tooLarge', maxBytes }
  return null
}

/** The picture drawn at most PHOTO_MAX_SIDE on its longest side and encoded as a JPEG, or null where the browser cannot. */
async function shrink(file: Blob): Promise<Blob | null> {
  // The browser decodes the file and turns it upright as the camera said (EXIF orientation).
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' }).catch(() => null)
  if (!bitmap) return null
  const canvas = document.createElement('canvas')
  try {
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height))
    canvas.width = Math.max(1, Math.round(bitmap.width * scale))
    canvas.height = Math.max(1, Math.round(bitmap.height * scale))
    const context = canvas.getContext('2d')
    if (!context) return null
    // A see-through PNG gets white behind it, not the black a JPEG would give it.
    context.fillStyle = '#fff'
    context.fillRect(0, 0, canvas.width, canvas.height)
    context.imageSmoothingQuality = 'high'
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY))
  } finally {
    bitmap.close()
    // Its memory back at once (Safari caps what all canvases may hold).
    canvas.width = 0
    canvas.height = 0
  }
}

/** The files being prepared, in turn: one decoded picture in a phone's memory at a time. */
let queue: Promise<unknown> = Promise.resolve()

/**
 * The photo as the portal sends it, one file after another. Where the browser can, it is drawn
 * again: at most 2560 px, as a JPEG, so a phone's 3 to 12 MB photo goes up as a few hundred KB on
 * a weak connection, a photo over the API's 5 MB is taken too, and its metadata (EXIF with the
 * place it was taken) does not leave the phone. Where it cannot (no canvas, a type it does not
 * decode), the file goes as it is, if the API takes it: the API cleans every photo again anyway.
 * For a file checkPhotoFile has taken (the picker checks each one as it is chosen).
 */
export function preparePhoto(file: File): Promise<PreparedPhoto> {
  const prepared = queue.then(() => prepareNow(file))
  queue = prepared.catch(() => undefined)
  return prepared
}

async function prepareNow(file: File): Promise<PreparedPhoto> {
  const shrunk = canShrink() ? await shrink(file) : null
  if (shrunk && shrunk.size <= PHOTO_MAX_BYTES) return { ok: true, bytes: await readBytes(shrunk), type: 'image/jpeg' }
  if (!sendable(file)) return { ok: false, problem: 'notImage', maxBytes: PHOTO_MAX_BYTES }
  if (file.size > PHOTO_MAX_BYTES) return { ok: false, problem: 'tooLarge', maxBytes: PHOTO_MAX_BYTES }
  return { ok: true, bytes: await readBytes(file), type: file.type }
}
