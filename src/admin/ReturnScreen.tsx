import { Link, useParams } from 'react-router-dom'
import { formatMoney } from '../../contract/money'
import { Spinner } from '../components/Spinner'
import { useReturnDetailQuery, useCan } from './api'
import { formatMoment, OUTCOME_LABELS, STATE_LABELS, StateBadge } from './format'
import { ReturnEngineActions } from './EngineActions'
import { Actions, EndReturn, NoteForm, ShopperLinks } from './ReturnActions'
import { HeldExchanges, Inspections, Money, ReturnEmails } from './ReturnSections'
import { ReviewPanel } from './ReviewDecide'
import { useConsoleTitle } from './useConsoleTitle'
import { ReturnHeader, ReturnUnavailable } from './ReturnHeader'

/** One return: what was sent back and why, the money, the history, and the actions. */
export function ReturnScreen() {
  const { id = '' } = useParams()
  const detail = useReturnDetailQuery(id)
  const can = useCan()
  useConsoleTitle(detail.data?.summary.name ?? 'Return')

  if (detail.error)
    return (
      <ReturnUnavailable
        error={detail.error}
        back={{ to: '/', label: 'Back to the returns' }}
        className="console-card"
      />
    )
  if (!detail.data) return <Spinner label="Loading the return" />
  const { summary, status, return_order: order, photos, timeline, review, inspections } = detail.data
  const reasonOf = new Map(order?.items.map((item) => [item.line_item_id, item]) ?? [])
  // The server refuses to move on a return that waits for review, or was rejected.
  // Nor on one cancelled or closed (decision 0083).
  const held = review?.state === 'pending' || review?.state === 'rejected' || detail.data.ended !== null
  const inspected = new Set(inspections.map((inspection) => inspection.line_item_id))
  const receivable =
    !held && status.items.some((item) => !item.keep && item.state !== 'refunded' && !inspected.has(item.line_item_id))

  return (
    <article aria-labelledby="return-title" className="console-return">
      <ReturnHeader
        id="return-title"
        title={`Return ${summary.name}`}
        summary={summary}
        back={{ to: '/', label: 'All returns' }}
      />
      <dl className="console-facts">
        <div>
          <dt>Order</dt>
          <dd>{summary.order_name}</dd>
        </div>
        <div>
          <dt>Shopper</dt>
          <dd>
            <a href={`mailto:${summary.email}`}>{summary.email}</a>
          </dd>
        </div>
        <div>
          <dt>Submitted</dt>
          <dd>{formatMoment(summary.created_at)}</dd>
        </div>
        <div>
          <dt>Outcome</dt>
          <dd>{summary.outcome ? OUTCOME_LABELS[summary.outcome] : '—'}</dd>
        </div>
      </dl>

      <div className="console-return__columns">
        <div>
          {review && can('reviews.decide') ? <ReviewPanel id={summary.id} name={summary.name} review={review} /> : null}
          <section className="console-card" aria-labelledby="items-title">
            <h2 id="items-title">Items</h2>
            <ul className="console-items">
              {status.items.map((item) => {
                const answer = reasonOf.get(item.line_item_id)
                const itemPhotos = photos.filter((photo) => photo.line_item_id === item.line_item_id)
                return (
                  <li key={item.line_item_id} className="console-item">
                    {item.image_src ? <img src={item.image_src} alt="" width={56} height={56} /> : null}
                    <div className="console-item__text">
                      <p className="console-item__title">
                        {item.title}
                        {item.variant_title ? <span className="muted"> · {item.variant_title}</span> : null}
                        {item.quantity > 1 ? <span className="muted"> × {item.quantity}</span> : null}
                      </p>
                      <p>
                        Reason: <strong>{answer?.reason_label ?? '—'}</strong>
                      </p>
                      {answer?.comment ? (
                        <blockquote className="console-item__comment">{answer.comment}</blockquote>
                      ) : null}
                      {item.exchange_variant_title ? <p>Exchange for {item.exchange_variant_title}</p> : null}
                      {item.keep ? <p>Kept by the shopper: refunded without being sent back</p> : null}
                      {itemPhotos.length > 0 ? (
                        <ul className="console-photos" aria-label={`Photos of ${item.title}`}>
                          {itemPhotos.map((photo, index) => (
                            <li key={photo.id}>
                              <a href={photo.url} target="_blank" rel="noreferrer">
                                <img
                                  src={photo.url}
                                  alt={`Photo ${index + 1} of ${item.title}`}
                                  width={96}
                                  height={96}
                                />
                              </a>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </div>
                    <StateBadge state={item.state} />
                  </li>
                )
              })}
            </ul>
            {status.new_item ? (
              <p className="console-newitem">
                New item bought with the credit: <strong>{status.new_item.product_title}</strong>
                {status.new_item.title ? ` · ${status.new_item.title}` : ''} (
                {formatMoney(status.new_item.price.shop_money)}
                ), {status.new_item.state === 'sent' ? 'sent' : 'to be sent'}
              </p>
            ) : null}
            {receivable ? (
              <p className="console-receive">
                <Link className="button button--primary" to={`/receive/${encodeURIComponent(summary.id)}`}>
                  Receive and inspect
                </Link>
              </p>
            ) : null}
          </section>
          {inspections.length > 0 ? <Inspections detail={detail.data} /> : null}
          <HeldExchanges detail={detail.data} />
          {held || !can('returns.move') ? null : <Actions detail={detail.data} />}
          {can('returns.note') ? <NoteForm id={summary.id} /> : null}
          {review?.state === 'pending' || review?.state === 'rejected' || !can('returns.cancel') ? null : (
            <EndReturn detail={detail.data} />
          )}
        </div>
        <div>
          <ShopperLinks links={detail.data.links} />
          {order ? <Money detail={detail.data} /> : null}
          <section className="console-card" aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            <ol className="console-timeline">
              {timeline.map((entry, index) => (
                <li key={index}>
                  <time dateTime={entry.at}>{formatMoment(entry.at)}</time>
                  <p>
                    {entry.kind === 'created'
                      ? `Submitted by the shopper: ${entry.items.join(', ')}`
                      : entry.kind === 'note'
                        ? 'Note'
                        : entry.kind === 'cancelled' || entry.kind === 'closed'
                          ? STATE_LABELS[entry.kind]
                          : `${entry.items.join(', ')}: ${STATE_LABELS[entry.state ?? 'requested'].toLowerCase()}`}
                    {entry.kind !== 'created' && entry.kind !== 'state' ? (
                      <span className="muted"> by {entry.actor}</span>
                    ) : null}
                  </p>
                  {entry.note ? <p className="console-timeline__note">“{entry.note}”</p> : null}
                </li>
              ))}
            </ol>
          </section>
          {can('emails.read') && <ReturnEmails id={summary.id} />}
          {can('engine.manage') && <ReturnEngineActions id={summary.id} />}
        </div>
      </div>
    </article>
  )
}
