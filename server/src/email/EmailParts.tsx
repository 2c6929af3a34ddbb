/**
 * The pieces the e-mails to the shopper share (docs/events.md): styles, the list of items, and
 * what to send back with the label and drop-off code.
 */
import { Button } from '@react-email/button'
import { Heading } from '@react-email/heading'
import { Img } from '@react-email/img'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { ReturnStatus } from '../../../contract/api'
import type { EmailProps } from './ReturnEmail'

export const muted = { color: '#5b6472', fontSize: '14px', lineHeight: '20px' }
export const itemText = { fontSize: '15px', lineHeight: '22px', margin: '0 0 8px' }
export const subheading = { fontSize: '17px', margin: '20px 0 8px' }

/** The label to show: none while the return waits for review or after it was rejected (docs/lifecycle.md). */
export const labelOf = (status: ReturnStatus): ReturnStatus['label'] =>
  status.review?.state === 'pending' || status.review?.state === 'rejected' ? null : status.label

/** What the e-mail lists items with: its words and how it names a line's variants. */
export type ItemWords = Pick<EmailProps, 't' | 'variantName'>

/**
 * Items as the shopper knows them: title, the variant by its options ("Size 43"), the quantity and,
 * with `outcome`, what happens to each (a refund, or the exchange and for what).
 */
export function ItemList({
  items,
  t,
  variantName,
  outcome = false,
}: ItemWords & { items: ReturnStatus['items']; outcome?: boolean }) {
  return (
    <Section>
      {items.map((item) => {
        const variant = variantName(item.line_item_id, 'bought') ?? item.variant_title
        const exchange = item.exchange_variant_title
          ? (variantName(item.line_item_id, 'exchange') ?? item.exchange_variant_title)
          : null
        return (
          <Text key={item.line_item_id} style={itemText}>
            <strong>{item.title}</strong>
            {variant ? ` · ${variant}` : ''}
            <br />
            <span style={muted}>
              {t('item.quantity', { count: item.quantity })}
              {exchange
                ? ` · ${t('item.exchangeFor', { variant: exchange })}`
                : outcome
                  ? ` · ${t(item.keep ? 'item.refundKept' : 'item.refund')}`
                  : ''}
            </span>
          </Text>
        )
      })}
    </Section>
  )
}

/** The items to send back and to keep, and how to send them: the label's link and the drop-off code. */
export function SendAndKeep(props: EmailProps) {
  const { t, status, labelUrl, qrSrc, brand } = props
  const send = status.items.filter((item) => !item.keep)
  const keep = status.items.filter((item) => item.keep)
  const label = labelOf(status)
  return (
    <>
      {send.length > 0 ? (
        <>
          <Heading as="h2" style={subheading}>
            {t('created.send')}
          </Heading>
          <ItemList items={send} t={t} variantName={props.variantName} outcome />
        </>
      ) : (
        <Text style={itemText}>{t('created.nothingToSend')}</Text>
      )}
      {keep.length > 0 && (
        <>
          <Heading as="h2" style={subheading}>
            {t('created.keep')}
          </Heading>
          <ItemList items={keep} t={t} variantName={props.variantName} outcome />
        </>
      )}
      {label && labelUrl && (
        <Section style={{ margin: '16px 0' }}>
          <Text style={muted}>{t('created.labelHint')}</Text>
          <Button
            href={labelUrl}
            style={{
              backgroundColor: brand.color,
              color: brand.onColor,
              padding: '12px 20px',
              borderRadius: '6px',
              fontWeight: 600,
            }}
          >
            {t('created.label')}
          </Button>
          {qrSrc && (
            <>
              <Text style={muted}>{t('created.qr', { code: label.qr_code_value })}</Text>
              <Img src={qrSrc} width="160" height="160" alt={label.qr_code_value} />
            </>
          )}
        </Section>
      )}
    </>
  )
}
