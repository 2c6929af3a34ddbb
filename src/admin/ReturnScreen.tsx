import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Link, useParams } from 'react-router-dom'
import type { MoneyBag, ReturnItemState, ReturnStatusItem } from '../../contract/api'
import type { Inspection, ReturnDetail, StaffStateChange } from '../../contract/staff'
import { formatMoney } from '../components/format'
import { Spinner } from '../components/Spinner'
import { errorText, useEmailsQuery, useMoveItemsMutation, useReturnDetailQuery } from './api'
import { EMAIL_KIND_LABELS, EmailState } from './EmailsScreen'
import {
  CONDITION_LABELS,
  DISPOSITION_LABELS,
  formatDay,
  formatMoment,
  OUTCOME_LABELS,
  ReviewBadge,
  STATE_LABELS,
  StateBadge,
  timingText,
} from './format'
import { ReviewPanel } from './ReviewDecide'

type Move = StaffStateChange['state']
const MOVES: { state: Move; label: string }[] = [
  { state: 'in_transit', label: 'Mark in transit' },
  { state: 'received', label: 'Mark received' },
  { state: 'refunded', label: 'Mark refunded' },
]

/** Whether an item may move to `state`: forward only, and a kept item only to refunded. */
const canMove = (item: ReturnStatusItem, state: Move) =>
  item.states.includes(state) && item.states.indexOf(state) > item.states.indexOf(item.state)

/** One return: what was sent back and why, the money, the history, and the actions. */
export function ReturnScreen() {
  const { id = '' } = useParams()
  const detail = useReturnDetailQuery(id)
  const heading = useRef<HTMLHeadingElement>(null)
  const name = detail.data?.summary.name
  useEffect(() => {
    document.title = `${name ?? 'Return'} · Returns back office`
  }, [name])
  useEffect(() => {
    if (name) heading.current?.focus()
  }, [name])

  if (detail.error)
    return (
      <section className="console-card">
        <h1>
          {(detail.error as { status?: unknown }).status === 404 ? 'No such return' : 'This return cannot be shown'}
        </h1>
        <p role="alert">{errorText(detail.error)}</p>
        <p>
          <Link to="/">Back to the returns</Link>
        </p>
      </section>
    )
  if (!detail.data) return <Spinner label="Loading the return" />
  const { summary, status, return_order: order, photos, timeline, review, inspections } = detail.data
  const reasonOf = new Map(order?.items.map((item) => [item.line_item_id, item]) ?? [])
  // The server refuses to move on a return that waits for review, or was rejected.
  const held = review?.state === 'pending' || review?.state === 'rejected'
  const inspected = new Set(inspections.map((inspection) => inspection.line_item_id))
  const receivable =
    !held && status.items.some((item) => !item.keep && item.state !== 'refunded' && !inspected.has(item.line_item_id))

  return (
    <article aria-labelledby="return-title" className="console-return">
      <p>
        <Link to="/" className="console-back">
          All returns
        </Link>
      </p>
      <div className="console__title-row">
        <h1 id="return-title" ref={heading} tabIndex={-1}>
          Return {summary.name}
        </h1>
        <ReviewBadge review={summary.review} />
        <StateBadge state={summary.state} />
      </div>
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
          {review ? <ReviewPanel id={summary.id} name={summary.name} review={review} /> : null}
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
          {held ? null : <Actions detail={detail.data} />}
        </div>
        <div>
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
                      : `${entry.items.join(', ')}: ${STATE_LABELS[entry.state ?? 'requested'].toLowerCase()}`}
                    {entry.kind === 'action' ? <span className="muted"> by {entry.actor}</span> : null}
                  </p>
                  {entry.note ? <p className="console-timeline__note">“{entry.note}”</p> : null}
                </li>
              ))}
            </ol>
          </section>
          <ReturnEmails id={summary.id} />
        </div>
      </div>
    </article>
  )
}

/** What the warehouse found of each item it received, and what became of it. */
function Inspections({ detail }: { detail: ReturnDetail }) {
  const itemOf = new Map(detail.status.items.map((item) => [item.line_item_id, item]))
  const titleOf = (inspection: Inspection) => {
    const item = itemOf.get(inspection.line_item_id)
    return item ? `${item.title}${item.variant_title ? ` · ${item.variant_title}` : ''}` : inspection.line_item_id
  }
  return (
    <section className="console-card" aria-labelledby="inspections-title">
      <h2 id="inspections-title">Inspection</h2>
      <ul className="console-items">
        {detail.inspections.map((inspection) => {
          const title = titleOf(inspection)
          return (
            <li key={inspection.line_item_id} className="console-inspection">
              <h3 className="console-item__title">{title}</h3>
              <dl className="console-inspection__facts">
                <div>
                  <dt>Condition</dt>
                  <dd>{CONDITION_LABELS[inspection.condition]}</dd>
                </div>
                <div>
                  <dt>Disposition</dt>
                  <dd>{DISPOSITION_LABELS[inspection.disposition]}</dd>
                </div>
                <div>
                  <dt>Deducted</dt>
                  <dd>
                    {inspection.deduction
                      ? `${formatMoney(inspection.deduction.amount)} (${inspection.deduction.percent}%)`
                      : 'Nothing'}
                  </dd>
                </div>
                {inspection.restocked_variant ? (
                  <div>
                    <dt>Back on sale</dt>
                    <dd>{inspection.restocked_variant}</dd>
                  </div>
                ) : null}
              </dl>
              {inspection.note ? <blockquote className="console-item__comment">{inspection.note}</blockquote> : null}
              {inspection.photos.length > 0 ? (
                <ul className="console-photos" aria-label={`Inspection photos of ${title}`}>
                  {inspection.photos.map((photo, index) => (
                    <li key={photo.id}>
                      <a href={photo.url} target="_blank" rel="noreferrer">
                        <img src={photo.url} alt={`Inspection photo ${index + 1} of ${title}`} width={96} height={96} />
                      </a>
                    </li>
                  ))}
                </ul>
              ) : null}
              <p className="muted">
                Inspected by {inspection.inspected_by},{' '}
                <time dateTime={inspection.inspected_at}>{formatMoment(inspection.inspected_at)}</time>
              </p>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

/** What the shopper was told of this return by e-mail (docs/events.md). */
function ReturnEmails({ id }: { id: string }) {
  const emails = useEmailsQuery(id)
  if (!emails.data || emails.data.emails.length === 0) return null
  return (
    <section className="console-card" aria-labelledby="emails-of-return">
      <h2 id="emails-of-return">E-mails to the shopper</h2>
      <ul className="console-list">
        {emails.data.emails.map((email) => (
          <li key={email.id}>
            <Link to={`/emails/${email.id}`}>{email.subject ?? EMAIL_KIND_LABELS[email.kind]}</Link>
            <br />
            <EmailState email={email} />
          </li>
        ))}
      </ul>
    </section>
  )
}

function Money({ detail }: { detail: ReturnDetail }) {
  const order = detail.return_order!
  const { breakdown } = order
  const rows: [string, MoneyBag, boolean][] = [
    ['Items', breakdown.items_subtotal, true],
    ['Tax', breakdown.tax, true],
    ['Return fee', breakdown.return_fee, false],
    ['Store-credit bonus', breakdown.bonus, true],
    ['New item', breakdown.upsell, false],
  ]
  const nonZero = rows.filter(([, money]) => Number(money.shop_money.amount) !== 0)
  const method =
    order.refund_method === 'store_credit' ? 'Store credit' : order.refund_method ? 'Original payment method' : null
  const refund = detail.status.refund
  return (
    <section className="console-card" aria-labelledby="money-title">
      <h2 id="money-title">Refund</h2>
      <table className="console-money">
        <tbody>
          {nonZero.map(([label, money, plus]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>
                {plus ? '' : '−'}
                {formatMoney(money.shop_money)}
              </td>
            </tr>
          ))}
          <tr className="console-money__total">
            <th scope="row">Total</th>
            <td>{formatMoney(breakdown.total.shop_money)}</td>
          </tr>
          {refund?.deductions?.length ? (
            <>
              {refund.deductions.map((deduction) => (
                <tr key={deduction.line_item_id}>
                  <th scope="row">
                    Inspection: {deduction.title}, {CONDITION_LABELS[deduction.condition].toLowerCase()} (
                    {deduction.percent}%)
                  </th>
                  <td>−{formatMoney(deduction.amount)}</td>
                </tr>
              ))}
              <tr className="console-money__total">
                <th scope="row">After the inspection</th>
                <td>{formatMoney(refund.amount)}</td>
              </tr>
            </>
          ) : null}
        </tbody>
      </table>
      {detail.review?.state === 'rejected' ? (
        <p>Rejected after review: none of this is refunded.</p>
      ) : method ? (
        <p>To: {method}</p>
      ) : null}
      {refund?.timing ? <p>The shop’s timing: {timingText(refund.timing)}</p> : null}
      {refund?.issued_at ? (
        <p>Issued {formatDay(refund.issued_at)}</p>
      ) : refund?.expected ? (
        <p>
          The shopper is told to expect it {formatDay(refund.expected.from)}
          {refund.expected.to !== refund.expected.from ? `–${formatDay(refund.expected.to)}` : ''}
        </p>
      ) : null}
    </section>
  )
}

/** Move items on: which items, to which state, with a note for the timeline. */
function Actions({ detail }: { detail: ReturnDetail }) {
  const items = detail.status.items
  const [move, { isLoading, error, reset }] = useMoveItemsMutation()
  const [chosen, setChosen] = useState<string[]>(() => items.map((item) => item.line_item_id))
  const [note, setNote] = useState('')
  const [done, setDone] = useState<string | null>(null)
  const alert = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (error) alert.current?.focus()
  }, [error])
  const movable = MOVES.filter(({ state }) =>
    items.some((item) => chosen.includes(item.line_item_id) && canMove(item, state)),
  )
  if (items.every((item) => item.state === item.states.at(-1))) return null

  const submit = async (state: Move, event?: FormEvent) => {
    event?.preventDefault()
    reset()
    setDone(null)
    // Of the items chosen, those that can take this step.
    const ids = items
      .filter((item) => chosen.includes(item.line_item_id) && canMove(item, state))
      .map((item) => item.line_item_id)
    const result = await move({
      id: detail.summary.id,
      change: { state, line_item_ids: ids, ...(note.trim() ? { note: note.trim() } : {}) },
    })
    if (!('error' in result)) {
      setNote('')
      setDone(
        `${ids.length === 1 ? '1 item' : `${ids.length} items`} marked ${STATE_LABELS[state as ReturnItemState].toLowerCase()}.`,
      )
    }
  }
  return (
    <section className="console-card" aria-labelledby="actions-title">
      <h2 id="actions-title">Move items on</h2>
      <form onSubmit={(event) => event.preventDefault()}>
        <fieldset className="console-choices">
          <legend>Items</legend>
          {items.map((item) => (
            <label key={item.line_item_id} className="console-check">
              <input
                type="checkbox"
                checked={chosen.includes(item.line_item_id)}
                onChange={(event) =>
                  setChosen((now) =>
                    event.target.checked
                      ? [...now, item.line_item_id]
                      : now.filter((line) => line !== item.line_item_id),
                  )
                }
              />
              {item.title}
              {item.variant_title ? ` · ${item.variant_title}` : ''}{' '}
              <span className="muted">({STATE_LABELS[item.state]})</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor="action-note">
            Note (optional)
          </label>
          <textarea
            id="action-note"
            className="field__input field__textarea"
            maxLength={1000}
            rows={2}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        {error ? (
          <p ref={alert} className="error-message" role="alert" tabIndex={-1}>
            {errorText(error)}
          </p>
        ) : null}
        <p role="status" className="console-done">
          {done}
        </p>
        <div className="console-actions">
          {movable.length === 0 ? (
            <p className="muted">Choose an item that has a step left.</p>
          ) : (
            movable.map(({ state, label }) => (
              <button
                key={state}
                type="button"
                className="button button--primary"
                disabled={isLoading}
                onClick={() => void submit(state)}
              >
                {label}
              </button>
            ))
          )}
        </div>
      </form>
    </section>
  )
}
