import { Link, Navigate } from 'react-router-dom'
import type { ReturnInstructions, ReturnOrder } from '../../api/contract'
import { useGetReturnInstructionsQuery } from '../../api/returnsEndpoints'
import { useAppSelector } from '../../app/hooks'
import { CopyLink } from '../../components/CopyLink'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { focusStepHeading, StepScreen } from '../../components/StepScreen'
import { formatMoney } from '../../components/format'
import { refundWhen } from '../../components/refundTiming'
import { labelHref, ReturnAddress, svgDataUrl } from '../../components/returnLabel'
import { paths } from '../../config/paths'
import { T, useLocale, useT, type Translate } from '../../i18n/useT'
import { selectLaunch, selectSubmitted } from '../returnFlow/returnFlowSlice'
import './ReturnInstructionScreen.css'

/** What the shopper gets back, in words, from the return the server created; when it arrives if the shop says. */
function refundSummary(submitted: ReturnOrder, locale: string, t: Translate): string {
  const total = submitted.breakdown.total.presentment_money
  const exchanging = submitted.items.some((item) => item.exchange_variant_id) || Number(submitted.breakdown.upsell.presentment_money.amount) > 0
  const parts: string[] = []
  if (Number(total.amount) > 0) {
    const method = submitted.refund_method ?? 'original_payment'
    const timing = submitted.refund_timing?.[method]
    const amount = formatMoney(total, locale)
    if (timing) {
      // The shop's own timing replaces the generic "once we receive your items".
      const when = refundWhen(timing, t, locale)
      parts.push(t(method === 'store_credit' ? 'instructions.refundStoreCreditTimed' : 'instructions.refundOriginalTimed', { amount, when }))
    } else {
      parts.push(method === 'store_credit' ? t('instructions.refundStoreCredit', { amount }) : t('instructions.refundOriginal', { amount }))
    }
  }
  if (exchanging) parts.push(t('instructions.newItemsShip'))
  return parts.length > 0 ? parts.join(' ') : t('instructions.nothingToRefund')
}

/** The status page of this return, and its link to keep (in the session's language). */
function FollowReturn({ instructions }: { instructions: ReturnInstructions }) {
  const t = useT()
  const { lang } = useAppSelector(selectLaunch)
  const path = paths.status.build(instructions.return_id, instructions.status_token, lang)
  return (
    <section className="instructions__section instructions__follow" aria-labelledby="instructions-follow">
      <h2 id="instructions-follow" className="instructions__heading">{t('instructions.follow')}</h2>
      <p className="muted instructions__follow-intro">{t('instructions.followIntro')}</p>
      <CopyLink url={`${window.location.origin}${path}`} label={t('status.linkLabel')} />
      <Link className="button button--secondary instructions__follow-open" to={path}>
        {t('instructions.followOpen')}
      </Link>
    </section>
  )
}

function Instructions({ instructions, submitted }: { instructions: ReturnInstructions; submitted: ReturnOrder }) {
  const t = useT()
  const locale = useLocale()
  const label = labelHref(instructions.label_url)
  return (
    <div className="instructions">
      <p className="instructions__number">
        <T id="instructions.number" values={{ name: instructions.return_name }} components={[<strong />]} />
      </p>
      <section className="instructions__section" aria-labelledby="instructions-steps">
        <h2 id="instructions-steps" className="instructions__heading">{t('instructions.next')}</h2>
        <ol className="instructions__steps" aria-labelledby="instructions-steps">
          {instructions.steps.map((step, index) => (
            <li key={index}>{step}</li>
          ))}
        </ol>
        {label ? (
          <a className="button button--primary instructions__label" href={label} download target="_blank" rel="noopener noreferrer">
            {t('instructions.label')}
          </a>
        ) : (
          <p className="notice">{t('instructions.noLabel')}</p>
        )}
      </section>
      <section className="instructions__section instructions__qr" aria-labelledby="instructions-qr">
        <h2 id="instructions-qr" className="instructions__heading">{t('instructions.qrHeading')}</h2>
        <img className="instructions__qr-image" src={svgDataUrl(instructions.qr_svg)} alt={t('instructions.qrAlt', { code: instructions.qr_code_value })} width={200} height={200} />
        <p className="muted instructions__code">{t('instructions.code', { code: instructions.qr_code_value })}</p>
      </section>
      <section className="instructions__section" aria-labelledby="instructions-address">
        <h2 id="instructions-address" className="instructions__heading">{t('instructions.address')}</h2>
        <ReturnAddress address={instructions.address} locale={locale} />
      </section>
      <section className="instructions__section" aria-labelledby="instructions-refund">
        <h2 id="instructions-refund" className="instructions__heading">{t('instructions.refund')}</h2>
        <p className="instructions__refund">{refundSummary(submitted, locale, t)}</p>
      </section>
      <FollowReturn instructions={instructions} />
    </div>
  )
}

function InstructionsLoader({ returnId, submitted }: { returnId: string; submitted: ReturnOrder }) {
  const t = useT()
  const { data, isError, error, isFetching, refetch } = useGetReturnInstructionsQuery({ returnId })
  if (data) return <Instructions instructions={data} submitted={submitted} />
  if (isError && !isFetching) {
    const expired = typeof error === 'object' && 'status' in error && error.status === 401
    return (
      <div className="instructions__problem">
        <p className="instructions__number">
          <T id="instructions.number" values={{ name: submitted.name ?? '' }} components={[<strong />]} />
        </p>
        <ErrorMessage>
          {t(expired ? 'instructions.expired' : 'instructions.failed')}
        </ErrorMessage>
        {expired ? null : (
          <button type="button" className="button button--secondary" onClick={() => (focusStepHeading(), void refetch())}>
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

/** PRODUCT.md §3.7: the return is made; how to send it back. No back link. */
export default function ReturnInstructionScreen() {
  const submitted = useAppSelector(selectSubmitted)
  const t = useT()
  if (!submitted?.id) return <Navigate to={paths.confirm.build()} replace />
  return (
    <StepScreen title={t('instructions.title')} stage="Done">
      <InstructionsLoader returnId={submitted.id} submitted={submitted} />
      <div className="actions instructions__actions">
        <Link className="button button--secondary button--block" to={paths.start.build()}>
          {t('instructions.another')}
        </Link>
      </div>
    </StepScreen>
  )
}
