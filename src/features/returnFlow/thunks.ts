import { createAsyncThunk, type SerializedError } from '@reduxjs/toolkit'
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import { portalApi } from '../../api/portalApi'
import { returnsApi } from '../../api/returnsEndpoints'
import type { AppDispatch, RootState } from '../../app/store'
import { needsQuote, nextStep, type Step } from './navigation'
import { returnSubmitted, submitStarted } from './returnFlowSlice'
import { quoteBody, returnRequest } from './returnRequest'

const createFlowThunk = createAsyncThunk.withTypes<{
  state: RootState
  dispatch: AppDispatch
  /** how the API refused (its status and body), kept whole for the screen to say what to do */
  rejectValue: FetchBaseQueryError | SerializedError
}>()

/**
 * The quote of the current choices (in a preview, with the bonus shown: quoteBody) as the API's
 * cache holds it, priced and fresh (docs/rules.md §13.1), whoever asked for it: this step before
 * it was left (useQuoteAhead), the step that moved on before, or the flow; null when there is none
 * yet, or while it is still on its way.
 */
function pricedNow(state: RootState, multiplier: number | null | undefined) {
  const flow = state.returnFlow
  const body = returnRequest(flow)
  if (!body) return null
  const entry = portalApi.endpoints.quoteReturn.select({
    body: quoteBody(body, flow.launch, multiplier),
    current: true,
  })(state)
  return entry.isSuccess ? entry.data : null
}

/** The navigation rules' input, with the refund value of a quote of these very choices when the flow has none. */
function navigationInput(
  state: RootState,
  multiplier: number | null | undefined,
  priced = pricedNow(state, multiplier),
) {
  const flow = state.returnFlow
  return { flow: flow.quote === null && priced ? { ...flow, quote: priced } : flow, multiplier }
}

/**
 * The route after `step` when the navigation rules can tell it from the flow as it is, with no
 * quote to wait for first (stepCompleted): none needed, or one of these very choices already
 * priced (useQuoteAhead asks for it while the shopper is on the step); null when the route hangs
 * on a quote still to come.
 */
export function stepAfterAtOnce(state: RootState, step: Step, multiplier: number | null | undefined): string | null {
  const input = navigationInput(state, multiplier)
  return returnRequest(input.flow) && needsQuote(input, step) ? null : nextStep(input, step)
}

/**
 * A step is done (the screen dispatched its choice first): answers the route the navigation rules
 * give next. When that route hangs on a refund value not known yet, the server is asked for a
 * quote first, or the one already asked for these choices (useQuoteAhead) is awaited; the flow
 * keeps a quote it asked for as it arrives (returnFlowSlice.ts). When the server cannot answer,
 * the value stays unknown, which the rules send to the refund-method step, where it is asked for
 * and shown again.
 */
export const stepCompleted = createFlowThunk(
  'returnFlow/stepCompleted',
  async ({ step, multiplier }: { step: Step; multiplier: number | null | undefined }, { getState, dispatch }) => {
    const body = returnRequest(getState().returnFlow)
    if (body && needsQuote(navigationInput(getState(), multiplier), step)) {
      // One request for these choices: one in flight is awaited, a failed one is asked again.
      const answer = await dispatch(
        portalApi.endpoints.quoteReturn.initiate(
          { body: quoteBody(body, getState().returnFlow.launch, multiplier), current: true },
          { subscribe: false },
        ),
      )
      return nextStep(navigationInput(getState(), multiplier, answer.isSuccess ? answer.data : null), step)
    }
    return nextStep(navigationInput(getState(), multiplier), step)
  },
)

/** A random key for one submit; randomUUID needs a secure context, so fall back to random bytes. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * Submits the current choices. One key per set of choices, kept until they change: every retry
 * sends the same one, so the server makes one return of them. A support agent's replay looks,
 * never submits (the API refuses its token too).
 */
export const submitReturn = createFlowThunk(
  'returnFlow/submitReturn',
  async (_: void, { getState, dispatch, rejectWithValue }) => {
    if (!getState().returnFlow.idempotencyKey) dispatch(submitStarted({ idempotencyKey: newIdempotencyKey() }))
    const { idempotencyKey } = getState().returnFlow
    const body = returnRequest(getState().returnFlow)
    if (!idempotencyKey || !body) throw new Error('nothing to submit')
    // Not tracked in the API's state: the flow keeps the return (returnSubmitted); a refusal is
    // passed on as it came (a 422 names the choices that no longer hold).
    const result = await dispatch(
      returnsApi.endpoints.submitReturn.initiate({ body, idempotencyKey }, { track: false }),
    )
    if (result.error) return rejectWithValue(result.error)
    dispatch(returnSubmitted(result.data))
    return result.data
  },
  { condition: (_, { getState }) => !getState().returnFlow.readOnly },
)
