import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import type { ReviewQueue } from '../../contract/staff'
import { formatMoney } from '../../contract/money'
import { Spinner } from '../components/Spinner'
import { useReviewsQuery } from './api'
import { answerByText, formatDay } from './format'
import { DecideReviews } from './ReviewDecide'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'

type Waiting = ReviewQueue['returns'][number]

/** /admin/reviews: the returns the shop's rules hold for a person, oldest first; decide one, several or all. */
export function ReviewQueueScreen() {
  const queue = useReviewsQuery()
  const [chosen, setChosen] = useState<string[]>([])
  const [done, setDone] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  const status = useRef<HTMLParagraphElement>(null)
  useConsoleTitle('Review')
  useEffect(() => {
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
        <ErrorAlert error={queue.error} focus={false} />
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
