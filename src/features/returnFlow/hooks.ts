import { useNavigate } from 'react-router-dom'
import { useQuoteReturnMutation } from '../../api/returnsEndpoints'
import { useAppSelector, useAppStore } from '../../app/hooks'
import type { RootState } from '../../app/store'
import { useShop } from '../../shop/useShop'
import { needsQuote, nextStep, previousStep, type NavigationInput, type Step } from './navigation'
import { returnRequest } from './returnRequest'
import { quoteReceived } from './returnFlowSlice'

const inputOf = (state: RootState, multiplier: number | null | undefined): NavigationInput => ({
  flow: state.returnFlow,
  multiplier,
})

/**
 * Moves on from a step to the route the navigation rules give. When that route hangs on a refund
 * value not known yet, the server is asked for a quote first; if it cannot answer, the value
 * stays unknown (which the rules send to the refund-method step, where it is shown).
 * Screens dispatch their choice, then call `continueFrom(step)`.
 */
export function useContinue() {
  const store = useAppStore()
  const navigate = useNavigate()
  const { gift_card_value_multiplier: multiplier } = useShop()
  const [quoteReturn, { isLoading }] = useQuoteReturnMutation()

  async function continueFrom(step: Step) {
    if (needsQuote(inputOf(store.getState(), multiplier), step)) {
      const body = returnRequest(store.getState().returnFlow)
      if (body) {
        try {
          store.dispatch(quoteReceived(await quoteReturn(body).unwrap()))
        } catch {
          // Unknown stays unknown: the refund-method step fetches and shows it again.
        }
      }
    }
    navigate(nextStep(inputOf(store.getState(), multiplier), step))
  }

  return { continueFrom, isContinuing: isLoading }
}

/** Where a step's Back goes when the browser has no earlier step of this session (navigation.ts). */
export function usePreviousStep(step: Step): string {
  return useAppSelector((state) => previousStep(state.returnFlow, step))
}
