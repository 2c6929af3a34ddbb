import { useEffect, useRef } from 'react'
import type { InspectionPreview } from '../../contract/staff'
import { formatMoney } from '../../contract/money'
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
  const alert = useRef<HTMLDivElement>(null)
  useEffect(() => {
    heading.current?.focus()
  }, [])
  useEffect(() => {
    if (refusal) alert.current?.focus()
  }, [refusal])
  const { refund, restock } = preview
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
                  <tr key={deduction.line_item_id}>
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
          <p>
            {refundNow
              ? `Issued now, to ${METHOD_LABELS[refund.method]}.`
              : 'Not issued now: the items are marked received, and the refund waits.'}
          </p>
        </>
      ) : (
        <p>This return refunds nothing (an exchange), so nothing is deducted.</p>
      )}
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
      {refusal ? (
        <div ref={alert} className="receiving-refusal" role="alert" tabIndex={-1}>
          <p className="error-message">{refusal.message}</p>
          {refusal.problems.length > 0 ? (
            <ul>
              {refusal.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
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
