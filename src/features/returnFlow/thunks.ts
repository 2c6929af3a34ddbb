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
 * The route after `step` when the navigation rules can tell it from the flow as it is, with no
 * quote to ask for first (stepCompleted); null when the route hangs on a quote.
 */
export function stepAfterAtOnce(
  flow: RootState['returnFlow'],
  step: Step,
  multiplier: number | null | undefined,
): string | null {
  const input = { flow, multiplier }
  return returnRequest(flow) && needsQuote(input, step) ? null : nextStep(input, step)
}

/**
 * A step is done (the screen dispatched its choice first): answers the route the navigation rules
 * give next. When that route hangs on a refund value not known yet, the server is asked for a
 * quote first, which the flow keeps (returnFlowSlice.ts); when it cannot answer, the value stays
 * unknown, which the rules send to the refund-method step, where it is asked for and shown again.
 */
export const stepCompleted = createFlowThunk(
  'returnFlow/stepCompleted',
  async ({ step, multiplier }: { step: Step; multiplier: number | null | undefined }, { getState, dispatch }) => {
    const input = () => ({ flow: getState().returnFlow, multiplier })
    const body = returnRequest(getState().returnFlow)
    if (body && needsQuote(input(), step)) {
      // Asked again even when these choices were priced before: the flow keeps a quote as it arrives.
      await dispatch(
        portalApi.endpoints.quoteReturn.initiate(
          { body: quoteBody(body, getState().returnFlow.launch, multiplier), current: true },
          { subscribe: false, forceRefetch: true },
        ),
      )
    }
    return nextStep(input(), step)
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
