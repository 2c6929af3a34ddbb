import type { ReturnReview } from '../../../contract/api'
import { formatDate, formatDay } from '../../components/refundTiming'
import { T } from '../../i18n/T'
import { useLocale, useT } from '../../i18n/useT'

/**
 * Where the shop's review of the return stands (docs/lifecycle.md), in words: waiting, with the
 * day the shop answers by and why there is no label; approved, and when; or not accepted, why,
 * and that nothing is to be sent.
 */
export function ReviewNotice({ review }: { review: ReturnReview }) {
  const t = useT()
  const locale = useLocale()
  if (review.state === 'approved') {
    return (
      <p className="status__review status__review--approved">
        {review.decided_at
          ? t('review.approvedOn', { date: formatDate(review.decided_at, locale) })
          : t('review.approved')}
      </p>
    )
  }
  const rejected = review.state === 'rejected'
  return (
    <section className={`status__review status__review--${review.state}`} aria-labelledby="status-review">
      <h2 id="status-review" className="status__heading">
        {t(rejected ? 'review.rejectedTitle' : 'review.pendingTitle')}
      </h2>
      {rejected ? (
        <>
          {review.reason ? (
            <>
              <h3 className="status__subheading">{t('review.reason')}</h3>
              <blockquote className="status__review-reason">{review.reason}</blockquote>
            </>
          ) : null}
          <p>{t('review.nothingToSend')}</p>
        </>
      ) : (
        <>
          <p>
            {review.answer_by ? (
              <T
                id="review.answerBy"
                values={{ date: formatDay(review.answer_by, locale) }}
                components={[<time dateTime={review.answer_by} />]}
              />
            ) : (
              t('review.answerSoon')
            )}
          </p>
          <p>{t('review.noLabelHere')}</p>
        </>
      )}
    </section>
  )
}
