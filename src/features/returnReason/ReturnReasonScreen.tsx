import { useId, useRef, useState } from 'react'
import { Navigate, useParams } from 'react-router-dom'
import type { LineItem, ReturnReason } from '../../api/contract'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { paths } from '../../config/paths'
import { useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import { reasonGiven, selectChosenItems, selectOrder, type ChosenItem } from '../returnFlow/returnFlowSlice'
import { useContinue } from '../returnFlow/useContinue'
import './ReturnReasonScreen.css'

const COMMENT_MAX = 1000

/** The item being described: image, title, variant and the units chosen. */
function ItemSummary({ line, quantity }: { line: LineItem; quantity: number }) {
  const t = useT()
  const image = line.product_src ? safeUrl(line.product_src) : null
  return (
    <div className="item reason__item">
      {image ? <img className="item__image" src={image} alt="" width={56} height={56} /> : <span className="item__image" aria-hidden="true" />}
      <span className="item__text">
        <span className="item__title">{line.title}</span>
        {line.variant_title ? <span className="muted">{line.variant_title}</span> : null}
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
}

/**
 * Continue stays enabled and checks on press: a disabled button cannot be focused and does not
 * say what is missing, while an error tied to the field (aria-invalid, aria-describedby,
 * role="alert") and focus moved to it tell every shopper what to fix.
 */
function ReasonForm({ line, item, position, reasons }: ReasonFormProps) {
  const dispatch = useAppDispatch()
  const t = useT()
  const { continueFrom, isContinuing } = useContinue()
  const ids = { reasonError: useId(), comment: useId(), commentError: useId() }
  const [reasonId, setReasonId] = useState(() => (reasons.some((reason) => reason.id === item.reason?.id) ? item.reason!.id : null))
  const [comment, setComment] = useState(item.reason?.comment ?? '')
  const [errors, setErrors] = useState<{ reason?: true; comment?: true }>({})
  const firstRadio = useRef<HTMLInputElement>(null)
  const commentField = useRef<HTMLTextAreaElement>(null)
  const reason = reasons.find((candidate) => candidate.id === reasonId) ?? null

  async function onContinue() {
    if (isContinuing) return
    if (!reason) {
      setErrors({ reason: true })
      firstRadio.current?.focus()
      return
    }
    if (reason.comment_required && comment.trim() === '') {
      setErrors({ comment: true })
      commentField.current?.focus()
      return
    }
    setErrors({})
    dispatch(reasonGiven({ lineItemId: line.id, reasonId: reason.id, comment: comment.trim() }))
    await continueFrom({ kind: 'return-reason', lineItemId: line.id })
  }

  return (
    <div className="reason" aria-busy={isContinuing}>
      {position.count > 1 ? (
        <p className="lead">{t('reason.position', { index: position.index + 1, count: position.count })}</p>
      ) : null}
      <ItemSummary line={line} quantity={item.quantity} />
      <fieldset className="choices" aria-describedby={errors.reason ? ids.reasonError : undefined}>
        <legend>{t('reason.legend')}</legend>
        {reasons.map((candidate, index) => (
          <label key={candidate.id} className="choice">
            <input
              ref={index === 0 ? firstRadio : undefined}
              type="radio"
              name="reason"
              value={candidate.id}
              checked={candidate.id === reasonId}
              aria-invalid={errors.reason ? true : undefined}
              onChange={() => {
                setReasonId(candidate.id)
                setErrors({})
                // Stored as it is chosen, so a reload restores it; Continue still checks the comment.
                dispatch(reasonGiven({ lineItemId: line.id, reasonId: candidate.id, comment: comment.trim() }))
              }}
            />
            <span>{candidate.label}</span>
          </label>
        ))}
        {errors.reason ? <ErrorMessage id={ids.reasonError}>{t('reason.chooseError')}</ErrorMessage> : null}
      </fieldset>
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
              if (errors.comment) setErrors({})
              dispatch(reasonGiven({ lineItemId: line.id, reasonId: reason.id, comment: event.target.value.trim() }))
            }}
          />
          {errors.comment ? <ErrorMessage id={ids.commentError}>{t('reason.commentError')}</ErrorMessage> : null}
        </div>
      ) : null}
      <div className="actions">
        <button type="button" className="button button--primary button--block" disabled={isContinuing} onClick={() => void onContinue()}>
          {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
          <span>{t('common.continue')}</span>
        </button>
      </div>
    </div>
  )
}

/** PRODUCT.md §3.2: why one chosen item goes back, with a comment where the reason asks for one. */
export default function ReturnReasonScreen() {
  const { id = '' } = useParams()
  const t = useT()
  const order = useAppSelector(selectOrder)
  const items = useAppSelector(selectChosenItems)
  const index = items.findIndex((candidate) => candidate.lineItemId === id)
  const item = items[index]
  const line = order?.line_items.find((candidate) => candidate.id === id)
  if (!order) return null
  if (!item || !line) return <Navigate to={paths.products.build()} replace />

  return (
    <StepScreen title={t('reason.title', { title: line.title })} stage="Details" backTo={paths.products.build()}>
      {order.return_reasons.length === 0 ? (
        <ErrorMessage>{t('reason.none')}</ErrorMessage>
      ) : (
        // One form per item: the next item's reason step starts empty, not with this item's answer.
        <ReasonForm key={id} line={line} item={item} position={{ index, count: items.length }} reasons={order.return_reasons} />
      )}
    </StepScreen>
  )
}
