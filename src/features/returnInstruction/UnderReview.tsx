import type { InstructionItem, ReviewInstructions } from '../../../contract/api'
import { formatDay } from '../../components/refundTiming'
import { T } from '../../i18n/T'
import { useLocale, useT } from '../../i18n/useT'
import { FollowReturn, ReturnNumber } from './ReturnParts'

function ReviewItems({ items }: { items: readonly InstructionItem[] }) {
  const t = useT()
  if (items.length === 0) return null
  return (
    <section className="instructions__section" aria-labelledby="instructions-review-items">
      <h2 id="instructions-review-items" className="instructions__heading">
        {t('review.items')}
      </h2>
      <ul className="instructions__items" aria-labelledby="instructions-review-items">
        {items.map((item) => (
          <li key={item.line_item_id}>
            {t('instructions.itemLine', { quantity: item.quantity, title: item.title })}
            {item.variant_title ? <span className="muted"> · {item.variant_title}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** What the server says comes next, when it says anything. */
function ReviewSteps({ steps }: { steps: readonly string[] }) {
  const t = useT()
  if (steps.length === 0) return null
  return (
    <section className="instructions__section" aria-labelledby="instructions-steps">
      <h2 id="instructions-steps" className="instructions__heading">
        {t('review.next')}
      </h2>
      <ol className="instructions__steps" aria-labelledby="instructions-steps">
        {steps.map((step, index) => (
          <li key={index}>{step}</li>
        ))}
      </ol>
    </section>
  )
}

/** Waiting for the shop: by when it answers, and why there is no label yet. */
function Pending({ answerBy }: { answerBy: string | undefined }) {
  const t = useT()
  const locale = useLocale()
  return (
    <div className="notice instructions__review">
      <p>
        {answerBy ? (
          <T
            id="review.answerBy"
            values={{ date: formatDay(answerBy, locale) }}
            components={[<time dateTime={answerBy} />]}
          />
        ) : (
          t('review.answerSoon')
        )}
      </p>
      <p>{t('review.noLabel')}</p>
    </div>
  )
}

/** Rejected: the shop's reason in its own words, and that nothing is to be sent. */
function Rejected({ reason }: { reason: string | undefined }) {
  const t = useT()
  return (
    <>
      {reason ? (
        <section className="instructions__section" aria-labelledby="instructions-review-reason">
          <h2 id="instructions-review-reason" className="instructions__heading">
            {t('review.reason')}
          </h2>
          <blockquote className="instructions__review-reason">{reason}</blockquote>
        </section>
      ) : null}
      <p className="notice instructions__review">{t('review.nothingToSend')}</p>
    </>
  )
}

/**
 * A return the shop's rules hold for review (docs/lifecycle.md): no label, QR code or address, as
 * nothing is sent before the shop approves it; while it waits, by when the shop answers; once
 * rejected, why. The status link is offered either way: the label shows there once approved.
 */
export function UnderReview({ instructions }: { instructions: ReviewInstructions }) {
  const { review } = instructions
  return (
    <div className="instructions instructions--review">
      <ReturnNumber name={instructions.return_name} neutral />
      {review.state === 'rejected' ? <Rejected reason={review.reason} /> : <Pending answerBy={review.answer_by} />}
      <ReviewSteps steps={instructions.steps} />
      <ReviewItems items={instructions.items} />
      <FollowReturn instructions={instructions} />
    </div>
  )
}
