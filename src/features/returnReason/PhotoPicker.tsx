import { useId, type Ref } from 'react'
import { PHOTO_MAX_BYTES, PHOTO_TYPES, PHOTOS_PER_ITEM } from '../../../contract/constants'
import { ErrorMessage } from '../../components/ErrorMessage'
import { PhotoThumb } from '../../components/PhotoThumb'
import { Spinner } from '../../components/Spinner'
import { useT, type Translate } from '../../i18n/useT'
import { photoPickMaxBytes } from '../../components/preparePhoto'

/** A photo of the item: uploading (a local preview), or uploaded (an id, maybe restored after a reload). */
export interface PickedPhoto {
  key: string
  id: string | null
  /** the file chosen in this page as a data: URL, once read (the CSP allows data: images, not blob:) */
  localUrl: string | null
}

/** Why a chosen file was not taken, shown per file; `maxBytes` is the limit a too large one passed. */
export type PhotoProblem = { name: string; kind: 'notImage' | 'tooLarge' | 'failed' | 'tooMany'; maxBytes?: number }

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024))

function problemWords(problem: PhotoProblem, t: Translate): string {
  const name = problem.name.length > 60 ? `${problem.name.slice(0, 57)}…` : problem.name
  if (problem.kind === 'notImage') return t('reason.photoNotImage', { name })
  if (problem.kind === 'tooLarge')
    return t('reason.photoTooLarge', { name, max: megabytes(problem.maxBytes ?? PHOTO_MAX_BYTES) })
  if (problem.kind === 'tooMany') return t('reason.photosMax', { name, max: PHOTOS_PER_ITEM })
  return t('reason.photoFailed', { name })
}

interface PhotoPickerProps {
  title: string
  required: number
  photos: readonly PickedPhoto[]
  problems: readonly PhotoProblem[]
  /** "add at least N" or "wait for the uploads", from Continue */
  error: string | null
  token: string | null
  addButton: Ref<HTMLInputElement>
  onFiles: (files: File[]) => void
  onRemove: (key: string) => void
}

/** Photos as evidence: add (camera or library), preview, remove; errors per file, announced. */
export function PhotoPicker({
  title,
  required,
  photos,
  problems,
  error,
  token,
  addButton,
  onFiles,
  onRemove,
}: PhotoPickerProps) {
  const t = useT()
  const ids = { label: useId(), hint: useId(), error: useId(), input: useId() }
  const full = photos.length >= PHOTOS_PER_ITEM
  return (
    <div
      className="field reason__photos"
      role="group"
      aria-labelledby={ids.label}
      aria-describedby={[ids.hint, error ? ids.error : ''].join(' ').trim()}
    >
      <span className="field__label" id={ids.label}>
        {t('reason.photosLabel', { count: required, max: PHOTOS_PER_ITEM })}
      </span>
      <span className="field__hint" id={ids.hint}>
        {t('reason.photosHint', { max: megabytes(photoPickMaxBytes()) })}
      </span>
      {photos.length > 0 ? (
        <ul className="photo-thumbs reason__thumbs" aria-label={t('reason.photosList')}>
          {photos.map((photo, index) => {
            const alt = t('reason.photoAlt', { index: index + 1, title })
            return (
              <li key={photo.key} className="reason__thumb">
                <PhotoThumb alt={alt} src={photo.localUrl} id={photo.id} token={token} />
                {photo.id === null ? (
                  <span className="reason__thumb-busy">
                    <Spinner label={t('reason.photoUploading', { index: index + 1 })} size="small" />
                  </span>
                ) : null}
                <button
                  type="button"
                  className="reason__thumb-remove"
                  aria-label={t('reason.photoRemove', { index: index + 1 })}
                  onClick={() => onRemove(photo.key)}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            )
          })}
        </ul>
      ) : null}
      {full ? null : (
        <>
          {/* The file input is the control (one name, one Tab stop; a button to screen readers); the label is its look. */}
          <input
            ref={addButton}
            id={ids.input}
            className="visually-hidden reason__file"
            type="file"
            accept={PHOTO_TYPES.join(',')}
            multiple
            aria-label={t('reason.photosAdd')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])]
              // The same file can be chosen again after a removal.
              event.target.value = ''
              if (files.length) onFiles(files)
            }}
          />
          <label htmlFor={ids.input} className="button button--secondary reason__add-photo" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M9 4 7.2 6H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-3.2L15 4H9Zm3 4.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Z"
              />
            </svg>
            {t('reason.photosAdd')}
          </label>
        </>
      )}
      {problems.map((problem, index) => (
        <ErrorMessage key={`${problem.name}-${index}`}>{problemWords(problem, t)}</ErrorMessage>
      ))}
      {error ? <ErrorMessage id={ids.error}>{error}</ErrorMessage> : null}
    </div>
  )
}
