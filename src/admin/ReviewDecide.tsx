/**
 * Deciding a review (docs/lifecycle.md): approve, or reject with a reason the shopper reads, for
 * one return (its page's panel) or several (the queue).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import type { ReviewDecided, ReviewDecision, StaffReview } from '../../contract/staff'
import { useDecideReviewsMutation } from './api'
import { ErrorAlert } from './ErrorAlert'
import { answerByText, formatCalendarDay, formatMoment } from './format'

const NAMES = new Intl.ListFormat('en', { type: 'conjunction' })
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`)

/**
 * What a decision did, in words for the status message: the returns decided, then each one
 * skipped with the server's reason.
 * @example decidedText('approve', { decided: ['r-1'], skipped: [] }, () => '#1001-R1') // 'Approved #1001-R1.'
 */
export function decidedText(
  decision: ReviewDecision['decision'],
  result: ReviewDecided,
  nameOf: (id: string) => string,
): string {
  const done = decision === 'approve' ? 'approved' : 'rejected'
  const { decided, skipped } = result
  const first =
    decided.length === 0
      ? `Nothing was ${done}.`
      : decided.length > 5
        ? `${decided.length} returns ${done}.`
        : `${done === 'approved' ? 'Approved' : 'Rejected'} ${NAMES.format(decided.map(nameOf))}.`
  return [first, ...skipped.map((skip) => sentence(`Skipped ${nameOf(skip.id)}: ${skip.message}`))].join(' ')
}

/**
 * Approve, or reject with a reason the shopper reads, the returns in `ids`: the queue's selection,
 * or the one return on its screen. `onDecided` gets the words of what was done.
 */
export function DecideReviews({
  ids,
  nameOf,
  onDecided,
}: {
  ids: string[]
  nameOf: (id: string) => string
  onDecided: (text: string) => void
}) {
  const [decide, { isLoading, error, reset }] = useDecideReviewsMutation()
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState('')
  const [missing, setMissing] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  const id = useId()
  useEffect(() => {
    if (rejecting) field.current?.focus()
  }, [rejecting])

  const send = async (decision: ReviewDecision) => {
    reset()
    try {
      const result = await decide(decision).unwrap()
      setRejecting(false)
      setReason('')
      onDecided(decidedText(decision.decision, result, nameOf))
    } catch {
      // The alert says why; what was typed stays.
    }
  }
  const reject = (event: FormEvent) => {
    event.preventDefault()
    const words = reason.trim()
    setMissing(!words)
    if (words) void send({ return_ids: ids, decision: 'reject', reason: words })
    else field.current?.focus()
  }
  const cancel = () => {
    setRejecting(false)
    setMissing(false)
    opener.current?.focus()
  }
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') cancel()
  }
  const count = ids.length === 1 ? 'the return' : `${ids.length} returns`

  return (
    <div className="review-decide">
      <div className="console-actions">
        <button
          type="button"
          className="button button--primary"
          disabled={isLoading || ids.length === 0}
          onClick={() => void send({ return_ids: ids, decision: 'approve' })}
        >
          Approve
        </button>
        <button
          ref={opener}
          type="button"
          className="button button--secondary"
          aria-expanded={rejecting}
          aria-controls={rejecting ? `${id}-reject` : undefined}
          disabled={isLoading || ids.length === 0}
          onClick={() => (rejecting ? cancel() : setRejecting(true))}
        >
          Reject…
        </button>
      </div>
      {rejecting ? (
        <form id={`${id}-reject`} className="review-reject" noValidate onSubmit={reject} onKeyDown={escape}>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-reason`}>
              Reason for rejecting {count}
            </label>
            <span id={`${id}-hint`} className="field__hint">
              Required. The shopper reads it on the status page and in the e-mail.
            </span>
            <textarea
              ref={field}
              id={`${id}-reason`}
              className="field__input field__textarea"
              required
              maxLength={1000}
              rows={3}
              value={reason}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? `${id}-hint ${id}-missing` : `${id}-hint`}
              onChange={(event) => {
                setReason(event.target.value)
                if (event.target.value.trim()) setMissing(false)
              }}
            />
            {missing ? (
              <span id={`${id}-missing`} className="error-message review-reject__missing">
                Write a reason before rejecting: the shopper is told it.
              </span>
            ) : null}
          </div>
          <div className="console-actions">
            <button type="submit" className="button button--primary" disabled={isLoading || ids.length === 0}>
              Reject {count}
            </button>
            <button type="button" className="button button--secondary" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <ErrorAlert error={error} className="review-decide__error" />
    </div>
  )
}

const PANEL_TITLES: Record<StaffReview['state'], string> = {
  pending: 'Waiting for review',
  approved: 'Approved after review',
  rejected: 'Rejected after review',
}

/** Why the shop's rules held this return, and what staff decided (or the decision, while it waits). */
export function ReviewPanel({ id, name, review }: { id: string; name: string; review: StaffReview }) {
  const [done, setDone] = useState('')
  const status = useRef<HTMLParagraphElement>(null)
  const answer = answerByText(review.answer_by)
  const pending = review.state === 'pending'
  return (
    <section className={`console-card review-panel review-panel--${review.state}`} aria-labelledby="review-title">
      <h2 id="review-title">{PANEL_TITLES[review.state]}</h2>
      {pending ? (
        <p>No label is made and the items cannot move on until the return is approved.</p>
      ) : review.state === 'rejected' ? (
        <p>Nothing is refunded and no label is made; the shopper may return these items again.</p>
      ) : null}
      <dl className="console-facts">
        {review.flags.length > 0 ? (
          <div>
            <dt>Flagged because</dt>
            <dd>
              <ul className="review-flags">
                {review.flags.map((flag) => (
                  <li key={`${flag.rule}:${flag.message}`}>{flag.message}</li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Shopper told to expect an answer by</dt>
          <dd className={pending && answer.overdue ? 'review-overdue' : undefined}>
            {pending ? answer.text : formatCalendarDay(review.answer_by)}
          </dd>
        </div>
        {review.decided_at ? (
          <div>
            <dt>{review.state === 'rejected' ? 'Rejected' : 'Approved'}</dt>
            <dd>
              {formatMoment(review.decided_at)}
              {review.decided_by ? ` by ${review.decided_by}` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
      {review.reason ? (
        <>
          <p>Reason given to the shopper:</p>
          <blockquote className="console-item__comment">{review.reason}</blockquote>
        </>
      ) : null}
      {pending ? (
        <DecideReviews
          ids={[id]}
          nameOf={() => name}
          onDecided={(text) => {
            setDone(text)
            status.current?.focus()
          }}
        />
      ) : null}
      <p ref={status} role="status" className="console-done" tabIndex={-1}>
        {done}
      </p>
    </section>
  )
}
