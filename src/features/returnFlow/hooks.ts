import { createSelector } from '@reduxjs/toolkit'
import { skipToken } from '@reduxjs/toolkit/query/react'
import { useEffect, useMemo, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import type { QuoteRequest } from '../../../contract/api'
import { portalApi, type QuoteRequest as QuoteArgs } from '../../api/portalApi'
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks'
import { navigateAtOnce } from '../../app/PortalRouter'
import { screenLoaders } from '../../app/screens'
import { afterFrame } from '../../components/afterFrame'
import { useShop } from '../../shop/useShop'
import { needsQuote, previousStep, type Step } from './navigation'
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

  /** Whether the screen of `next` renders without loading first. */
  const isLoaded = (next: string) => {
    const route = stepAt(new URL(next, window.location.href).pathname)
    return route === null || screenLoaders[route].isLoaded()
  }

  async function continueFrom(step: Step) {
    // With nothing to wait for, the next step is rendered with the choice just dispatched, in the
    // same render, and this screen is not drawn again (PortalRouter.tsx): nothing shows it busy.
    const next = stepAfterAtOnce(store.getState(), step, multiplier)
    if (next !== null && isLoaded(next)) return navigateAtOnce(() => void navigate(next))
    setContinuing(true)
    try {
      const after = await dispatch(stepCompleted({ step, multiplier })).unwrap()
      // The answer in, a loaded screen is rendered in one piece, not in a transition's slices with
      // this step drawn again between them (docs/decisions/0098-server-bound-steps.md).
      if (isLoaded(after)) navigateAtOnce(() => void navigate(after))
      else await navigate(after)
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

/**
 * Asks for the quote of the current choices while the shopper is still on `step`, when leaving it
 * with them would wait for one (needsQuote: the refund value decides the next step): Continue then
 * moves on at once (stepAfterAtOnce), or waits for the answer already on its way (stepCompleted),
 * rather than asking only then. Asked after the frame that shows the choice, as the screen's (the
 * flow keeps only a quote asked for at Continue): an answer for choices changed meanwhile is
 * never taken for the current ones, as the API's cache keeps each under its own choices.
 */
export function useQuoteAhead(step: Step) {
  const dispatch = useAppDispatch()
  const body = useQuoteBody()
  const { gift_card_value_multiplier: multiplier } = useShop()
  const wanted = useAppSelector((state) => body !== null && needsQuote({ flow: state.returnFlow, multiplier }, step))
  useEffect(() => {
    if (!wanted || !body) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => void dispatch(portalApi.util.prefetch('quoteReturn', { body, current: false }, {})))
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [dispatch, wanted, body])
}

/**
 * Whether the frame that first draws the calling screen is drawn (afterFrame), and a function that
 * takes it as drawn at once. A step is rendered in the task of the click that moved on (decision
 * 0095), and its effects run there too, before that frame: what a step asks the server for waits
 * for this instead.
 */
export function useFirstFrameDrawn(): [drawn: boolean, drawNow: () => void] {
  const [drawn, setDrawn] = useState(false)
  useEffect(() => afterFrame(() => setDrawn(true)), [])
  return [drawn, () => setDrawn(true)]
}

/**
 * A quote as `useQuoteReturnQuery` gives it, but asked for after the screen's first frame
 * (useFirstFrameDrawn): what the API's cache holds for `request` is shown at once, and the request
 * (its `fetch`, the store's updates and the renders they cause) no longer runs in the click's task
 * before the step is painted (docs/decisions/0101-requests-after-frame.md).
 */
export function useQuoteAfterFirstFrame(
  request: QuoteArgs | typeof skipToken,
  options?: { refetchOnMountOrArgChange?: boolean },
) {
  const dispatch = useAppDispatch()
  const [drawn, drawNow] = useFirstFrameDrawn()
  const state = portalApi.endpoints.quoteReturn.useQueryState(request)
  portalApi.endpoints.quoteReturn.useQuerySubscription(drawn ? request : skipToken, options)
  // Asked again (a retry of a failed quote, shown from the cache at once): asked now, as RTK
  // Query's refetch asks (the same entry, forced), but not through the subscription's own
  // refetch, which throws until the effect that begins the subscription has run; a click can come
  // before that frame, or between the render after it and its effect. The subscription then joins
  // the request on its way.
  const refetch = () => {
    drawNow()
    if (request !== skipToken)
      void dispatch(portalApi.endpoints.quoteReturn.initiate(request, { subscribe: false, forceRefetch: true }))
  }
  return { ...state, refetch }
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
  return { creditRequest, quote: useQuoteAfterFirstFrame(creditRequest ?? skipToken) }
}
