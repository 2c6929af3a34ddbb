import { combineReducers, configureStore } from '@reduxjs/toolkit'
import { FLUSH, PAUSE, PERSIST, persistReducer, PURGE, REGISTER, REHYDRATE, type PersistConfig, type PersistedState } from 'redux-persist'
import sessionStorage from 'redux-persist/lib/storage/session'
import { portalApi } from '../api/portalApi'
import { restoreReturnFlow } from '../features/returnFlow/restore'
import { returnFlowSlice, type ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { devToolsOptions } from './devTools'

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

/** Bump when the persisted shape changes; restoreReturnFlow migrates or discards older states. */
export const PERSIST_VERSION = 1

const returnFlowPersistConfig: PersistConfig<ReturnFlowState> = {
  key: 'rebound:returnFlow',
  storage: sessionStorage,
  version: PERSIST_VERSION,
  // Runs on every rehydration, whatever version was stored: what sessionStorage holds is untrusted.
  migrate: async (state: PersistedState) => {
    if (state === undefined) return state
    return { ...restoreReturnFlow(state), _persist: { version: PERSIST_VERSION, rehydrated: true } }
  },
}

const rootReducer = combineReducers({
  [returnFlowSlice.reducerPath]: persistReducer(returnFlowPersistConfig, returnFlowSlice.reducer),
  [portalApi.reducerPath]: portalApi.reducer,
})

export type RootState = ReturnType<typeof rootReducer>

/** Builds the store; tests build the same one with a preloaded flow. */
export function makeStore(preloaded?: { returnFlow?: ReturnFlowState }) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloaded as Partial<RootState> | undefined,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(portalApi.middleware),
    devTools: devToolsOptions(process.env.NODE_ENV === 'production', window.location.search, safeSessionStorage()),
  })
}

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']
