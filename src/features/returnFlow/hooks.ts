import { createSelector } from '@reduxjs/toolkit'
import { skipToken } from '@reduxjs/toolkit/query/react'
import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import type { QuoteRequest } from '../../../contract/api'
import { portalApi } from '../../api/portalApi'
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks'
import { navigateAtOnce } from '../../app/PortalRouter'
import { screenLoaders } from '../../app/screens'
import { useShop } from '../../shop/useShop'
import { previousStep, type Step } from './navigation'
import { selectLaunch, type ReturnFlowState } from './returnFlowSlice'
import { quoteBody, returnRequest } from './returnRequest'
import { stepAfterAtOnce, stepCompleted } from './thunks'
import { stepAt } from './location'

/**
 * Moves on from a step to the route the navigation rules give (stepCompleted, which first asks
 * for a quote when that route hangs on one). Screens dispatch their choice, then call
 * `continueFrom(step)`; `isContinuing` is true while a quote is awaited before the next route is known.
 */
export function useContinue() {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const { gift_card_value_multiplier: multiplier } = useShop()
  const store = useAppStore()
  const [isContinuing, setContinuing] = useState(false)

  async function continueFrom(step: Step) {
    // With nothing to wait for, the next step is rendered with the choice just dispatched, in the
    // same render, and this screen is not drawn again (PortalRouter.tsx): nothing shows it busy.
    const next = stepAfterAtOnce(store.getState().returnFlow, step, multiplier)
    const route = next === null ? null : stepAt(new URL(next, window.location.href).pathname)
    if (next !== null && (route === null || screenLoaders[route].isLoaded()))
      return navigateAtOnce(() => void navigate(next))
    setContinuing(true)
    try {
      await navigate(await dispatch(stepCompleted({ step, multiplier })).unwrap())
    } finally {
      setContinuing(false)
    }
  }

  return { continueFrom, isContinuing }
}

const selectReturnRequest = createSelector(
  [
    (state: { returnFlow: ReturnFlowState }) => state.returnFlow.items,
    (state: { returnFlow: ReturnFlowState }) => state.returnFlow.upsell,
    (state: { returnFlow: ReturnFlowState }) => state.returnFlow.refundMethod,
  ],
  (items, upsell, refundMethod) => returnRequest({ items, upsell, refundMethod }),
)

/**
 * The body of a quote of the current choices (null while an item has no reason), memoised; in a
 * preview it carries the multiplier shown (quoteBody).
 */
export function useQuoteBody(): QuoteRequest | null {
  const request = useAppSelector(selectReturnRequest)
  const launch = useAppSelector(selectLaunch)
  const { gift_card_value_multiplier: multiplier } = useShop()
  return useMemo(() => request && quoteBody(request, launch, multiplier), [request, launch, multiplier])
}

/** Where a step's Back goes when the browser has no earlier step of this session (navigation.ts). */
export function usePreviousStep(step: Step): string {
  return useAppSelector((state) => previousStep(state.returnFlow, step))
}

/** Whether a call with the session's token was refused (session.ts): the screens say so, once for all. */
export function useSessionExpired(): boolean {
  return useAppSelector((state) => state.returnFlow.expired === true)
}

/**
 * The credit a new item may cost: the current items priced as store credit, before any new item.
 * The upsell offer and the exploration ask the same, so one answer serves both.
 */
export function useCreditQuote() {
  const request = useQuoteBody()
  const creditRequest = useMemo(
    () =>
      request
        ? { body: { ...request, upsell_variant_id: null, refund_method: 'store_credit' as const }, current: false }
        : null,
    [request],
  )
  return { creditRequest, quote: portalApi.useQuoteReturnQuery(creditRequest ?? skipToken) }
}
