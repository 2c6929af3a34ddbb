/**
 * The `refunded` e-mail's body (docs/events.md): how much goes back and how, when to expect it
 * (or, for store credit, its code to spend now), and what an inspection took off each item
 * (docs/lifecycle.md).
 */
import { Heading } from '@react-email/heading'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import { StoreCreditCode } from './DealParts'
import { itemText, muted, subheading } from './EmailParts'
import type { EmailProps } from './ReturnEmail'

export function Refunded(props: EmailProps) {
  const { t, status } = props
  const refund = status.refund
  if (!refund) return null
  const amount = props.formatMoney(refund.amount)
  return (
    <>
      <Text style={{ ...itemText, fontSize: '18px' }}>
        <strong>
          {t(refund.method === 'store_credit' ? 'refunded.storeCredit' : 'refunded.original', { amount })}
        </strong>
      </Text>
      {refund.store_credit ? (
        <StoreCreditCode {...props} />
      ) : (
        refund.expected && (
          <Text style={muted}>
            {refund.expected.from === refund.expected.to
              ? t('refunded.expectedOn', { date: props.formatDate(refund.expected.from) })
              : t('refunded.expectedBetween', {
                  from: props.formatDate(refund.expected.from),
                  to: props.formatDate(refund.expected.to),
                })}
          </Text>
        )
      )}
      <Deductions {...props} />
    </>
  )
}

/** Each item's deduction (its condition in words, the percent, the amount), and the refund before and after. */
function Deductions(props: EmailProps) {
  const { t, status } = props
  const deductions = status.refund?.deductions ?? []
  if (deductions.length === 0) return null
  const before = status.refund!.before_deductions
  return (
    <Section>
      <Heading as="h2" style={subheading}>
        {t('refunded.deductions')}
      </Heading>
      {deductions.map((deduction) => (
        <Text key={deduction.line_item_id} style={itemText}>
          <strong>{deduction.title}</strong>
          <br />
          <span style={muted}>
            {t('refunded.condition', { condition: t(`condition.${deduction.condition}`) })}
            {' · '}
            {t('refunded.deducted', {
              percent: props.formatPercent(deduction.percent),
              amount: props.formatMoney(deduction.amount),
            })}
          </span>
        </Text>
      ))}
      {before && <Text style={itemText}>{t('refunded.before', { amount: props.formatMoney(before) })}</Text>}
      <Text style={itemText}>
        <strong>{t('refunded.after', { amount: props.formatMoney(status.refund!.amount) })}</strong>
      </Text>
    </Section>
  )
}
