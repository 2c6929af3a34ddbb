import { Link, useLocation, useParams } from 'react-router-dom'
import type { ReturnStatus, ReturnStatusRefund } from '../../../contract/api'
import { useGetReturnStatusQuery } from '../../api/returnsEndpoints'
import { CopyLink } from '../../components/CopyLink'
import { ErrorMessage } from '../../components/ErrorMessage'
import { formatMoney } from '../../components/format'
import { formatDate, formatDay, refundWhen } from '../../components/refundTiming'
import { labelHref, ReturnAddress, svgDataUrl } from '../../components/returnLabel'
import { Spinner } from '../../components/Spinner'
import { useHeadingFocus } from '../../components/useHeadingFocus'
import { paths } from '../../../contract/paths'
import { useDocumentTitle } from '../../components/useDocumentTitle'
import { useLocale, useT } from '../../i18n/useT'
import { NewItemCard } from '../returnFlow/NewItem'
import { ItemProgress } from './ItemProgress'
import { RefundDeductions } from './RefundDeductions'
import { ReviewNotice } from './ReviewNotice'
import './StatusScreen.css'

/** What the server signs: base64url of an HMAC-SHA256 (43 characters); anything else is not a link of ours. */
const SIGNATURE = /^[A-Za-z0-9_-]{20,128}$/

function RefundBlock({ refund }: { refund: ReturnStatusRefund | null }) {
  const t = useT()
  const locale = useLocale()
  if (!refund) return <p className="status__refund-amount">{t('status.noRefund')}</p>
  const amount = formatMoney(refund.amount, locale)
  const { timing, expected } = refund
  return (
    <>
      <p className="status__refund-amount">
        {t(refund.method === 'store_credit' ? 'status.refundStoreCredit' : 'status.refundOriginal', { amount })}
      </p>
      {refund.store_credit ? (
        // Store credit issued: a code to spend now, nothing to wait for (decision 0064).
        <div className="status__credit">
          <p>{t('status.creditCode')}</p>
          <p className="status__credit-code">
            <strong>{refund.store_credit.code}</strong>
          </p>
          <p>{t('status.creditUse', { amount: formatMoney(refund.store_credit.amount, locale) })}</p>
        </div>
      ) : refund.issued_at ? (
        <p className="status__refund-when">{t('status.issuedOn', { date: formatDate(refund.issued_at, locale) })}</p>
      ) : expected ? (
        <p className="status__refund-when">
          {expected.from === expected.to
            ? t('status.expectedOn', { date: formatDay(expected.from, locale) })
            : t('status.expectedBetween', {
                from: formatDay(expected.from, locale),
                to: formatDay(expected.to, locale),
              })}
        </p>
      ) : timing ? (
        <p className="status__refund-when">{t('timing.arrives', { when: refundWhen(timing, t, locale) })}</p>
      ) : null}
      <RefundDeductions refund={refund} />
    </>
  )
}

/** The new item taken with the return: as it was chosen, and whether it is on its way yet. */
function NewItemSection({ item }: { item: NonNullable<ReturnStatus['new_item']> }) {
  const t = useT()
  return (
    <section className="status__section status__new-item" aria-labelledby="status-new-item">
      <h2 id="status-new-item" className="status__heading">
        {t('confirm.newItem')}
      </h2>
      <NewItemCard item={item} className="status__new-item-card">
        <span className={`status__new-item-state status__new-item-state--${item.state}`}>
          {t(item.state === 'sent' ? 'status.newItemSent' : 'status.newItemToBeSent')}
        </span>
      </NewItemCard>
    </section>
  )
}

function StatusView({ status, link }: { status: ReturnStatus; link: string }) {
  const t = useT()
  const locale = useLocale()
  const review = status.review?.state
  // Waiting for the shop, or refused: nothing is to be sent yet (or ever), so no label is offered.
  const held = review === 'pending' || review === 'rejected'
  const rejected = review === 'rejected' ? { at: status.review?.decided_at } : undefined
  // Cancelled by the shop: nothing is refunded or sent (decision 0083).
  const cancelled = status.ended?.state === 'cancelled'
  const label = status.label && !held ? labelHref(status.label.label_url) : null
  // Every item exchanged: nothing is refunded, so there is no refund to speak of.
  const exchangeOnly =
    status.refund === null &&
    status.items.length > 0 &&
    status.items.every((item) => item.exchange_variant_title !== null)
  return (
    <div className="status">
      <p className="status__submitted muted">
        {t('status.submittedOn', { date: formatDate(status.created_at, locale) })}
      </p>
      {status.review ? <ReviewNotice review={status.review} /> : null}
      {status.ended ? (
        // Cancelled or closed by the shop (decision 0083): nothing more to send or wait for.
        <section className="status__review status__review--rejected" aria-labelledby="status-ended">
          <h2 id="status-ended" className="status__heading">
            {t(status.ended.state === 'cancelled' ? 'ended.cancelledTitle' : 'ended.closedTitle')}
          </h2>
          <p>
            {t(status.ended.state === 'cancelled' ? 'ended.cancelled' : 'ended.closed', {
              date: formatDate(status.ended.at, locale),
            })}
          </p>
        </section>
      ) : null}
      <section className="status__section status__items" aria-labelledby="status-items">
        <h2 id="status-items" className="status__heading">
          {t('status.items')}
        </h2>
        <ul className="status__item-list">
          {status.items.map((item) => (
            <ItemProgress key={item.line_item_id} item={item} rejected={rejected} />
          ))}
        </ul>
      </section>
      <div className="status__side">
        {/* A refused return sends no new item and refunds nothing: its notice says so. */}
        {status.new_item && !rejected && !cancelled ? <NewItemSection item={status.new_item} /> : null}
        {exchangeOnly || rejected || cancelled ? null : (
          <section className="status__section status__refund" aria-labelledby="status-refund">
            <h2 id="status-refund" className="status__heading">
              {t('status.refund')}
            </h2>
            <RefundBlock refund={status.refund} />
          </section>
        )}
        {status.label && !held ? (
          <section className="status__section status__label" aria-labelledby="status-label">
            <h2 id="status-label" className="status__heading">
              {t('status.label')}
            </h2>
            {status.items.some((item) => item.keep) ? (
              <p className="status__label-note">{t('status.labelSentOnly')}</p>
            ) : null}
            {label ? (
              <a
                className="button button--primary button--block"
                href={label}
                download
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('instructions.label')}
              </a>
            ) : null}
            <img
              className="status__qr"
              src={svgDataUrl(status.label.qr_svg)}
              alt={t('instructions.qrAlt', { code: status.label.qr_code_value })}
              width={160}
              height={160}
            />
            <p className="muted status__code">{t('instructions.code', { code: status.label.qr_code_value })}</p>
            <h3 className="status__subheading">{t('instructions.address')}</h3>
            <ReturnAddress address={status.address} locale={locale} className="status__address" />
          </section>
        ) : !held && status.items.some((item) => !item.keep && item.state === 'in_transit') ? (
          // Said rather than silently gone while the parcel travels; once it arrives, the items say so.
          <p className="status__section status__label-done">{t('status.labelDone')}</p>
        ) : null}
        <section className="status__section" aria-label={t('status.linkLabel')}>
          <CopyLink url={link} label={t('status.linkLabel')} />
        </section>
      </div>
    </div>
  )
}

function Problem({ kind, retry }: { kind: 'invalid' | 'expired' | 'failed'; retry: () => void }) {
  const t = useT()
  return (
    <div className="card__center">
      <ErrorMessage>
        {t(kind === 'invalid' ? 'status.invalid' : kind === 'expired' ? 'status.expired' : 'status.failed')}
      </ErrorMessage>
      {kind === 'failed' ? (
        <button type="button" className="button button--secondary" onClick={retry}>
          {t('common.tryAgain')}
        </button>
      ) : null}
    </div>
  )
}

const statusCode = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error ? error.status : null

/**
 * /status/{id}#{signature}: a submitted return's items and where each is (an item the shopper
 * keeps goes from requested to refunded), the refund and when it arrives, and the label and QR
 * code while something is still to be sent (never when every item is kept). Opened from the
 * instructions or from the kept link, with or without a session.
 */
export default function StatusScreen() {
  const t = useT()
  const headingRef = useHeadingFocus()
  const { id = '' } = useParams()
  const { pathname, search, hash } = useLocation()
  const signature = decodeURIComponent(hash.replace(/^#/, ''))
  const wellFormed = SIGNATURE.test(signature) && id !== ''
  // Fetched fresh on every visit: the state moves on while the page is away.
  const { data, error, isError, isFetching, refetch } = useGetReturnStatusQuery(
    { returnId: id, signature },
    { skip: !wellFormed, refetchOnMountOrArgChange: true },
  )
  const code = statusCode(error)
  const problem =
    !wellFormed || (isError && (code === 404 || code === 400))
      ? 'invalid'
      : isError && code === 410
        ? 'expired'
        : isError
          ? 'failed'
          : null

  const title = data && !problem ? t('status.title', { name: data.return_name }) : t('status.heading')
  useDocumentTitle(title)
  return (
    <section className="step status-screen" aria-labelledby="status-title" aria-busy={isFetching}>
      <h1 id="status-title" className="screen-title" ref={headingRef} tabIndex={-1}>
        {title}
      </h1>
      {problem && !(problem === 'failed' && isFetching) ? (
        <Problem kind={problem} retry={() => void refetch()} />
      ) : data ? (
        <StatusView status={data} link={`${window.location.origin}${pathname}${search}${hash}`} />
      ) : (
        <div className="card__center">
          <Spinner label={t('status.loading')} />
        </div>
      )}
      <div className="actions status__actions">
        <Link className="button button--secondary button--block" to={paths.start.build()}>
          {t('status.toStart')}
        </Link>
      </div>
    </section>
  )
}
