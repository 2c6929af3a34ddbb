import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { Link } from 'react-router-dom'
import type { ReviewDecided, ReviewDecision, ReviewQueue, StaffReview } from '../../contract/staff'
import { formatMoney } from '../components/format'
import { Spinner } from '../components/Spinner'
import { errorText, useDecideReviewsMutation, useReviewsQuery } from './api'
import { answerByText, formatCalendarDay, formatDay, formatMoment } from './format'

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
  const alert = useRef<HTMLParagraphElement>(null)
  const id = useId()
  useEffect(() => {
    if (rejecting) field.current?.focus()
  }, [rejecting])
  useEffect(() => {
    if (error) alert.current?.focus()
  }, [error])

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
      {error ? (
        <p ref={alert} className="error-message review-decide__error" role="alert" tabIndex={-1}>
          {errorText(error)}
        </p>
      ) : null}
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

type Waiting = ReviewQueue['returns'][number]

/** /admin/reviews: the returns the shop's rules hold for a person, oldest first; decide one, several or all. */
export function ReviewQueueScreen() {
  const queue = useReviewsQuery()
  const [chosen, setChosen] = useState<string[]>([])
  const [done, setDone] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  const status = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    document.title = 'Review · Returns back office'
    heading.current?.focus()
  }, [])

  const waiting = queue.data?.returns ?? []
  // Only returns still waiting count as chosen: a decided one leaves the list on the refresh.
  const selected = chosen.filter((id) => waiting.some((entry) => entry.id === id))
  const nameOf = (id: string) => waiting.find((entry) => entry.id === id)?.name ?? id
  const decided = (text: string) => {
    setDone(text)
    setChosen([])
    status.current?.focus()
  }

  return (
    <section aria-labelledby="reviews-title">
      <div className="console__title-row">
        <h1 id="reviews-title" ref={heading} tabIndex={-1}>
          Review
        </h1>
      </div>
      <p className="console-note">
        Returns the shop’s rules hold for a person, oldest first. They get no label until approved; a rejection’s reason
        is sent to the shopper.
      </p>
      <p ref={status} role="status" className="console-done" tabIndex={-1}>
        {done}
      </p>
      {queue.error ? (
        <p className="error-message" role="alert">
          {errorText(queue.error)}
        </p>
      ) : !queue.data ? (
        <Spinner label="Loading the returns waiting for review" />
      ) : waiting.length === 0 ? (
        <p className="console-card console-empty">
          Nothing waits for review. Returns the shop’s rules flag appear here.
        </p>
      ) : (
        <>
          <div className="console-card review-toolbar">
            <SelectAll waiting={waiting} selected={selected} onChange={setChosen} />
            <p className="review-toolbar__count">
              {selected.length === 0
                ? 'Select returns to approve or reject them.'
                : `${selected.length} of ${waiting.length} selected`}
            </p>
            <DecideReviews ids={selected} nameOf={nameOf} onDecided={decided} />
          </div>
          {queue.data.total > waiting.length ? (
            <p className="console-note">
              The oldest {waiting.length} of {queue.data.total} waiting are shown; the rest follow as these are decided.
            </p>
          ) : null}
          <QueueTable waiting={waiting} selected={selected} onChange={setChosen} busy={queue.isFetching} />
        </>
      )}
    </section>
  )
}

interface Selection {
  waiting: Waiting[]
  selected: string[]
  onChange: (ids: string[]) => void
}

function SelectAll({ waiting, selected, onChange }: Selection) {
  const box = useRef<HTMLInputElement>(null)
  const all = selected.length === waiting.length
  useEffect(() => {
    if (box.current) box.current.indeterminate = selected.length > 0 && !all
  }, [selected.length, all])
  return (
    <label className="console-check">
      <input
        ref={box}
        type="checkbox"
        checked={all}
        onChange={(event) => onChange(event.target.checked ? waiting.map((entry) => entry.id) : [])}
      />
      Select all {waiting.length} on this page
    </label>
  )
}

function QueueTable({ waiting, selected, onChange, busy }: Selection & { busy: boolean }) {
  return (
    <table className="console-table review-table" aria-busy={busy}>
      <caption className="visually-hidden">Returns waiting for review, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Selected</span>
          </th>
          <th scope="col">Return</th>
          <th scope="col">Order</th>
          <th scope="col">Shopper</th>
          <th scope="col">Submitted</th>
          <th scope="col" className="console-table__amount">
            Refund
          </th>
          <th scope="col">Why</th>
          <th scope="col">Answer by</th>
        </tr>
      </thead>
      <tbody>
        {waiting.map((entry) => {
          const answer = answerByText(entry.answer_by)
          return (
            <tr key={entry.id}>
              <td data-label="Select" className="review-table__select">
                <label>
                  <input
                    type="checkbox"
                    checked={selected.includes(entry.id)}
                    onChange={(event) =>
                      onChange(
                        event.target.checked ? [...selected, entry.id] : selected.filter((id) => id !== entry.id),
                      )
                    }
                  />
                  <span className="visually-hidden">Select {entry.name}</span>
                </label>
              </td>
              <th scope="row" data-label="Return">
                <Link to={`/returns/${encodeURIComponent(entry.id)}`}>{entry.name}</Link>
              </th>
              <td data-label="Order">{entry.order_name}</td>
              <td data-label="Shopper">{entry.email}</td>
              <td data-label="Submitted">{formatDay(entry.created_at)}</td>
              <td data-label="Refund" className="console-table__amount">
                {entry.refund ? formatMoney(entry.refund) : '—'}
              </td>
              <td data-label="Why">
                <ul className="review-flags">
                  {entry.flags.map((flag) => (
                    <li key={`${flag.rule}:${flag.message}`}>{flag.message}</li>
                  ))}
                </ul>
              </td>
              <td data-label="Answer by" className={answer.overdue ? 'review-overdue' : undefined}>
                {answer.text}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
