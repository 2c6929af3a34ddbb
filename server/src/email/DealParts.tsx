/**
 * What the first e-mail after a submit says of the deal (docs/events.md): the refund, its amount,
 * method and the shop's timing, the return fee (or that it is waived), the new item if one was
 * bought, and where to send the parcel and by when. The store credit, once issued, as a code.
 */
import { Heading } from '@react-email/heading'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { RefundTiming } from '../../../contract/api'
import { readMinor } from '../../../contract/money'
import { itemText, labelOf, muted, subheading } from './EmailParts'
import type { EmailProps } from './ReturnEmail'

/** The shop's timing in words: "5 to 10 business days after your items arrive". */
function timingWords(props: EmailProps, timing: RefundTiming): string {
  const { t } = props
  const days =
    timing.from_days === timing.to_days
      ? t(timing.business_days ? 'timing.businessDays' : 'timing.days', { count: timing.to_days })
      : t(timing.business_days ? 'timing.businessDaysRange' : 'timing.daysRange', {
          from: timing.from_days,
          to: timing.to_days,
        })
  return t(timing.after === 'submit' ? 'timing.afterSubmit' : 'timing.afterReceipt', { days })
}

/** When the money comes: issued already, the days expected, or the shop's timing from what it waits for. */
function RefundWhen(props: EmailProps) {
  const refund = props.status.refund!
  const { t } = props
  if (refund.issued_at) return <Text style={muted}>{t('deal.issuedAtSubmit')}</Text>
  if (refund.expected)
    return (
      <Text style={muted}>
        {refund.expected.from === refund.expected.to
          ? t('refunded.expectedOn', { date: props.formatDate(refund.expected.from) })
          : t('refunded.expectedBetween', {
              from: props.formatDate(refund.expected.from),
              to: props.formatDate(refund.expected.to),
            })}
      </Text>
    )
  if (refund.timing === null || (refund.timing.from_days === 0 && refund.timing.to_days === 0)) return null
  return <Text style={muted}>{t('deal.when', { when: timingWords(props, refund.timing) })}</Text>
}

/** Store credit issued: the code to spend and what it is worth; nothing to wait for. */
export function StoreCreditCode(props: EmailProps) {
  const credit = props.status.refund?.store_credit
  if (!credit) return null
  return (
    <Section style={{ margin: '12px 0', padding: '12px 16px', border: '1px dashed #9aa3b1', borderRadius: '6px' }}>
      <Text style={itemText}>{props.t('credit.code', { amount: props.formatMoney(credit.amount) })}</Text>
      <Text style={{ ...itemText, fontSize: '20px', fontWeight: 700, letterSpacing: '1px' }}>{credit.code}</Text>
      <Text style={muted}>{props.t('credit.use', { shop: props.brand.shop })}</Text>
    </Section>
  )
}

/** The refund: amount and method, the fee taken or waived, and when it comes. */
function Refund(props: EmailProps) {
  const { t, status } = props
  const refund = status.refund
  const breakdown = props.deal?.breakdown ?? null
  const fee = breakdown?.return_fee.presentment_money
  const feeTaken = fee && (readMinor(fee) ?? 0) > 0
  if (!refund && !breakdown?.return_fee_waived) return null
  return (
    <>
      <Heading as="h2" style={subheading}>
        {t('deal.refund')}
      </Heading>
      {refund && (
        <Text style={itemText}>
          <strong>
            {t(refund.method === 'store_credit' ? 'refunded.storeCredit' : 'refunded.original', {
              amount: props.formatMoney(refund.amount),
            })}
          </strong>
        </Text>
      )}
      {breakdown?.return_fee_waived ? (
        <Text style={muted}>{t('deal.feeWaived')}</Text>
      ) : feeTaken ? (
        <Text style={muted}>{t('deal.fee', { fee: props.formatMoney(fee) })}</Text>
      ) : null}
      {refund?.store_credit ? <StoreCreditCode {...props} /> : refund ? <RefundWhen {...props} /> : null}
    </>
  )
}

/** The new item bought with the credit: one line, that it ships once the return is complete. */
function NewItem(props: EmailProps) {
  const item = props.status.new_item
  if (!item) return null
  const variant = props.newItemVariant ?? (item.title || null)
  return (
    <>
      <Heading as="h2" style={subheading}>
        {props.t('deal.newItem')}
      </Heading>
      <Text style={itemText}>
        {props.t('deal.newItemShips', { item: variant ? `${item.product_title} · ${variant}` : item.product_title })}
      </Text>
    </>
  )
}

/** Where the parcel goes, and by when it should be dropped off. */
function SendTo(props: EmailProps) {
  const { t, status } = props
  if (!labelOf(status) || !status.items.some((item) => !item.keep)) return null
  const lines = status.address.lines ?? [
    status.address.line1,
    ...(status.address.line2 ? [status.address.line2] : []),
    `${status.address.postal_code} ${status.address.city}`,
  ]
  return (
    <>
      <Heading as="h2" style={subheading}>
        {t('deal.sendTo')}
      </Heading>
      <Text style={itemText}>
        {[status.address.name, ...lines, props.countryName(status.address.country_code)].map((line, index) => (
          <span key={index}>
            {index > 0 && <br />}
            {line}
          </span>
        ))}
      </Text>
      {props.sendBy && <Text style={itemText}>{t('deal.sendBy', { date: props.sendBy })}</Text>}
    </>
  )
}

/** The deal, after the items: refund, new item, where to send. */
export function Deal(props: EmailProps) {
  return (
    <>
      <Refund {...props} />
      <NewItem {...props} />
      <SendTo {...props} />
    </>
  )
}
