import { useId, useRef, type Dispatch } from 'react'
import { PHOTO_MAX_BYTES, PHOTO_MAX_SIDE, PHOTO_TYPES, PHOTOS_PER_ITEM } from '../../contract/constants'
import { Spinner } from '../components/Spinner'
import { errorText } from './api'
import type { ChoiceEvent, PhotoSlot } from './ReceivingChoices'
import { useUploadInspectionPhotoMutation } from './receivingApi'

/** The largest file taken from the camera or library before it is drawn smaller (a 50 MP JPEG). */
const PICK_MAX_BYTES = 30 * 1024 * 1024

type Prepared = { ok: true; bytes: ArrayBuffer; type: string } | { ok: false; problem: string }

/** A file's bytes (FileReader: every browser, and jsdom in the tests). */
function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as ArrayBuffer)
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsArrayBuffer(file)
  })
}

/** The picture at most PHOTO_MAX_SIDE on its longest side, as a JPEG; null where the browser cannot draw it. */
async function shrink(file: Blob): Promise<Blob | null> {
  if (typeof createImageBitmap !== 'function') return null
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' }).catch(() => null)
  if (!bitmap) return null
  const canvas = document.createElement('canvas')
  try {
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height))
    canvas.width = Math.max(1, Math.round(bitmap.width * scale))
    canvas.height = Math.max(1, Math.round(bitmap.height * scale))
    const context = canvas.getContext('2d')
    if (!context) return null
    context.fillStyle = '#fff'
    context.fillRect(0, 0, canvas.width, canvas.height)
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85))
  } finally {
    bitmap.close()
    canvas.width = 0
    canvas.height = 0
  }
}

/**
 * The photo as it is sent: drawn again at most 2560 px as a JPEG where the browser can, so a
 * phone's 5 to 12 MB picture goes up as a few hundred KB over the warehouse's Wi-Fi; else as it is,
 * when the API takes its type and size.
 */
async function preparePhoto(file: File): Promise<Prepared> {
  const name = file.name.length > 60 ? `${file.name.slice(0, 57)}…` : file.name
  if (file.type !== '' && !file.type.startsWith('image/')) return { ok: false, problem: `${name} is not a photo.` }
  if (file.size > PICK_MAX_BYTES) return { ok: false, problem: `${name} is too large.` }
  const shrunk = await shrink(file)
  if (shrunk && shrunk.size <= PHOTO_MAX_BYTES) return { ok: true, bytes: await readBytes(shrunk), type: 'image/jpeg' }
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type))
    return { ok: false, problem: `${name} cannot be sent: take a JPEG, PNG or WebP photo.` }
  if (file.size > PHOTO_MAX_BYTES) return { ok: false, problem: `${name} is over ${PHOTO_MAX_BYTES / 1024 / 1024} MB.` }
  return { ok: true, bytes: await readBytes(file), type: file.type }
}

let slots = 0

/** Up to three photos of one item, each uploaded as soon as it is taken, shown with Remove. */
export function ReceivingPhotos({
  returnId,
  lineItemId,
  title,
  photos,
  problem,
  dispatch,
}: {
  returnId: string
  lineItemId: string
  title: string
  photos: readonly PhotoSlot[]
  problem: string | null
  dispatch: Dispatch<ChoiceEvent>
}) {
  const [upload] = useUploadInspectionPhotoMutation()
  const input = useRef<HTMLInputElement>(null)
  const ids = { label: useId(), hint: useId(), problem: useId() }
  const full = photos.length >= PHOTOS_PER_ITEM

  const send = async (file: File, key: string) => {
    try {
      const prepared = await preparePhoto(file)
      if (!prepared.ok) return dispatch({ type: 'photoRefused', item: lineItemId, key, problem: prepared.problem })
      const photo = await upload({ returnId, lineItemId, bytes: prepared.bytes, type: prepared.type }).unwrap()
      dispatch({ type: 'photoUploaded', item: lineItemId, key, photo })
    } catch (error) {
      dispatch({
        type: 'photoRefused',
        item: lineItemId,
        key,
        problem: `${file.name} was not uploaded. ${errorText(error)}`,
      })
    }
  }

  const add = (files: File[]) => {
    let room = PHOTOS_PER_ITEM - photos.length
    for (const file of files) {
      if (room <= 0) {
        dispatch({
          type: 'photoRefused',
          item: lineItemId,
          key: null,
          problem: `At most ${PHOTOS_PER_ITEM} photos an item: ${file.name} was not added.`,
        })
        return
      }
      room -= 1
      const key = `photo-${++slots}`
      dispatch({ type: 'photoStarted', item: lineItemId, key, name: file.name })
      void send(file, key)
    }
  }

  return (
    <div
      className="field receiving-photos"
      role="group"
      aria-labelledby={ids.label}
      aria-describedby={problem ? `${ids.hint} ${ids.problem}` : ids.hint}
    >
      <span className="field__label" id={ids.label}>
        Photos (optional)
      </span>
      <span className="field__hint" id={ids.hint}>
        {full
          ? `${PHOTOS_PER_ITEM} photos: remove one to add another.`
          : `Up to ${PHOTOS_PER_ITEM}, each uploaded as soon as it is taken.`}
      </span>
      {photos.length > 0 ? (
        <ul className="receiving-photos__list" aria-label={`Photos of ${title}`}>
          {photos.map((slot, index) => (
            <li key={slot.key} className="receiving-photo">
              {slot.photo ? (
                <img
                  className="receiving-photo__img"
                  src={slot.photo.url}
                  alt={`Photo ${index + 1} of ${title}`}
                  width={72}
                  height={72}
                />
              ) : (
                <span className="receiving-photo__img receiving-photo__img--busy">
                  <Spinner label={`Uploading ${slot.name}`} size="small" />
                </span>
              )}
              <button
                type="button"
                className="link-button receiving-photo__remove"
                aria-label={`Remove photo ${index + 1} of ${title}`}
                onClick={() => {
                  dispatch({ type: 'photoRemoved', item: lineItemId, key: slot.key })
                  // After the list has changed: a full item's input is enabled again.
                  setTimeout(() => input.current?.focus())
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label className={`button button--secondary receiving-photos__add${full ? ' receiving-photos__add--off' : ''}`}>
        Add a photo
        <input
          ref={input}
          className="visually-hidden"
          type="file"
          accept="image/*"
          capture="environment"
          multiple
          disabled={full}
          onChange={(event) => {
            const files = Array.from(event.target.files ?? [])
            // The same file may be chosen again after a removal.
            event.target.value = ''
            add(files)
          }}
        />
      </label>
      {problem ? (
        <p className="error-message receiving-photos__problem" id={ids.problem} role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  )
}
