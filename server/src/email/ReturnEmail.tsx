/**
 * The e-mails to the shopper (docs/events.md), one template for the four kinds, built of
 * React Email's components: tables and inline styles that the common mail clients read.
 */
import { Body } from '@react-email/body'
import { Button } from '@react-email/button'
import { Container } from '@react-email/container'
import { Head } from '@react-email/head'
import { Heading } from '@react-email/heading'
import { Hr } from '@react-email/hr'
import { Html } from '@react-email/html'
import { Img } from '@react-email/img'
import { Link } from '@react-email/link'
import { Preview } from '@react-email/preview'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { Money, ReturnStatus } from '../../../contract/api'
import type { EmailKind } from '../domain/events'

export type Words = (id: string, values?: Record<string, string | number>) => string

export interface EmailBrand {
  /** the shop's name as its portal's title says it */
  shop: string
  /** absolute, or null when there is none or no portal address to make it absolute */
  logoSrc: string | null
  /** the shop's button colour, and the text colour that reads on it */
  color: string
  onColor: string
  /** the shop's "need help" words */
  help: string | null
}

export interface EmailProps {
  kind: EmailKind
  lang: string
  t: Words
  brand: EmailBrand
  status: ReturnStatus
  orderName: string
  /** the items the e-mail is about */
  lineItemIds: readonly string[]
  /** absolute links, or null without a portal address */
  statusUrl: string | null
  labelUrl: string | null
  /** the QR code's image (a cid: or data: address) */
  qrSrc: string | null
  formatMoney: (money: Money) => string
  formatDate: (day: string) => string
}

const page = { backgroundColor: '#f4f5f7', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1d2330' }
const card = { backgroundColor: '#ffffff', borderRadius: '8px', padding: '24px', maxWidth: '560px' }
const muted = { color: '#5b6472', fontSize: '14px', lineHeight: '20px' }
const itemText = { fontSize: '15px', lineHeight: '22px', margin: '0 0 8px' }

function ItemList({ items, t }: { items: ReturnStatus['items']; t: Words }) {
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

function Created(props: EmailProps) {
  const { t, status, labelUrl, qrSrc, brand } = props
  const send = status.items.filter((item) => !item.keep)
  const keep = status.items.filter((item) => item.keep)
  return (
    <>
      <Text style={itemText}>{t('created.intro', { name: status.return_name, order: props.orderName })}</Text>
      {send.length > 0 ? (
        <>
          <Heading as="h2" style={{ fontSize: '17px', margin: '20px 0 8px' }}>
            {t('created.send')}
          </Heading>
          <ItemList items={send} t={t} />
        </>
      ) : (
        <Text style={itemText}>{t('created.nothingToSend')}</Text>
      )}
      {keep.length > 0 && (
        <>
          <Heading as="h2" style={{ fontSize: '17px', margin: '20px 0 8px' }}>
            {t('created.keep')}
          </Heading>
          <ItemList items={keep} t={t} />
        </>
      )}
      {status.label && labelUrl && (
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
              <Text style={muted}>{t('created.qr', { code: status.label.qr_code_value })}</Text>
              <Img src={qrSrc} width="160" height="160" alt={status.label.qr_code_value} />
            </>
          )}
        </Section>
      )}
    </>
  )
}

function Refunded(props: EmailProps) {
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
      {refund.expected && (
        <Text style={muted}>
          {refund.expected.from === refund.expected.to
            ? t('refunded.expectedOn', { date: props.formatDate(refund.expected.from) })
            : t('refunded.expectedBetween', {
                from: props.formatDate(refund.expected.from),
                to: props.formatDate(refund.expected.to),
              })}
        </Text>
      )}
    </>
  )
}

function NewItemSent(props: EmailProps) {
  const { t, status, lineItemIds } = props
  const exchanged = status.items.filter((item) => lineItemIds.includes(item.line_item_id))
  return (
    <>
      <Text style={itemText}>{t('newItem.intro', { name: status.return_name })}</Text>
      <ItemList items={exchanged} t={t} />
      {status.new_item?.state === 'sent' && (
        <Text style={itemText}>
          <strong>{status.new_item.product_title}</strong>
          {status.new_item.title ? ` · ${status.new_item.title}` : ''}
        </Text>
      )}
    </>
  )
}

function Received(props: EmailProps) {
  const { t, status, lineItemIds } = props
  return (
    <>
      <Text style={itemText}>{t('received.intro', { name: status.return_name })}</Text>
      <ItemList items={status.items.filter((item) => lineItemIds.includes(item.line_item_id))} t={t} />
    </>
  )
}

const HEADINGS: Record<EmailKind, string> = {
  created: 'created.heading',
  received: 'received.heading',
  refunded: 'refunded.heading',
  new_item_sent: 'newItem.heading',
}

export function ReturnEmail(props: EmailProps) {
  const { t, brand, status, statusUrl } = props
  const heading = t(HEADINGS[props.kind])
  return (
    <Html lang={props.lang}>
      <Head />
      <Preview>{`${heading} · ${status.return_name}`}</Preview>
      <Body style={page}>
        <Container style={{ padding: '24px 12px' }}>
          <Section style={{ padding: '0 0 16px' }}>
            {brand.logoSrc ? (
              <Img src={brand.logoSrc} alt={brand.shop} height="40" style={{ height: '40px', width: 'auto' }} />
            ) : (
              <Text style={{ fontSize: '18px', fontWeight: 700, margin: 0 }}>{brand.shop}</Text>
            )}
          </Section>
          <Container style={card}>
            <Heading as="h1" style={{ fontSize: '22px', margin: '0 0 12px' }}>
              {heading}
            </Heading>
            {props.kind === 'created' && <Created {...props} />}
            {props.kind === 'received' && <Received {...props} />}
            {props.kind === 'refunded' && <Refunded {...props} />}
            {props.kind === 'new_item_sent' && <NewItemSent {...props} />}
            {statusUrl && (
              <Text style={{ ...itemText, marginTop: '20px' }}>
                <Link href={statusUrl} style={{ color: brand.color, fontWeight: 600 }}>
                  {t('status.link')}
                </Link>
              </Text>
            )}
          </Container>
          <Hr style={{ borderColor: '#dde1e7', margin: '20px 0' }} />
          {brand.help && <Text style={muted}>{brand.help}</Text>}
          <Text style={muted}>{t('footer', { name: status.return_name, shop: brand.shop })}</Text>
        </Container>
      </Body>
    </Html>
  )
}
