import { useEffect, useRef } from 'react'
import type { InspectionPreview } from '../../contract/staff'
import { formatMoney } from '../../contract/money'
import { ErrorAlert } from './ErrorAlert'
import { formatDay } from './format'
import { CONDITION_LABELS } from './ReceivingChoices'

const METHOD_LABELS = { original_payment: 'the original payment method', store_credit: 'store credit' } as const

/** What the inspection will deduct and restock, shown before staff confirm it. */
export function ReceivingPreview({
  preview,
  refundNow,
  left,
  titleOf,
  confirming,
  refusal,
  onConfirm,
  onChange,
}: {
  preview: InspectionPreview
  refundNow: boolean
  /** the items left for later, by title */
  left: readonly string[]
  titleOf: (lineItemId: string) => string
  confirming: boolean
  /** the server's words, when it refused the inspection */
  refusal: { message: string; problems: string[] } | null
  onConfirm: () => void
  onChange: () => void
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    heading.current?.focus()
  }, [])
  const { refund, restock, held, refunded_with: refundedWith } = preview
  return (
    <section className="console-card receiving-preview" aria-labelledby="preview-title">
      <h2 id="preview-title" ref={heading} tabIndex={-1}>
        Check before you confirm
      </h2>
      {refund ? (
        <>
          {refund.deductions.length > 0 ? (
            <table className="receiving-table">
              <caption>Deductions</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Condition</th>
                  <th scope="col">Percent</th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {refund.deductions.map((deduction) => (
                  <tr key={`${deduction.line_item_id} ${deduction.condition}`}>
                    <th scope="row">{deduction.title}</th>
                    <td>{CONDITION_LABELS[deduction.condition]}</td>
                    <td>{deduction.percent}%</td>
                    <td>−{formatMoney(deduction.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>Nothing is deducted.</p>
          )}
          <dl className="console-facts receiving-preview__refund">
            <div>
              <dt>Refund before deductions</dt>
              <dd>{formatMoney(refund.before)}</dd>
            </div>
            <div>
              <dt>Refund after deductions</dt>
              <dd className="amount">{formatMoney(refund.amount)}</dd>
            </div>
          </dl>
          {refund.issued_at ? (
            <IssuedAtSubmission refund={refund} issuedAt={refund.issued_at} />
          ) : (
            <p>
              {refundNow
                ? `Issued now, to ${METHOD_LABELS[refund.method]}.`
                : 'Not issued now: the items are marked received, and the refund waits.'}
            </p>
          )}
          {refundNow && refundedWith.length > 0 ? (
            <p>Refunded with them, so the return is done: {refundedWith.join(', ')}.</p>
          ) : null}
        </>
      ) : (
        <p>This return refunds nothing (an exchange), so nothing is deducted.</p>
      )}
      {held.length > 0 ? (
        <div className="notice" role="note" aria-labelledby="held-title">
          <h3 id="held-title" className="receiving-preview__subtitle">
            Exchanges that wait for your decision
          </h3>
          <ul className="receiving-preview__list">
            {held.map((line) => (
              <li key={line.line_item_id}>
                {line.title} came back as “{CONDITION_LABELS[line.condition].toLowerCase()}”: its new item
                {line.exchange_variant_title ? ` (${line.exchange_variant_title})` : ''} is not sent. The item is marked
                received and waits on the return’s page for you to decide.
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h3 className="receiving-preview__subtitle">Put back on sale</h3>
      {restock.length > 0 ? (
        <ul className="receiving-preview__list" aria-label="Restocked">
          {restock.map((line) => (
            <li key={line.line_item_id}>
              {line.variant} <span className="muted">({titleOf(line.line_item_id)})</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>Nothing is restocked.</p>
      )}
      {left.length > 0 ? <p className="notice">Left for later, not inspected now: {left.join(', ')}.</p> : null}
      <ErrorAlert className="receiving-refusal" problems={refusal?.problems ?? []}>
        {refusal?.message}
      </ErrorAlert>
      <div className="console-actions receiving-actions">
        <button type="button" className="button button--primary" disabled={confirming} onClick={onConfirm}>
          Confirm
        </button>
        <button type="button" className="button button--secondary" disabled={confirming} onClick={onChange}>
          Change
        </button>
      </div>
    </section>
  )
}

/**
 * A refund that went at submission (store credit at once, say): nothing can be taken from it now,
 * so the preview says when it went and what the shop's deductions would have taken.
 */
function IssuedAtSubmission({
  refund,
  issuedAt,
}: {
  refund: NonNullable<InspectionPreview['refund']>
  issuedAt: string
}) {
  const method = refund.method === 'store_credit' ? 'Store credit' : 'The refund'
  const forgone = refund.forgone
  return (
    <div className="notice">
      <p>
        {method} of {formatMoney(refund.amount)} was issued when the return was submitted ({formatDay(issuedAt)}).
        Nothing is deducted from it now.
      </p>
      {forgone.length > 0 ? (
        <p>
          The shop’s deductions would have taken{' '}
          {forgone
            .map(
              (deduction) =>
                `${formatMoney(deduction.amount)} for ${deduction.title} (${CONDITION_LABELS[deduction.condition].toLowerCase()}, ${deduction.percent}%)`,
            )
            .join(' and ')}
          . To recover it, reduce the {refund.method === 'store_credit' ? 'gift card' : 'refund'} in the shop’s own
          system.
        </p>
      ) : null}
    </div>
  )
}
