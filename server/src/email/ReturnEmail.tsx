/**
 * The e-mails to the shopper (docs/events.md), one template for every kind, built of React
 * Email's components: tables and inline styles that the common mail clients read.
 */
import { Body } from '@react-email/body'
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
import type { ReactNode } from 'react'
import type { Money, ReturnStatus } from '../../../contract/api'
import type { EmailKind } from '../domain/events'
import type { EmailDeal } from '../storage/outbox'
import { Deal } from './DealParts'
import { ItemList, itemText, muted, SendAndKeep } from './EmailParts'
import { Refunded } from './RefundEmail'
import { Approved, Cancelled, Rejected, WaitingForReview } from './ReviewEmails'

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
  /** the deal as priced (fee, variants); absent from e-mails written before it was kept */
  deal?: EmailDeal | undefined
  /** a line's variant named by its options ("Size 43"), bought or asked for in exchange; null: its title */
  variantName: (lineItemId: string, which: 'bought' | 'exchange') => string | null
  /** the new item's variant named by its options; null: its title */
  newItemVariant: string | null
  /** what the shop's commerce engine made for the new items (its exchange's id), once known (decision 0078) */
  engineReferences?: readonly string[]
  /** the day the parcel should be dropped off by, in words; null when there is none to send */
  sendBy: string | null
  /** a country's name in the e-mail's language: DE → Germany, Deutschland */
  countryName: (code: string) => string
  formatMoney: (money: Money) => string
  formatDate: (day: string) => string
  /** a whole percent (50) in the shopper's language */
  formatPercent: (percent: number) => string
}

const page = { backgroundColor: '#f4f5f7', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1d2330' }
const card = { backgroundColor: '#ffffff', borderRadius: '8px', padding: '24px', maxWidth: '560px' }

function Created(props: EmailProps) {
  const { t, status } = props
  if (status.review?.state === 'pending') return <WaitingForReview {...props} />
  return (
    <>
      <Text style={itemText}>{t('created.intro', { name: status.return_name, order: props.orderName })}</Text>
      <SendAndKeep {...props} />
      <Deal {...props} />
    </>
  )
}

function NewItemSent(props: EmailProps) {
  const { t, status, lineItemIds } = props
  const exchanged = status.items.filter((item) => lineItemIds.includes(item.line_item_id))
  return (
    <>
      <Text style={itemText}>{t('newItem.intro', { name: status.return_name })}</Text>
      <ItemList items={exchanged} t={t} variantName={props.variantName} />
      {status.new_item?.state === 'sent' && (
        <Text style={itemText}>
          <strong>{status.new_item.product_title}</strong>
          {(props.newItemVariant ?? status.new_item.title) ? ` · ${props.newItemVariant ?? status.new_item.title}` : ''}
        </Text>
      )}
      {props.engineReferences && props.engineReferences.length > 0 && (
        <Text style={muted}>{t('newItem.reference', { reference: props.engineReferences.join(', ') })}</Text>
      )}
    </>
  )
}

function Received(props: EmailProps) {
  const { t, status, lineItemIds } = props
  return (
    <>
      <Text style={itemText}>{t('received.intro', { name: status.return_name })}</Text>
      <ItemList
        items={status.items.filter((item) => lineItemIds.includes(item.line_item_id))}
        t={t}
        variantName={props.variantName}
      />
    </>
  )
}

const TITLES: Record<EmailKind, { subject: string; heading: string }> = {
  created: { subject: 'created.subject', heading: 'created.heading' },
  received: { subject: 'received.subject', heading: 'received.heading' },
  refunded: { subject: 'refunded.subject', heading: 'refunded.heading' },
  new_item_sent: { subject: 'newItem.subject', heading: 'newItem.heading' },
  approved: { subject: 'approved.subject', heading: 'approved.heading' },
  rejected: { subject: 'rejected.subject', heading: 'rejected.heading' },
  cancelled: { subject: 'cancelled.subject', heading: 'cancelled.heading' },
}

/** The message ids of an e-mail's subject and heading: a return waiting for review is a request received. */
export const titlesOf = (kind: EmailKind, status: ReturnStatus) =>
  kind === 'created' && status.review?.state === 'pending'
    ? { subject: 'created.reviewSubject', heading: 'created.reviewHeading' }
    : TITLES[kind]

const BODIES: Record<EmailKind, (props: EmailProps) => ReactNode> = {
  created: Created,
  received: Received,
  refunded: Refunded,
  new_item_sent: NewItemSent,
  approved: Approved,
  rejected: Rejected,
  cancelled: Cancelled,
}

export function ReturnEmail(props: EmailProps) {
  const { t, brand, status, statusUrl } = props
  const heading = t(titlesOf(props.kind, status).heading)
  const Content = BODIES[props.kind]
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
            <Content {...props} />
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
