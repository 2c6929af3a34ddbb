import { skipToken } from '@reduxjs/toolkit/query/react'
import { useId, useMemo, useRef, useState, type ComponentProps } from 'react'
import { Navigate } from 'react-router-dom'
import type { Money, RefundMethod, ReturnOrder } from '../../../contract/api'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { focusStepHeading, StepScreen } from '../../components/StepScreen'
import { bonusFraction, formatMoney, formatPercent } from '../../components/format'
import { moneyOf, readMinor } from '../../../contract/money'
import { countedTiming, refundWhen } from '../../components/refundTiming'
import { paths } from '../../../contract/paths'
import { useLocale, useT } from '../../i18n/useT'
import { useShop } from '../../shop/useShop'
import { refundMethodChosen } from '../returnFlow/returnFlowSlice'
import { earlierReturns, invalidReturnProblems, ReturnProblems } from '../returnFlow/ReturnProblems'
import { SessionRenewal } from '../returnFlow/SessionRenewal'
import {
  useContinue,
  usePreviousStep,
  useQuoteAfterFirstFrame,
  useQuoteBody,
  useSessionExpired,
} from '../returnFlow/hooks'
import './RefundMethodScreen.css'

/** The store credit of a quote; the refund times the multiplier (in minor units) if the server left it out. */
function storeCredit(quote: ReturnOrder, multiplier: number | null | undefined): Money {
  if (quote.store_credit_value) return quote.store_credit_value.presentment_money
  const refund = quote.refund_value.presentment_money
  const minor = readMinor(refund)
  return minor === null ? refund : moneyOf(Math.round(minor * (multiplier ?? 1)), refund.currency_code)
}

/**
 * What both amounts are after: "Your items come to €14.00. A return fee of €3.95 is taken from
 * that…" when the shop takes a fee; with a new item, that item too, by name and price, and the
 * part of it its bonus pays ("€36.80 for your items, less the €3.95 return fee and the €22.00
 * Wool Scarf, of which a €2.00 bonus pays part").
 */
function FeeNote({ quote }: { quote: ReturnOrder }) {
  const t = useT()
  const locale = useLocale()
  const { breakdown } = quote
  const fee = breakdown.return_fee.presentment_money
  const upsell = breakdown.upsell.presentment_money
  const charged = (readMinor(fee) ?? 0) > 0
  const newItem = (readMinor(upsell) ?? 0) > 0
  if (!charged && !newItem) return null
  // The fee is taken from the items with their tax, before any bonus or new item.
  const [subtotal, tax] = [
    readMinor(breakdown.items_subtotal.presentment_money),
    readMinor(breakdown.tax.presentment_money),
  ]
  if (subtotal === null || tax === null) return null
  const items = formatMoney(moneyOf(subtotal + tax, fee.currency_code), locale)
  if (!newItem) return <p className="refund-method__fee">{t('refund.fee', { items, fee: formatMoney(fee, locale) })}</p>
  const bonus = breakdown.bonus.presentment_money
  return (
    <p className="refund-method__fee">
      {t('refund.newItemNote', {
        items,
        fee: charged ? formatMoney(fee, locale) : 'none',
        price: formatMoney(upsell, locale),
        item: quote.new_item?.product_title ?? t('refund.newItemUnnamed'),
        bonus: (readMinor(bonus) ?? 0) > 0 ? formatMoney(bonus, locale) : 'none',
      })}
    </p>
  )
}

interface MethodFormProps {
  quote: ReturnOrder
  choice: RefundMethod | null
  onChoose: (method: RefundMethod) => void
}

function MethodForm({ quote, choice, onChoose }: MethodFormProps) {
  const dispatch = useAppDispatch()
  const t = useT()
  const locale = useLocale()
  const { gift_card_value_multiplier: multiplier } = useShop()
  const { continueFrom, isContinuing } = useContinue()
  const errorId = useId()
  const [error, setError] = useState(false)
  const firstRadio = useRef<HTMLInputElement>(null)
  const bonus = bonusFraction(multiplier)

  async function onContinue() {
    if (isContinuing) return
    if (!choice) {
      setError(true)
      firstRadio.current?.focus()
      return
    }
    dispatch(refundMethodChosen(choice))
    await continueFrom({ kind: 'refund-method' })
  }

  // Stored as it is chosen, so a reload of this step (or a failed quote after it) keeps it.
  const choose = (method: RefundMethod) => {
    onChoose(method)
    setError(false)
    dispatch(refundMethodChosen(method))
  }

  return (
    <div className="refund-method" aria-busy={isContinuing}>
      <FeeNote quote={quote} />
      <fieldset className="choices" aria-describedby={error ? errorId : undefined}>
        <legend>{t('refund.legend')}</legend>
        <label className="choice refund-method__choice">
          <input
            ref={firstRadio}
            type="radio"
            name="refund-method"
            value="original_payment"
            checked={choice === 'original_payment'}
            onChange={() => choose('original_payment')}
          />
          <span className="refund-method__text">
            <span className="item__title">{t('refund.original')}</span>
            <span className="muted">{t('refund.originalHint')}</span>
            {quote.refund_timing?.original_payment ? (
              <span className="refund-method__timing">
                {t('timing.arrives', {
                  when: refundWhen(countedTiming(quote.refund_timing.original_payment, quote.items), t, locale),
                })}
              </span>
            ) : null}
          </span>
          <span className="amount refund-method__amount">
            {formatMoney(quote.refund_value.presentment_money, locale)}
          </span>
        </label>
        <label className="choice refund-method__choice">
          <input
            type="radio"
            name="refund-method"
            value="store_credit"
            checked={choice === 'store_credit'}
            onChange={() => choose('store_credit')}
          />
          <span className="refund-method__text">
            <span className="item__title">{t('refund.storeCredit')}</span>
            <span className="muted">{t('refund.storeCreditHint')}</span>
            {quote.refund_timing?.store_credit ? (
              <span className="refund-method__timing">
                {t('timing.arrives', {
                  when: refundWhen(countedTiming(quote.refund_timing.store_credit, quote.items), t, locale),
                })}
              </span>
            ) : null}
            {bonus > 0 ? (
              <span className="refund-method__bonus">{t('refund.bonus', { bonus: formatPercent(bonus, locale) })}</span>
            ) : null}
          </span>
          <span className="amount refund-method__amount">{formatMoney(storeCredit(quote, multiplier), locale)}</span>
        </label>
        {error ? <ErrorMessage id={errorId}>{t('refund.chooseError')}</ErrorMessage> : null}
      </fieldset>
      <div className="actions">
        <button
          type="button"
          className="button button--primary button--block"
          disabled={isContinuing}
          onClick={() => void onContinue()}
        >
          {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
          <span>{t('common.continue')}</span>
        </button>
      </div>
    </div>
  )
}

/** docs/rules.md §9.5: the refund to the original payment, or store credit worth more. */
export default function RefundMethodScreen() {
  const t = useT()
  const request = useQuoteBody()
  const storedMethod = useAppSelector((state) => state.returnFlow.refundMethod)
  const backTo = usePreviousStep({ kind: 'refund-method' })
  const expired = useSessionExpired()
  const order = useAppSelector((state) => state.returnFlow.order)
  // Both amounts come from one quote without a method: choosing one asks for nothing new. Without
  // a method chosen yet, that is the quote of the current choices, which the flow keeps (the step
  // before may have asked for it already: it is not asked for twice).
  const asked = useMemo(
    () => (request ? { body: { ...request, refund_method: null }, current: request.refund_method === null } : null),
    [request],
  )
  // A refusal that leaves no item (every one returned meanwhile, from another tab) stays said here
  // with what it refused, rather than the step vanishing into the items.
  const [held, setHeld] = useState(asked)
  if (asked && asked !== held) setHeld(asked)
  const quoteRequest = asked ?? held
  const quote = useQuoteAfterFirstFrame(quoteRequest ?? skipToken)
  // Kept here so a retry of the quote does not lose the choice.
  const [choice, setChoice] = useState<RefundMethod | null>(storedMethod)
  // Choices that no longer hold (a 422: units returned meanwhile, a size sold out) are named with
  // the way to fix them; trying the same quote again could never work.
  const [refused, setRefused] = useState<ComponentProps<typeof ReturnProblems> | null>(null)
  const problems = invalidReturnProblems(quote.error)
  if (problems && order && quoteRequest && !refused)
    setRefused({ problems, request: quoteRequest.body, order, returns: earlierReturns(quote.error) })

  if (!quoteRequest) return <Navigate to={paths.products.build()} replace />

  return (
    <StepScreen
      title={t('refund.title')}
      stage="Refund"
      backTo={backTo}
      pending={!(expired && order) && !refused && !quote.isError && !quote.currentData}
    >
      {expired && order ? (
        <SessionRenewal order={order} onRenewed={() => void quote.refetch()} />
      ) : refused ? (
        <ReturnProblems {...refused} />
      ) : quote.isError ? (
        <div className="refund-method__problem">
          <ErrorMessage>{t('refund.failed')}</ErrorMessage>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => (focusStepHeading(), void quote.refetch())}
          >
            {t('common.tryAgain')}
          </button>
        </div>
      ) : quote.currentData ? (
        <MethodForm quote={quote.currentData} choice={choice} onChoose={setChoice} />
      ) : (
        <div className="card__center">
          <Spinner label={t('refund.loading')} />
        </div>
      )}
    </StepScreen>
  )
}
