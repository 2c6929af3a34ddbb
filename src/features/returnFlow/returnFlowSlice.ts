import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { VerifiedOrder } from '../../api/contract'

/** What the start screen was opened with; later screens keep it (language, Test Mode, Preview). */
export interface Launch {
  lang: string | null
  testMode: boolean
  /** the raw `config` query value, decoded and checked where it is used */
  configOverride: string | null
}

/** The shopper's session. Persisted to sessionStorage: only what the flow needs, no e-mail. */
export interface ReturnFlowState {
  launch: Launch
  order: VerifiedOrder | null
}

export const initialLaunch: Launch = { lang: null, testMode: false, configOverride: null }

export const initialState: ReturnFlowState = { launch: initialLaunch, order: null }

export const returnFlowSlice = createSlice({
  name: 'returnFlow',
  initialState,
  reducers: {
    /** The start screen was opened: a new session begins and any stored return order is cleared. */
    portalOpened(_state, action: PayloadAction<Launch>) {
      return { ...initialState, launch: action.payload }
    },
    /** Verification succeeded: the order and its token are the session from now on. */
    orderVerified(state, action: PayloadAction<VerifiedOrder>) {
      state.order = action.payload
    },
  },
  selectors: {
    selectLaunch: (state) => state.launch,
    selectOrder: (state) => state.order,
    selectHasOrder: (state) => state.order !== null,
  },
})

export const { portalOpened, orderVerified } = returnFlowSlice.actions
export const { selectLaunch, selectOrder, selectHasOrder } = returnFlowSlice.selectors
