import { createSlice, original, type PayloadAction } from '@reduxjs/toolkit'
import type { RefundMethod, ReturnOrder, VerifiedOrder } from '../../../contract/api'
import type { Launch, ReturnFlowState as StoredFlow } from '../../../contract/returnFlow'
import { portalApi } from '../../api/portalApi'

/**
 * The flow's state and its parts, derived from their schemas (contract/returnFlow.ts), which
 * restoring a stored session checks against. Types only: the schema library is not in the start
 * bundle.
 */
export type { ChosenItem, ExchangeChoice, Launch, UpsellChoice } from '../../../contract/returnFlow'

/** The stored flow, and whether a call with the order's token was refused (session.ts): not restored, a reload asks again. */
export type ReturnFlowState = StoredFlow & { expired?: boolean }

export const initialLaunch: Launch = { lang: null, testMode: false, configOverride: null }

export const initialState: ReturnFlowState = {
  launch: initialLaunch,
  order: null,
  items: [],
  upsell: null,
  refundMethod: null,
  quote: null,
  idempotencyKey: null,
  submitted: null,
  readOnly: false,
}

/** Any change of a choice makes the stored quote stale and a new submit a new return. */
function choicesChanged(state: ReturnFlowState) {
  state.quote = null
  state.idempotencyKey = null
  state.submitted = null
}

const findItem = (state: ReturnFlowState, lineItemId: string) =>
  state.items.find((item) => item.lineItemId === lineItemId)

export const returnFlowSlice = createSlice({
  name: 'returnFlow',
  initialState,
  reducers: {
    /** The start screen was opened: a new session begins and any stored return order is cleared. */
    portalOpened(_state, action: PayloadAction<Launch>) {
      return { ...initialState, launch: action.payload }
    },
    /**
     * Support staff opened a shopper's session from a support code (decoded and checked): the
     * shopper's state, read-only, with no submit key of the shopper's.
     */
    supportSessionOpened(_state, action: PayloadAction<ReturnFlowState>) {
      return { ...action.payload, idempotencyKey: null, readOnly: true }
    },
    /** Verification succeeded: the order and its token are the session from now on. */
    orderVerified(state, action: PayloadAction<VerifiedOrder>) {
      return { ...initialState, launch: state.launch, order: action.payload }
    },
    /** Items and quantities picked on /products. Choices made before for a kept item stay. */
    itemsChosen(state, action: PayloadAction<{ lineItemId: string; quantity: number }[]>) {
      const order = state.order
      if (!order) return
      const wanted = new Map(action.payload.map((choice) => [choice.lineItemId, choice.quantity]))
      // The items as they were, by line, read outside the draft: one lookup per line, not a search
      // through the draft's items (a tick on a 1,000-line order with every line chosen took 95 ms).
      const previous = new Map((original(state)?.items ?? []).map((item) => [item.lineItemId, item]))
      state.items = order.line_items.flatMap((line) => {
        const quantity = Math.floor(wanted.get(line.id) ?? 0)
        if (quantity < 1 || quantity > line.returnable_quantity) return []
        const before = previous.get(line.id)
        return [{ lineItemId: line.id, quantity, reason: before?.reason ?? null, exchange: before?.exchange ?? null }]
      })
      state.upsell = null
      state.refundMethod = null
      choicesChanged(state)
    },
    reasonGiven(
      state,
      action: PayloadAction<{ lineItemId: string; reasonId: string; comment: string; photoIds?: string[] }>,
    ) {
      const item = findItem(state, action.payload.lineItemId)
      if (!item) return
      const { reasonId, comment, photoIds } = action.payload
      item.reason = photoIds && photoIds.length > 0 ? { id: reasonId, comment, photoIds } : { id: reasonId, comment }
      choicesChanged(state)
    },
    /** A photo finished uploading for an item whose reason asks for photos: kept, so a reload restores it. */
    reasonPhotoAdded(state, action: PayloadAction<{ lineItemId: string; photoId: string }>) {
      const reason = findItem(state, action.payload.lineItemId)?.reason
      if (!reason || reason.photoIds?.includes(action.payload.photoId)) return
      reason.photoIds = [...(reason.photoIds ?? []), action.payload.photoId]
      choicesChanged(state)
    },
    /** The shopper took an uploaded photo away again. */
    reasonPhotoRemoved(state, action: PayloadAction<{ lineItemId: string; photoId: string }>) {
      const reason = findItem(state, action.payload.lineItemId)?.reason
      if (!reason?.photoIds?.includes(action.payload.photoId)) return
      const rest = reason.photoIds.filter((id) => id !== action.payload.photoId)
      if (rest.length > 0) reason.photoIds = rest
      else delete reason.photoIds
      choicesChanged(state)
    },
    /** The shopper went to a reason with sub-reasons: the sub-reason chosen before no longer holds. */
    reasonWithdrawn(state, action: PayloadAction<{ lineItemId: string }>) {
      const item = findItem(state, action.payload.lineItemId)
      if (!item || item.reason === null) return
      item.reason = null
      choicesChanged(state)
    },
    exchangeChosen(state, action: PayloadAction<{ lineItemId: string; variantId: string }>) {
      const item = findItem(state, action.payload.lineItemId)
      const line = state.order?.line_items.find((candidate) => candidate.id === action.payload.lineItemId)
      const options = line?.variant_id ? state.order?.exchange_data?.options[line.variant_id] : undefined
      // An exchange for an item not chosen, or for a variant not offered, makes no sense: ignored.
      if (!item || !options?.includes(action.payload.variantId)) return
      item.exchange = { kind: 'exchange', variantId: action.payload.variantId }
      choicesChanged(state)
    },
    /** The shopper preferred a refund to an exchange for this item. */
    refundPreferred(state, action: PayloadAction<{ lineItemId: string }>) {
      const item = findItem(state, action.payload.lineItemId)
      if (!item) return
      item.exchange = { kind: 'refund' }
      choicesChanged(state)
    },
    upsellAccepted(state) {
      if (state.upsell?.kind === 'accepted') return
      state.upsell = { kind: 'accepted', variantId: null }
      choicesChanged(state)
    },
    upsellDeclined(state) {
      state.upsell = { kind: 'declined' }
      choicesChanged(state)
    },
    upsellVariantChosen(state, action: PayloadAction<{ variantId: string | null }>) {
      state.upsell = { kind: 'accepted', variantId: action.payload.variantId }
      choicesChanged(state)
    },
    refundMethodChosen(state, action: PayloadAction<RefundMethod>) {
      state.refundMethod = action.payload
      choicesChanged(state)
    },
    /** The confirm screen is about to submit: the key is kept until the choices change. */
    submitStarted(state, action: PayloadAction<{ idempotencyKey: string }>) {
      if (state.readOnly) return
      state.idempotencyKey ??= action.payload.idempotencyKey
    },
    returnSubmitted(state, action: PayloadAction<ReturnOrder>) {
      state.submitted = action.payload
    },
    /** The order's token was refused. A new session (the start screen, a verify, a support code) starts without this. */
    sessionExpired(state) {
      state.expired = true
    },
  },
  extraReducers: (builder) => {
    // The server priced the current choices, whoever asked: the flow keeps that quote. A quote of
    // other choices (the exploration's credit, the refund method's amounts once a method is
    // chosen) is the screen's, not the flow's.
    builder.addMatcher(portalApi.endpoints.quoteReturn.matchFulfilled, (state, { payload, meta }) => {
      if (meta.arg.originalArgs.current) state.quote = payload
    })
  },
})

export const {
  portalOpened,
  supportSessionOpened,
  orderVerified,
  itemsChosen,
  reasonGiven,
  reasonPhotoAdded,
  reasonPhotoRemoved,
  reasonWithdrawn,
  exchangeChosen,
  refundPreferred,
  upsellAccepted,
  upsellDeclined,
  upsellVariantChosen,
  refundMethodChosen,
  submitStarted,
  returnSubmitted,
  sessionExpired,
} = returnFlowSlice.actions

type WithFlow = { returnFlow: ReturnFlowState }

export const selectLaunch = (state: WithFlow) => state.returnFlow.launch
export const selectOrder = (state: WithFlow) => state.returnFlow.order
export const selectHasOrder = (state: WithFlow) => state.returnFlow.order !== null
export const selectChosenItems = (state: WithFlow) => state.returnFlow.items
export const selectReadOnly = (state: WithFlow) => state.returnFlow.readOnly
