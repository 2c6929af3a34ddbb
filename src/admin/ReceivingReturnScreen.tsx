import { useEffect, useRef } from 'react'
import { Link, useParams } from 'react-router-dom'
import type { ReturnDetail } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { useReturnDetailQuery } from './api'
import { formatDay, REVIEW_LABELS, StandingBadge } from './format'
import { ReceivingForm } from './ReceivingForm'
import './receiving.css'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'

/** One return as it arrives at the warehouse: who sent it, whether it may be received, its items. */
export function ReceivingReturnScreen() {
  const { id = '' } = useParams()
  const detail = useReturnDetailQuery(id)
  const heading = useRef<HTMLHeadingElement>(null)
  const name = detail.data?.summary.name
  useConsoleTitle(`Receive ${name ?? 'a return'}`)
  useEffect(() => {
    if (name) heading.current?.focus()
  }, [name])

  if (detail.error)
    return (
      <section className="console-card receiving">
        <h1>
          {(detail.error as { status?: unknown }).status === 404 ? 'No such return' : 'This return cannot be shown'}
        </h1>
        <ErrorAlert error={detail.error} focus={false} />
        <p>
          <Link to="/receive">Receive another</Link>
        </p>
      </section>
    )
  if (!detail.data) return <Spinner label="Loading the return" />
  const { summary } = detail.data
  const review = detail.data.review?.state ?? summary.review

  return (
    <article className="receiving" aria-labelledby="receiving-title">
      <p>
        <Link to="/receive" className="console-back">
          Receive another
        </Link>
      </p>
      <div className="console__title-row">
        <h1 id="receiving-title" ref={heading} tabIndex={-1}>
          Receive {summary.name}
        </h1>
        <StandingBadge state={summary.state} review={summary.review} />
      </div>
      <dl className="console-facts">
        <div>
          <dt>Shopper</dt>
          <dd>{summary.email}</dd>
        </div>
        <div>
          <dt>Order</dt>
          <dd>{summary.order_name}</dd>
        </div>
        {review ? (
          <div>
            <dt>Review</dt>
            <dd>{REVIEW_LABELS[review]}</dd>
          </div>
        ) : null}
      </dl>
      {review === 'pending' || review === 'rejected' ? (
        <NotReceivable detail={detail.data} rejected={review === 'rejected'} />
      ) : (
        <ReceivingForm key={summary.id} detail={detail.data} />
      )}
    </article>
  )
}

/** A return waiting for review, or rejected: its parcel is set aside, not received. */
function NotReceivable({ detail, rejected }: { detail: ReturnDetail; rejected: boolean }) {
  const answerBy = detail.review?.answer_by
  return (
    <section
      className={`console-card receiving-blocked${rejected ? ' receiving-blocked--rejected' : ''}`}
      aria-labelledby="blocked-title"
    >
      <h2 id="blocked-title">{rejected ? 'This return was rejected' : 'This return waits for review'}</h2>
      <p>
        {rejected
          ? 'It cannot be received: the shop turned it down, and nothing is refunded.'
          : `It cannot be received until staff approve it${answerBy ? ` (the shopper expects an answer by ${formatDay(answerBy)})` : ''}. Set the parcel aside.`}
      </p>
      {rejected && detail.review?.reason ? <p>Reason given: “{detail.review.reason}”</p> : null}
      <p>
        <Link className="button button--secondary" to={`/returns/${encodeURIComponent(detail.summary.id)}`}>
          Open the return
        </Link>
      </p>
    </section>
  )
}
