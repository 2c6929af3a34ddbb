import { Link, useParams } from 'react-router-dom'
import type { ReturnDetail } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { useReturnDetailQuery } from './api'
import { formatDay, REVIEW_LABELS } from './format'
import { ReceivingForm } from './ReceivingForm'
import './receiving.css'
import { useConsoleTitle } from './useConsoleTitle'
import { ReturnHeader, ReturnUnavailable } from './ReturnHeader'

/** One return as it arrives at the warehouse: who sent it, whether it may be received, its items. */
export function ReceivingReturnScreen() {
  const { id = '' } = useParams()
  const detail = useReturnDetailQuery(id)
  useConsoleTitle(`Receive ${detail.data?.summary.name ?? 'a return'}`)

  if (detail.error)
    return (
      <ReturnUnavailable
        error={detail.error}
        back={{ to: '/receive', label: 'Receive another' }}
        className="console-card receiving"
      />
    )
  if (!detail.data) return <Spinner label="Loading the return" />
  const { summary } = detail.data
  const review = detail.data.review?.state ?? summary.review

  return (
    <article className="receiving" aria-labelledby="receiving-title">
      <ReturnHeader
        id="receiving-title"
        title={`Receive ${summary.name}`}
        summary={summary}
        back={{ to: '/receive', label: 'Receive another' }}
      />
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
