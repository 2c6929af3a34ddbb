/** Sections of a return's page in the console (ReturnScreen): inspections, e-mails and money. */
import { useState } from 'react'
import { Link } from 'react-router-dom'
import type { MoneyBag } from '../../contract/api'
import type { Inspection, ReturnDetail } from '../../contract/staff'
import { formatMoney } from '../../contract/money'
import { useEmailsQuery, useStoreConnectionQuery } from './api'
import { EMAIL_KIND_LABELS, EmailState, ResendButton } from './EmailsScreen'
import { CONDITION_LABELS, DISPOSITION_LABELS, formatDay, formatMoment, timingText } from './format'
import { NO_STORE_CONNECTED } from './storeConnectionWords'

/**
 * Exchanges inspected in a holding condition (decision 0055): their new item is not sent until
 * staff decide, with the return's moves (marking the item refunded sends it).
 */
export function HeldExchanges({ detail }: { detail: ReturnDetail }) {
  if (detail.held.length === 0) return null
  return (
    <section className="console-card notice" aria-labelledby="held-title">
      <h2 id="held-title">Waiting for your decision</h2>
      <ul className="console-items">
        {detail.held.map((line) => (
          <li key={line.line_item_id}>
            <p>
              <strong>{line.title}</strong> came back as “{CONDITION_LABELS[line.condition].toLowerCase()}”: its new
              item{line.exchange_variant_title ? ` (${line.exchange_variant_title})` : ''} is not sent.
            </p>
            <p className="muted">
              Ask the shopper, then send the new item by marking {line.title} refunded below, or leave it waiting.
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** What the warehouse found of each item it received, and what became of it. */
export function Inspections({ detail }: { detail: ReturnDetail }) {
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
          // A unit inspected on its own (decision 0085) is named as one: "Classic Tee · M, unit 1 of 3".
          const unit = inspection.unit
          const title = titleOf(inspection) + (unit ? `, unit ${unit.number} of ${unit.of}` : '')
          return (
            <li key={`${inspection.line_item_id} ${unit?.number ?? 0}`} className="console-inspection">
              <h3 className="console-item__title">{title}</h3>
              <dl className="console-inspection__facts">
                <div>
                  <dt>Condition</dt>
                  <dd>{CONDITION_LABELS[inspection.condition]}</dd>
                </div>
                <div>
                  <dt>Disposition</dt>
                  <dd>{inspection.disposition ? DISPOSITION_LABELS[inspection.disposition] : '—'}</dd>
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
export function ReturnEmails({ id }: { id: string }) {
  const emails = useEmailsQuery(id)
  const [said, setSaid] = useState('')
  if (!emails.data || emails.data.emails.length === 0) return null
  return (
    <section className="console-card" aria-labelledby="emails-of-return">
      <h2 id="emails-of-return">E-mails to the shopper</h2>
      <ul className="console-list">
        {emails.data.emails.map((email) => (
          <li key={email.id}>
            <Link to={`/emails/${email.id}`}>{email.subject ?? EMAIL_KIND_LABELS[email.kind]}</Link>
            <br />
            <EmailState email={email} /> <ResendButton email={email} onSaid={setSaid} />
          </li>
        ))}
      </ul>
      <p role="status" className="console-done">
        {said}
      </p>
    </section>
  )
}

export function Money({ detail }: { detail: ReturnDetail }) {
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
          {breakdown.return_fee_waived ? (
            <tr>
              <th scope="row">Return fee</th>
              <td>Waived for the reason</td>
            </tr>
          ) : null}
          <tr className="console-money__total">
            <th scope="row">Total</th>
            <td>{formatMoney(breakdown.total.shop_money)}</td>
          </tr>
          {refund?.deductions?.length ? (
            <>
              {refund.deductions.map((deduction) => (
                <tr key={`${deduction.line_item_id} ${deduction.condition}`}>
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
      <NoStoreConnected />
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

/** Said beside the refund while the shop has no store connected: what staff do here stays here. */
function NoStoreConnected() {
  const answer = useStoreConnectionQuery()
  if (answer.data?.connection !== null) return null
  return (
    <p className="console-note">
      {NO_STORE_CONNECTED} <Link to="/store-connection">Store connection</Link>
    </p>
  )
}
