import { useAppDispatch } from '../../app/hooks'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { bonusFraction, formatPercent } from '../../components/format'
import { useLocale, useT } from '../../i18n/useT'
import { useShop } from '../../shop/useShop'
import { upsellAccepted, upsellDeclined } from '../returnFlow/returnFlowSlice'
import { useContinue, usePreviousStep } from '../returnFlow/hooks'
import './UpsellOfferScreen.css'

/** docs/rules.md §9.4: swap the refund for something new from the shop, with the store-credit bonus. */
export default function UpsellOfferScreen() {
  const dispatch = useAppDispatch()
  const backTo = usePreviousStep({ kind: 'upsell-offer' })
  const t = useT()
  const locale = useLocale()
  const { gift_card_value_multiplier: multiplier } = useShop()
  const { continueFrom, isContinuing } = useContinue()
  const bonus = bonusFraction(multiplier)

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
