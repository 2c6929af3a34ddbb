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
import type { EmailProps, Words } from './ReturnEmail'

export const muted = { color: '#5b6472', fontSize: '14px', lineHeight: '20px' }
export const itemText = { fontSize: '15px', lineHeight: '22px', margin: '0 0 8px' }
export const subheading = { fontSize: '17px', margin: '20px 0 8px' }

/** The label to show: none while the return waits for review or after it was rejected (docs/lifecycle.md). */
export const labelOf = (status: ReturnStatus): ReturnStatus['label'] =>
  status.review?.state === 'pending' || status.review?.state === 'rejected' ? null : status.label

export function ItemList({ items, t }: { items: ReturnStatus['items']; t: Words }) {
  return (
    <Section>
      {items.map((item) => (
        <Text key={item.line_item_id} style={itemText}>
          <strong>{item.title}</strong>
          {item.variant_title ? ` · ${item.variant_title}` : ''}
          <br />
          <span style={muted}>
            {t('item.quantity', { count: item.quantity })}
            {item.exchange_variant_title ? ` · ${t('item.exchangeFor', { variant: item.exchange_variant_title })}` : ''}
          </span>
        </Text>
      ))}
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
          <ItemList items={send} t={t} />
        </>
      ) : (
        <Text style={itemText}>{t('created.nothingToSend')}</Text>
      )}
      {keep.length > 0 && (
        <>
          <Heading as="h2" style={subheading}>
            {t('created.keep')}
          </Heading>
          <ItemList items={keep} t={t} />
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
