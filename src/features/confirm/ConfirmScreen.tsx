import { useMemo, useRef, useState } from 'react'
import { Navigate } from 'react-router-dom'
import type { SerializedError } from '@reduxjs/toolkit'
import { skipToken, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react'
import type { EarlierReturn, RefundMethod, ReturnProblem, ReturnRequest, VerifiedOrder } from '../../../contract/api'
import { portalApi } from '../../api/portalApi'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { focusStepHeading, StepScreen } from '../../components/StepScreen'
import { formatMoney } from '../../components/format'
import { countedTiming, refundWhen } from '../../components/refundTiming'
import { paths } from '../../../contract/paths'
import type { MessageId } from '../../i18n/i18n'
import { T } from '../../i18n/T'
import { useLocale, useT } from '../../i18n/useT'
import { useShop } from '../../shop/useShop'
import { nextStep } from '../returnFlow/navigation'
import type { ReturnFlowState } from '../returnFlow/returnFlowSlice'
import { submitReturn } from '../returnFlow/thunks'
import {
  useContinue,
  usePreviousStep,
  useQuoteAfterFirstFrame,
  useQuoteBody,
  useSessionExpired,
} from '../returnFlow/hooks'
import { NewItem } from '../returnFlow/NewItem'
import { SessionRenewal } from '../returnFlow/SessionRenewal'
import { Breakdown } from './Breakdown'
import { ChosenItems } from './ChosenItems'
import { earlierReturns, invalidReturnProblems, ReturnProblems } from '../returnFlow/ReturnProblems'
import './ConfirmScreen.css'

const METHOD_LABELS: Record<RefundMethod, MessageId> = {
  original_payment: 'refund.original',
  store_credit: 'refund.storeCredit',
}

interface Refusal {
  problems: ReturnProblem[]
  request: ReturnRequest
  order: VerifiedOrder
  returns: EarlierReturn[]
}

interface ConfirmContentProps {
  flow: ReturnFlowState
  order: VerifiedOrder
  request: ReturnRequest
}

function ConfirmContent({ flow, order, request }: ConfirmContentProps) {
  const dispatch = useAppDispatch()
  const t = useT()
  const locale = useLocale()
  const { continueFrom } = useContinue()
  // The full request: the quote of the current choices, which the flow keeps. Asked afresh on
  // arrival (after the step's first frame), even when the same choices were priced before (the
  // exploration's credit can be this very body): confirm is the last look before the return is made.
  const asked = useMemo(() => ({ body: request, current: true }), [request])
  const quote = useQuoteAfterFirstFrame(asked, { refetchOnMountOrArgChange: true })
  const expired = useSessionExpired()
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  // The choices a refused submit (or quote) named, a 422, with the request and order they were
  // named in: the order is then read anew and the choices that no longer hold drop out
  // (ReturnProblems), but what was refused and why stays said, in place of the submit button,
  // until the shopper goes to fix it.
  const [refused, setRefused] = useState<Refusal | null>(null)
  const quoteProblems = invalidReturnProblems(quote.error)
  if (quoteProblems && !refused)
    setRefused({ problems: quoteProblems, request, order, returns: earlierReturns(quote.error) })
  // A second press before React re-renders must not send a second request.
  const submitting = useRef(false)

  async function onSubmit() {
    // A support agent's replay looks, never submits (the API refuses its token too).
    if (submitting.current || flow.readOnly || quote.currentData?.preview_multiplier !== undefined) return
    submitting.current = true
    setBusy(true)
    setFailed(false)
    try {
      await dispatch(submitReturn()).unwrap()
      await continueFrom({ kind: 'confirm' })
    } catch (caught) {
      const error = caught as FetchBaseQueryError | SerializedError
      const problems = invalidReturnProblems(error)
      if (problems) setRefused({ problems, request, order, returns: earlierReturns(error) })
      // A refused token is answered in place of the whole step (SessionRenewal), choices kept.
      else if (!('status' in error) || error.status !== 401) setFailed(true)
    } finally {
      submitting.current = false
      setBusy(false)
    }
  }

  const priced = quote.currentData
  // Priced with a preview's bonus the shop does not give: shown, never submitted (decision 0042).
  const previewOnly = priced?.preview_multiplier !== undefined
  const total = priced?.breakdown.total
  const method = flow.refundMethod ?? (total && Number(total.presentment_money.amount) > 0 ? 'original_payment' : null)
  // When the money arrives, if the shop says: only for something refunded.
  const timing =
    method && total && Number(total.presentment_money.amount) > 0 ? priced?.refund_timing?.[method] : undefined
  const upsellId = flow.upsell?.kind === 'accepted' ? flow.upsell.variantId : null
  const kept = new Set(priced?.items.filter((item) => item.keep === true).map((item) => item.line_item_id))
  // Every item exchanged and no new item: nothing is refunded and no fee is taken, so no breakdown of zeros.
  const exchangeOnly =
    flow.items.length > 0 && flow.items.every((item) => item.exchange?.kind === 'exchange') && !upsellId
  // A 422 at submit, or already for the quote on arrival: said once, with the way to fix it.
  if (expired) return <SessionRenewal order={order} onRenewed={() => void quote.refetch()} />

  return (
    <div className="confirm" aria-busy={busy}>
      <section className="confirm__section" aria-labelledby="confirm-items">
        <h2 id="confirm-items" className="confirm__heading">
          {t('confirm.items')}
        </h2>
        <ChosenItems items={flow.items} order={order} kept={kept} readOnly={flow.readOnly} />
        {upsellId ? (
          <>
            <h2 className="confirm__heading">{t('confirm.newItem')}</h2>
            <NewItem variantId={upsellId} className="confirm__item confirm__upsell" />
          </>
        ) : null}
      </section>
      {exchangeOnly ? (
        <p className="confirm__section confirm__exchange-free">{t('confirm.exchangeFree')}</p>
      ) : (
        <section className="confirm__section" aria-labelledby="confirm-refund">
          <h2 id="confirm-refund" className="confirm__heading">
            {t('confirm.refund')}
          </h2>
          {method ? (
            <p className="confirm__method">
              <T id="confirm.refundTo" values={{ method: t(METHOD_LABELS[method]) }} components={[<strong />]} />
            </p>
          ) : null}
          {timing && priced ? (
            <p className="confirm__timing">
              {t('timing.arrives', { when: refundWhen(countedTiming(timing, priced.items), t, locale) })}
            </p>
          ) : null}
          {refused ? null : quote.isError ? (
            <div className="confirm__problem">
              <ErrorMessage>{t('confirm.quoteFailed')}</ErrorMessage>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => (focusStepHeading(), void quote.refetch())}
              >
                {t('confirm.reloadQuote')}
              </button>
            </div>
          ) : priced ? (
            <Breakdown breakdown={priced.breakdown} method={method} />
          ) : (
            <Spinner label={t('refund.loading')} />
          )}
          {total && method === 'store_credit' ? (
            <p className="muted confirm__note">
              {t('confirm.giftCardNote', { amount: formatMoney(total.presentment_money, locale) })}
            </p>
          ) : null}
        </section>
      )}
      {flow.readOnly ? <p className="notice">{t('confirm.readOnly')}</p> : null}
      {previewOnly ? <p className="notice">{t('confirm.previewOnly')}</p> : null}
      {refused ? (
        <ReturnProblems {...refused} />
      ) : !priced && !quote.isError ? null : (
        <>
          {failed ? <ErrorMessage>{t('confirm.submitFailed')}</ErrorMessage> : null}
          <div className="actions confirm__actions">
            {/* Not disabled while it works: a disabled button drops the focus to the page's start. */}
            <button
              type="button"
              className="button button--primary button--block"
              disabled={flow.readOnly || previewOnly}
              aria-disabled={busy}
              onClick={() => void onSubmit()}
            >
              {busy ? <Spinner label={t('confirm.submitting')} size="small" /> : null}
              <span>{t(failed ? 'common.tryAgain' : 'confirm.submit')}</span>
            </button>
          </div>
        </>
      )}
    </div>
  )
}

/** docs/rules.md §9.6: everything chosen, the server's breakdown, and one submit that makes one return. */
export default function ConfirmScreen() {
  const flow = useAppSelector((state) => state.returnFlow)
  const t = useT()
  const current = useQuoteBody()
  // A refusal that leaves no item (every one returned meanwhile, from another tab) stays said on
  // this step with the request it refused, rather than the step vanishing into the items.
  const [held, setHeld] = useState(current)
  if (current && current !== held) setHeld(current)
  const request = current ?? held
  const { gift_card_value_multiplier: multiplier } = useShop()
  const backTo = usePreviousStep({ kind: 'confirm' })
  // Decided once on arrival: a return made here moves on through continueFrom instead.
  const [submittedOnArrival] = useState(flow.submitted !== null)
  // The content's quote (the same one, which the content asks for): what follows the breakdown waits for it.
  const quote = portalApi.endpoints.quoteReturn.useQueryState(
    request && !submittedOnArrival ? { body: request, current: true } : skipToken,
  )
  if (submittedOnArrival) return <Navigate to={nextStep({ flow, multiplier }, { kind: 'confirm' })} replace />
  if (!flow.order || !request) return <Navigate to={paths.products.build()} replace />

  return (
    <StepScreen
      title={t('confirm.title')}
      stage="Confirm"
      backTo={backTo}
      pending={!quote.currentData && !quote.isError}
    >
      <ConfirmContent flow={flow} order={flow.order} request={request} />
    </StepScreen>
  )
}
