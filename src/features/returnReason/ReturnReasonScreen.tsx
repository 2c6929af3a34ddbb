import { useId, useRef, useState } from 'react'
import { Navigate, useParams } from 'react-router-dom'
import { PHOTOS_PER_ITEM } from '../../../contract/constants'
import type { LineItem, ReturnReason } from '../../../contract/api'
import { useUploadPhotoMutation } from '../../api/photosEndpoints'
import { isLeaf, photosRequired, reasonPath } from '../../../contract/reasonTree'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { dataUrl } from '../../components/PhotoThumb'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { paths } from '../../../contract/paths'
import { useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import {
  reasonGiven,
  reasonPhotoAdded,
  reasonPhotoRemoved,
  reasonWithdrawn,
  selectChosenItems,
  selectOrder,
  type ChosenItem,
} from '../returnFlow/returnFlowSlice'
import { reasonsFor, useVariantName } from '../returnFlow/size'
import { useContinue, usePreviousStep } from '../returnFlow/hooks'
import { PhotoPicker, type PickedPhoto, type PhotoProblem } from './PhotoPicker'
import { checkPhotoFile, preparePhoto } from '../../components/preparePhoto'
import { ReasonChoices } from './ReasonChoices'
import './ReturnReasonScreen.css'

const COMMENT_MAX = 1000

/** The item being described: image, title, variant and the units chosen. */
function ItemSummary({ line, quantity }: { line: LineItem; quantity: number }) {
  const t = useT()
  const image = line.product_src ? safeUrl(line.product_src) : null
  const variant = useVariantName()(line)
  return (
    <div className="item reason__item">
      {image ? (
        <img className="item__image" src={image} alt="" width={56} height={56} />
      ) : (
        <span className="item__image" aria-hidden="true" />
      )}
      <span className="item__text">
        <span className="item__title">{line.title}</span>
        {variant ? <span className="muted">{variant}</span> : null}
        <span className="muted">{t('common.returningUnits', { count: quantity })}</span>
      </span>
    </div>
  )
}

interface ReasonFormProps {
  line: LineItem
  item: ChosenItem
  position: { index: number; count: number }
  reasons: readonly ReturnReason[]
  token: string | null
}

type FormErrors = { level?: number; comment?: true; photos?: 'missing' | 'uploading' }

/**
 * Continue stays enabled and checks on press: a disabled button cannot be focused and does not
 * say what is missing, while an error tied to the field (aria-invalid, aria-describedby,
 * role="alert") and focus moved to it tell every shopper what to fix.
 */
function ReasonForm({ line, item, position, reasons, token }: ReasonFormProps) {
  const dispatch = useAppDispatch()
  const t = useT()
  const { continueFrom, isContinuing } = useContinue()
  const [upload] = useUploadPhotoMutation()
  const ids = { comment: useId(), commentError: useId() }
  // The chosen reason from the top of the tree down: a reason, then one of its sub-reasons.
  const [path, setPath] = useState<ReturnReason[]>(() =>
    item.reason ? (reasonPath(reasons, item.reason.id) ?? []) : [],
  )
  const [comment, setComment] = useState(item.reason?.comment ?? '')
  const [photos, setPhotos] = useState<PickedPhoto[]>(() =>
    (item.reason?.photoIds ?? []).map((id) => ({ key: id, id, localUrl: null })),
  )
  const [problems, setProblems] = useState<PhotoProblem[]>([])
  const [errors, setErrors] = useState<FormErrors>({})
  const firstRadios = [useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null)]
  const commentField = useRef<HTMLTextAreaElement>(null)
  const addPhoto = useRef<HTMLInputElement>(null)
  const localKeys = useRef(0)
  const chosen = path.at(-1) ?? null
  const reason = chosen && isLeaf(chosen) ? chosen : null
  const needed = photosRequired(reason)
  const uploadedIds = photos.flatMap((photo) => (photo.id ? [photo.id] : []))

  /** Stored as it is given, so a reload restores it; Continue still checks it. */
  const store = (leaf: ReturnReason, text: string, photoIds: string[]) =>
    dispatch(
      reasonGiven({
        lineItemId: line.id,
        reasonId: leaf.id,
        comment: text.trim(),
        ...(photosRequired(leaf) ? { photoIds } : {}),
      }),
    )

  // The reason chosen when an upload finishes, which may not be the one it began under: changed
  // only by choose(), so an upload's callback reads the shopper's choice as it is now.
  const chosenLeaf = useRef(reason)

  function choose(level: number, candidate: ReturnReason) {
    chosenLeaf.current = isLeaf(candidate) ? candidate : null
    setPath((before) => [...before.slice(0, level), candidate])
    setErrors({})
    if (isLeaf(candidate)) store(candidate, comment, uploadedIds)
    else if (item.reason) dispatch(reasonWithdrawn({ lineItemId: line.id }))
  }

  function addFiles(files: File[]) {
    const free = PHOTOS_PER_ITEM - photos.length
    const found: PhotoProblem[] = []
    const added: PickedPhoto[] = []
    files.forEach((file) => {
      // A file refused for what it is takes no place: only photos taken count against the limit.
      const early = checkPhotoFile(file)
      if (early) return void found.push({ name: file.name, kind: early.problem, maxBytes: early.maxBytes })
      if (added.length >= free) return void found.push({ name: file.name, kind: 'tooMany' })
      const photo: PickedPhoto = { key: `local-${++localKeys.current}`, id: null, localUrl: null }
      added.push(photo)
      const update = (change: Partial<PickedPhoto>) =>
        setPhotos((before) =>
          before.map((candidate) => (candidate.key === photo.key ? { ...candidate, ...change } : candidate)),
        )
      const refuse = (problem: PhotoProblem) => {
        setPhotos((before) => before.filter((candidate) => candidate.key !== photo.key))
        setProblems((before) => [...before, problem])
      }
      // Shrunk in the browser first (preparePhoto); the preview shows as soon as that is done, while the upload goes on.
      preparePhoto(file)
        .then(async (prepared) => {
          if (!prepared.ok) return refuse({ name: file.name, kind: prepared.problem, maxBytes: prepared.maxBytes })
          update({ localUrl: dataUrl(prepared.bytes, prepared.type) })
          const uploaded = await upload({ bytes: prepared.bytes, type: prepared.type }).unwrap()
          update({ id: uploaded.id })
          // Stored as it arrives, so a reload restores it; Continue stores the list in its order.
          if (photosRequired(chosenLeaf.current))
            dispatch(reasonPhotoAdded({ lineItemId: line.id, photoId: uploaded.id }))
        })
        .catch((error: { status?: unknown }) => {
          refuse({
            name: file.name,
            kind: error.status === 413 ? 'tooLarge' : error.status === 415 ? 'notImage' : 'failed',
          })
        })
    })
    setProblems(found)
    setPhotos((before) => [...before, ...added])
    if (added.length) setErrors(({ comment }) => (comment ? { comment } : {}))
  }

  async function onContinue() {
    if (isContinuing) return
    if (!reason) {
      setErrors({ level: path.length })
      firstRadios[path.length]?.current?.focus()
      return
    }
    // Everything missing is said at once; the focus goes to the first of it.
    const missing: FormErrors = {
      ...(reason.comment_required && comment.trim() === '' ? { comment: true } : {}),
      ...(uploadedIds.length < needed ? { photos: photos.length > uploadedIds.length ? 'uploading' : 'missing' } : {}),
    }
    setErrors(missing)
    if (missing.comment) return commentField.current?.focus()
    if (missing.photos) return addPhoto.current?.focus()
    store(reason, comment, uploadedIds)
    await continueFrom({ kind: 'return-reason', lineItemId: line.id })
  }

  const photosError =
    errors.photos === 'missing'
      ? t('reason.photosError', { count: needed })
      : errors.photos === 'uploading'
        ? t('reason.photosWait')
        : null
  return (
    <div className="reason" aria-busy={isContinuing}>
      {position.count > 1 ? (
        <p className="lead">{t('reason.position', { index: position.index + 1, count: position.count })}</p>
      ) : null}
      <ItemSummary line={line} quantity={item.quantity} />
      <ReasonChoices
        reasons={reasons}
        path={path}
        errorLevel={errors.level ?? null}
        firstRadios={firstRadios}
        onChoose={choose}
      />
      {reason ? (
        <div className="field reason__comment">
          <label className="field__label" htmlFor={ids.comment}>
            {t(reason.comment_required ? 'reason.commentRequired' : 'reason.commentOptional')}
          </label>
          <textarea
            ref={commentField}
            id={ids.comment}
            className="field__input field__textarea"
            value={comment}
            maxLength={COMMENT_MAX}
            required={reason.comment_required}
            aria-required={reason.comment_required}
            aria-invalid={errors.comment ? true : undefined}
            aria-describedby={errors.comment ? ids.commentError : undefined}
            onChange={(event) => {
              setComment(event.target.value)
              if (errors.comment) setErrors(({ photos }) => (photos ? { photos } : {}))
              store(reason, event.target.value, uploadedIds)
            }}
          />
          {errors.comment ? <ErrorMessage id={ids.commentError}>{t('reason.commentError')}</ErrorMessage> : null}
        </div>
      ) : null}
      {reason && needed ? (
        <PhotoPicker
          title={line.title}
          required={needed}
          photos={photos}
          problems={problems}
          error={photosError}
          token={token}
          addButton={addPhoto}
          onFiles={addFiles}
          onRemove={(key) => {
            const removed = photos.find((photo) => photo.key === key)?.id
            if (removed) dispatch(reasonPhotoRemoved({ lineItemId: line.id, photoId: removed }))
            setPhotos((before) => before.filter((photo) => photo.key !== key))
            setProblems([])
          }}
        />
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="button button--primary button--block"
          disabled={isContinuing}
          onClick={() => void onContinue()}
        >
          {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
          <span>{t('common.continue')}</span>
        </button>
      </div>
    </div>
  )
}

/** docs/rules.md §9.2: why one chosen item goes back, with a comment where the reason asks for one. */
export default function ReturnReasonScreen() {
  const { id = '' } = useParams()
  const t = useT()
  const order = useAppSelector(selectOrder)
  const items = useAppSelector(selectChosenItems)
  const index = items.findIndex((candidate) => candidate.lineItemId === id)
  const item = items[index]
  const line = order?.line_items.find((candidate) => candidate.id === id)
  const backTo = usePreviousStep({ kind: 'return-reason', lineItemId: id })
  if (!order) return null
  if (!item || !line) return <Navigate to={paths.products.build()} replace />

  return (
    <StepScreen title={t('reason.title', { title: line.title })} stage="Details" backTo={backTo}>
      {order.return_reasons.length === 0 ? (
        <ErrorMessage>{t('reason.none')}</ErrorMessage>
      ) : (
        // One form per item: the next item's reason step starts empty, not with this item's answer.
        <ReasonForm
          key={id}
          line={line}
          item={item}
          position={{ index, count: items.length }}
          reasons={reasonsFor(line, order.return_reasons)}
          token={order.token}
        />
      )}
    </StepScreen>
  )
}
