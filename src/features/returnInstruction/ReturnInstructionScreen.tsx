import { skipToken } from '@reduxjs/toolkit/query/react'
import { Link, Navigate } from 'react-router-dom'
import type {
  InstructionItem,
  NothingToSendInstructions,
  ReturnInstructions,
  ReturnInstructionsAnswer,
  ReturnOrder,
} from '../../../contract/api'
import { useGetReturnInstructionsQuery } from '../../api/returnsEndpoints'
import { useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { focusStepHeading, StepScreen } from '../../components/StepScreen'
import { formatMoney } from '../../components/format'
import { countedTiming, refundWhen } from '../../components/refundTiming'
import { labelHref, ReturnAddress, svgDataUrl } from '../../components/returnLabel'
import { paths } from '../../../contract/paths'
import { useLocale, useT, type Translate } from '../../i18n/useT'
import { useSessionExpired } from '../returnFlow/hooks'
import { NewItem } from '../returnFlow/NewItem'
import { SessionRenewal } from '../returnFlow/SessionRenewal'
import { FollowReturn, ReturnNumber } from './ReturnParts'
import { UnderReview } from './UnderReview'
import './ReturnInstructionScreen.css'

const itemsExchanged = (submitted: ReturnOrder) => submitted.items.some((item) => item.exchange_variant_id)

/** What the shopper gets back, in words, from the return the server created; when it arrives if the shop says. */
function refundSummary(submitted: ReturnOrder, locale: string, t: Translate): string {
  const total = submitted.breakdown.total.presentment_money
  // Items exchanged ship once the return arrives: said here once. A new item alone says it in
  // its own section (NewItemSection), not twice.
  const exchanging = itemsExchanged(submitted)
  // Every item kept: the refund does not wait for a parcel.
  const allKept = submitted.items.length > 0 && submitted.items.every((item) => item.keep === true)
  const parts: string[] = []
  if (Number(total.amount) > 0) {
    const method = submitted.refund_method ?? 'original_payment'
    const credit = method === 'store_credit'
    const amount = formatMoney(total, locale)
    const given = submitted.refund_timing?.[method]
    const timing = given ? countedTiming(given, submitted.items) : undefined
    if (timing?.after === 'submit' && timing.to_days === 0) {
      // At once on submission: the return is submitted, so it is done.
      parts.push(t(credit ? 'instructions.refundStoreCreditIssued' : 'instructions.refundOriginalIssued', { amount }))
    } else if (allKept) {
      parts.push(t(credit ? 'instructions.refundKeptStoreCredit' : 'instructions.refundKeptOriginal', { amount }))
    } else if (timing) {
      // The shop's own timing replaces the generic "once we receive your items".
      parts.push(
        t(credit ? 'instructions.refundStoreCreditTimed' : 'instructions.refundOriginalTimed', {
          amount,
          when: refundWhen(timing, t, locale),
        }),
      )
    } else {
      parts.push(t(credit ? 'instructions.refundStoreCredit' : 'instructions.refundOriginal', { amount }))
    }
  }
  if (exchanging) parts.push(t('instructions.newItemsShip'))
  return parts.length > 0 ? parts.join(' ') : t('instructions.nothingToRefund')
}

/** Which items go in the parcel and which stay with the shopper; shown only when some are kept. */
function SendAndKeep({ items }: { items: readonly InstructionItem[] }) {
  const t = useT()
  const sent = items.filter((item) => !item.keep)
  const kept = items.filter((item) => item.keep)
  const list = (group: InstructionItem[], id: string, heading: string, modifier: string) => (
    <div className={`instructions__group instructions__group--${modifier}`}>
      <h3 id={id} className="instructions__subheading">
        {heading}
      </h3>
      <ul className="instructions__items" aria-labelledby={id}>
        {group.map((item) => (
          <li key={item.line_item_id}>
            {t('instructions.itemLine', { quantity: item.quantity, title: item.title })}
            {item.variant_title ? <span className="muted"> · {item.variant_title}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  )
  return (
    <div className="instructions__groups">
      {/* What goes in the parcel, for every return that sends something. */}
      {sent.length > 0 ? list(sent, 'instructions-send', t('instructions.sendHeading'), 'send') : null}
      {kept.length > 0 ? list(kept, 'instructions-keep', t('instructions.keepHeading'), 'keep') : null}
    </div>
  )
}

const isZero = (money: ReturnOrder['breakdown']['total']) => !(Number(money.presentment_money.amount) > 0)

function RefundSection({ submitted }: { submitted: ReturnOrder }) {
  const t = useT()
  const locale = useLocale()
  const { items_subtotal, upsell, total } = submitted.breakdown
  // An exchange only refunds nothing: the section speaks of the exchange, not of a refund.
  const exchangeOnly =
    isZero(items_subtotal) &&
    isZero(upsell) &&
    isZero(total) &&
    submitted.items.some((item) => item.exchange_variant_id)
  return (
    <section className="instructions__section" aria-labelledby="instructions-refund">
      <h2 id="instructions-refund" className="instructions__heading">
        {t(exchangeOnly ? 'instructions.exchange' : 'instructions.refund')}
      </h2>
      <p className="instructions__refund">{refundSummary(submitted, locale, t)}</p>
    </section>
  )
}

/** Every item kept: no parcel, so no label, QR code, address or packing steps. */
function NothingToSend({
  instructions,
  submitted,
}: {
  instructions: NothingToSendInstructions
  submitted: ReturnOrder
}) {
  const t = useT()
  return (
    <div className="instructions instructions--kept">
      <ReturnNumber name={instructions.return_name} />
      <section className="instructions__section" aria-labelledby="instructions-steps">
        <h2 id="instructions-steps" className="instructions__heading">
          {t('instructions.nothingToSend')}
        </h2>
        {instructions.steps.map((step, index) => (
          <p key={index} className="instructions__kept-step">
            {step}
          </p>
        ))}
        <SendAndKeep items={instructions.items} />
      </section>
      <NewItemSection submitted={submitted} />
      <RefundSection submitted={submitted} />
      <FollowReturn instructions={instructions} />
    </div>
  )
}

/**
 * The new item taken with the return (the upsell), as it was chosen; it ships once the return
 * arrives, said here unless the refund's words say it of every new item (items exchanged too).
 */
function NewItemSection({ submitted }: { submitted: ReturnOrder }) {
  const t = useT()
  const upsell = useAppSelector((state) => state.returnFlow.upsell)
  if (upsell?.kind !== 'accepted' || !upsell.variantId) return null
  return (
    <section className="instructions__section" aria-labelledby="instructions-new-item">
      <h2 id="instructions-new-item" className="instructions__heading">
        {t('confirm.newItem')}
      </h2>
      <NewItem variantId={upsell.variantId} className="instructions__new-item" />
      {itemsExchanged(submitted) ? null : <p className="muted">{t('instructions.newItemShips')}</p>}
    </section>
  )
}

function Instructions({ instructions, submitted }: { instructions: ReturnInstructionsAnswer; submitted: ReturnOrder }) {
  if ('review' in instructions) return <UnderReview instructions={instructions} />
  if ('nothing_to_send' in instructions) return <NothingToSend instructions={instructions} submitted={submitted} />
  return <Shipment instructions={instructions} submitted={submitted} />
}

function Shipment({ instructions, submitted }: { instructions: ReturnInstructions; submitted: ReturnOrder }) {
  const t = useT()
  const locale = useLocale()
  const label = labelHref(instructions.label_url)
  return (
    <div className="instructions">
      <ReturnNumber name={instructions.return_name} />
      <section className="instructions__section" aria-labelledby="instructions-steps">
        <h2 id="instructions-steps" className="instructions__heading">
          {t('instructions.next')}
        </h2>
        <ol className="instructions__steps" aria-labelledby="instructions-steps">
          {instructions.steps.map((step, index) => (
            <li key={index}>{step}</li>
          ))}
        </ol>
        {instructions.items ? <SendAndKeep items={instructions.items} /> : null}
        {label ? (
          <a
            className="button button--primary instructions__label"
            href={label}
            download
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('instructions.label')}
          </a>
        ) : (
          <p className="notice">{t('instructions.noLabel')}</p>
        )}
      </section>
      <section className="instructions__section instructions__qr" aria-labelledby="instructions-qr">
        <h2 id="instructions-qr" className="instructions__heading">
          {t('instructions.qrHeading')}
        </h2>
        <img
          className="instructions__qr-image"
          src={svgDataUrl(instructions.qr_svg)}
          alt={t('instructions.qrAlt', { code: instructions.qr_code_value })}
          width={200}
          height={200}
        />
        <p className="muted instructions__code">{t('instructions.code', { code: instructions.qr_code_value })}</p>
      </section>
      <section className="instructions__section" aria-labelledby="instructions-address">
        <h2 id="instructions-address" className="instructions__heading">
          {t('instructions.address')}
        </h2>
        <ReturnAddress address={instructions.address} locale={locale} />
      </section>
      <NewItemSection submitted={submitted} />
      <RefundSection submitted={submitted} />
      <FollowReturn instructions={instructions} />
    </div>
  )
}

function InstructionsLoader({ returnId, submitted }: { returnId: string; submitted: ReturnOrder }) {
  const t = useT()
  const { data, isError, isFetching, refetch } = useGetReturnInstructionsQuery({ returnId })
  const expired = useSessionExpired()
  const order = useAppSelector((state) => state.returnFlow.order)
  if (data) return <Instructions instructions={data} submitted={submitted} />
  // The return is made; the session lapsed before its instructions came: verify again here.
  if (expired && order) return <SessionRenewal order={order} onRenewed={() => void refetch()} />
  if (isError && !isFetching) {
    return (
      <div className="instructions__problem">
        <ReturnNumber name={submitted.name ?? ''} />
        <ErrorMessage>{t(expired ? 'instructions.expired' : 'instructions.failed')}</ErrorMessage>
        {expired ? null : (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => (focusStepHeading(), void refetch())}
          >
            {t('common.tryAgain')}
          </button>
        )}
      </div>
    )
  }
  return (
    <div className="card__center">
      <Spinner label={t('instructions.loading')} />
    </div>
  )
}

/** docs/rules.md §9.7: the return is made; how to send it back. No back link. */
export default function ReturnInstructionScreen() {
  const submitted = useAppSelector((state) => state.returnFlow.submitted)
  const t = useT()
  // The loader's query (the same one, asked once): what follows the instructions waits for them.
  const { data, isError } = useGetReturnInstructionsQuery(submitted?.id ? { returnId: submitted.id } : skipToken)
  const pending = !data && !isError
  if (!submitted?.id) return <Navigate to={paths.confirm.build()} replace />
  // A return the shop reviews is registered, but not under way: the heading says where it stands.
  const review = data && 'review' in data ? data.review.state : null
  const title = t(
    review === 'pending'
      ? 'review.pendingTitle'
      : review === 'rejected'
        ? 'review.rejectedTitle'
        : 'instructions.title',
  )
  return (
    <StepScreen title={title} stage="Done" pending={pending}>
      <InstructionsLoader returnId={submitted.id} submitted={submitted} />
      {pending ? null : (
        <div className="actions instructions__actions">
          <Link className="button button--secondary button--block" to={paths.start.build()}>
            {t('instructions.another')}
          </Link>
        </div>
      )}
    </StepScreen>
  )
}
