import type { ReturnOrder } from '../../../contract/api'
import { useAppDispatch } from '../../app/hooks'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { bonusFraction, formatMoney, formatPercent } from '../../components/format'
import { moneyOf, readMinor } from '../../../contract/money'
import { useLocale, useT } from '../../i18n/useT'
import { useShop } from '../../shop/useShop'
import { upsellAccepted, upsellDeclined } from '../returnFlow/returnFlowSlice'
import { useContinue, useCreditQuote, usePreviousStep, useQuoteAhead } from '../returnFlow/hooks'
import './UpsellOfferScreen.css'

/**
 * The credit in money, and how it is made: the items' value with tax, less the return fee (which an
 * upsell pays too, docs/decisions/0041-upsell-credit-words.md), plus the bonus.
 */
function CreditWords({ quote }: { quote: ReturnOrder }) {
  const t = useT()
  const locale = useLocale()
  const { items_subtotal, tax, return_fee, bonus } = quote.breakdown
  const [subtotal, taxed, fee, extra] = [items_subtotal, tax, return_fee, bonus].map((part) =>
    readMinor(part.presentment_money),
  )
  const credit = (quote.store_credit_value ?? quote.refund_value).presentment_money
  if (subtotal === null || taxed === null || subtotal === undefined || taxed === undefined) return null
  const money = (minor: number | null | undefined) =>
    minor ? formatMoney(moneyOf(minor, credit.currency_code), locale) : 'none'
  return (
    <p className="notice upsell-offer__credit">
      {t('upsellOffer.credit', {
        credit: formatMoney(credit, locale),
        items: money(subtotal + taxed),
        fee: money(fee),
        bonus: money(extra),
      })}
    </p>
  )
}

/** docs/rules.md §9.4: swap the refund for something new from the shop, with the store-credit bonus. */
export default function UpsellOfferScreen() {
  const dispatch = useAppDispatch()
  const backTo = usePreviousStep({ kind: 'upsell-offer' })
  const t = useT()
  const locale = useLocale()
  const { gift_card_value_multiplier: multiplier } = useShop()
  const { continueFrom, isContinuing } = useContinue()
  const bonus = bonusFraction(multiplier)
  const { quote } = useCreditQuote()
  // Declining leaves these choices as they are: their quote, which decides the step after, is asked now.
  useQuoteAhead({ kind: 'upsell-offer' })

  async function answer(accept: boolean) {
    if (isContinuing) return
    dispatch(accept ? upsellAccepted() : upsellDeclined())
    await continueFrom({ kind: 'upsell-offer' })
  }

  return (
    <StepScreen title={t('upsellOffer.title')} stage="Refund" backTo={backTo}>
      <div className="upsell-offer" aria-busy={isContinuing}>
        {bonus > 0 ? (
          <p className="upsell-offer__bonus">
            <span className="upsell-offer__percent">+{formatPercent(bonus, locale)}</span>
            <span>{t('upsellOffer.bonus')}</span>
          </p>
        ) : null}
        <p className="lead upsell-offer__lead">
          {t('upsellOffer.lead', { bonus: bonus > 0 ? formatPercent(bonus, locale) : 'none' })}
        </p>
        {quote.currentData ? <CreditWords quote={quote.currentData} /> : null}
        <div className="actions">
          <button
            type="button"
            className="button button--primary button--block"
            disabled={isContinuing}
            onClick={() => void answer(true)}
          >
            {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
            <span>{t('upsellOffer.accept')}</span>
          </button>
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={isContinuing}
            onClick={() => void answer(false)}
          >
            {t('upsellOffer.decline')}
          </button>
        </div>
      </div>
    </StepScreen>
  )
}
