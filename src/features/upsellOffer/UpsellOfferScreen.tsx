import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { bonusFraction, formatPercent } from '../../components/format'
import { paths } from '../../config/paths'
import { useShop } from '../../shop/useShop'
import { isExchangeable } from '../returnFlow/eligibility'
import { selectFlow, selectLaunch, upsellAccepted, upsellDeclined, type ReturnFlowState } from '../returnFlow/returnFlowSlice'
import { useContinue } from '../returnFlow/useContinue'
import './UpsellOfferScreen.css'

/** Back without history: the last item's exchange step, or its reason step when it has none. */
function lastItemStep({ items, order }: ReturnFlowState): string {
  const last = items.at(-1)
  if (!last) return paths.products.build()
  const line = order?.line_items.find((candidate) => candidate.id === last.lineItemId)
  return line && isExchangeable(line, order?.exchange_data) ? paths.exchange.build(last.lineItemId) : paths.returnReason.build(last.lineItemId)
}

/** PRODUCT.md §3.4: swap the refund for something new from the shop, with the store-credit bonus. */
export default function UpsellOfferScreen() {
  const dispatch = useAppDispatch()
  const flow = useAppSelector(selectFlow)
  const locale = useAppSelector(selectLaunch).lang ?? 'en'
  const { gift_card_value_multiplier: multiplier } = useShop()
  const { continueFrom, isContinuing } = useContinue()
  const bonus = bonusFraction(multiplier)

  async function answer(accept: boolean) {
    if (isContinuing) return
    dispatch(accept ? upsellAccepted() : upsellDeclined())
    await continueFrom({ kind: 'upsell-offer' })
  }

  return (
    <StepScreen title="Exchange for something new?" stage="Refund" backTo={lastItemStep(flow)}>
      <div className="upsell-offer" aria-busy={isContinuing}>
        {bonus > 0 ? (
          <p className="upsell-offer__bonus">
            <span className="upsell-offer__percent">+{formatPercent(bonus, locale)}</span>
            <span>bonus on the value of your return</span>
          </p>
        ) : null}
        <p className="lead upsell-offer__lead">
          Instead of a refund, pick a new item from our shop with the value of what you send back
          {bonus > 0 ? `, and keep a ${formatPercent(bonus, locale)} bonus on top` : ''}.
        </p>
        <div className="actions">
          <button type="button" className="button button--primary button--block" disabled={isContinuing} onClick={() => void answer(true)}>
            {isContinuing ? <Spinner label="Moving on" size="small" /> : null}
            <span>Yes, show me new items</span>
          </button>
          <button type="button" className="button button--secondary button--block" disabled={isContinuing} onClick={() => void answer(false)}>
            No thanks, continue with my return
          </button>
        </div>
      </div>
    </StepScreen>
  )
}
