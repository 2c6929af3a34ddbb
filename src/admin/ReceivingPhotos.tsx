import { useId, useRef, type Dispatch } from 'react'
import { PHOTOS_PER_ITEM } from '../../contract/constants'
import { checkPhotoFile, preparePhoto } from '../components/preparePhoto'
import { Spinner } from '../components/Spinner'
import { errorText } from './api'
import type { ChoiceEvent, PhotoSlot } from './ReceivingChoices'
import { useUploadInspectionPhotoMutation } from './receivingApi'
import { ErrorAlert } from './ErrorAlert'

/** The console's words for a photo that cannot go up (the portal says the same in the shopper's language). */
async function prepared(
  file: File,
): Promise<{ ok: true; bytes: ArrayBuffer; type: string } | { ok: false; problem: string }> {
  const name = file.name.length > 60 ? `${file.name.slice(0, 57)}…` : file.name
  // The portal's own preparation: checked, drawn again at most 2560 px as a JPEG where the browser can.
  const photo = checkPhotoFile(file) ?? (await preparePhoto(file))
  if (photo.ok) return photo
  return {
    ok: false,
    problem:
      photo.problem === 'notImage'
        ? `${name} cannot be sent: take a JPEG, PNG or WebP photo.`
        : `${name} is over ${Math.round(photo.maxBytes / 1024 / 1024)} MB.`,
  }
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
      const ready = await prepared(file)
      if (!ready.ok) return dispatch({ type: 'photoRefused', item: lineItemId, key, problem: ready.problem })
      const photo = await upload({ returnId, lineItemId, bytes: ready.bytes, type: ready.type }).unwrap()
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
      <ErrorAlert id={ids.problem} className="receiving-photos__problem" focus={false}>
        {problem}
      </ErrorAlert>
    </div>
  )
}
