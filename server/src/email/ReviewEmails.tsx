/**
 * The e-mails of a return the shop's rules flagged for review (docs/lifecycle.md): its request
 * received (nothing to send yet), approved (with the label), or rejected (with the shop's reason).
 */
import { Heading } from '@react-email/heading'
import { Text } from '@react-email/text'
import { Deal } from './DealParts'
import { ItemList, itemText, muted, SendAndKeep, subheading } from './EmailParts'
import type { EmailProps } from './ReturnEmail'

/** The `created` e-mail while the return waits for review: when the shop answers, and no label. */
export function WaitingForReview(props: EmailProps) {
  const { t, status } = props
  const answerBy = status.review?.answer_by
  return (
    <>
      <Text style={itemText}>
        {answerBy ? t('created.reviewIntro', { date: props.formatDate(answerBy) }) : t('created.reviewIntroSoon')}
      </Text>
      <Heading as="h2" style={subheading}>
        {t('created.reviewItems')}
      </Heading>
      <ItemList items={status.items} t={t} variantName={props.variantName} outcome />
    </>
  )
}

export function Approved(props: EmailProps) {
  const { t, status } = props
  return (
    <>
      <Text style={itemText}>{t('approved.intro', { name: status.return_name, order: props.orderName })}</Text>
      <SendAndKeep {...props} />
      <Deal {...props} />
    </>
  )
}

export function Rejected(props: EmailProps) {
  const { t, status, brand } = props
  const reason = status.review?.reason
  return (
    <>
      <Text style={itemText}>{t('rejected.intro', { name: status.return_name, order: props.orderName })}</Text>
      {reason && (
        <>
          <Heading as="h2" style={subheading}>
            {t('rejected.reason')}
          </Heading>
          <Text style={{ ...itemText, whiteSpace: 'pre-line', borderLeft: '3px solid #dde1e7', paddingLeft: '12px' }}>
            {reason}
          </Text>
        </>
      )}
      <Text style={itemText}>{t('rejected.nothingToSend')}</Text>
      <Text style={muted}>{t('rejected.questions', { shop: brand.shop })}</Text>
    </>
  )
}

/** Cancelled by the shop before anything was received (decision 0083): the label no longer works. */
export function Cancelled(props: EmailProps) {
  const { t, status, brand } = props
  return (
    <>
      <Text style={itemText}>{t('cancelled.intro', { name: status.return_name, order: props.orderName })}</Text>
      <ItemList items={status.items} t={t} variantName={props.variantName} />
      <Text style={itemText}>{t('cancelled.label')}</Text>
      <Text style={muted}>{t('cancelled.questions', { shop: brand.shop })}</Text>
    </>
  )
}
