import { combineReducers, configureStore } from '@reduxjs/toolkit'
import {
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  PURGE,
  REGISTER,
  REHYDRATE,
  type PersistConfig,
  type PersistedState,
} from 'redux-persist'
import { portalApi } from '../api/portalApi'
import type * as Restore from '../features/returnFlow/restore'
import { returnFlowSlice, type ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { sessionExpiry } from '../features/returnFlow/session'
import { subdomainFromHost } from '../../contract/subdomain'
import { afterPaintStorage } from './afterPaintStorage'
import { devToolsOptions } from './devTools'
import { env } from './env'

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

/** Bump when the persisted shape changes; restoreReturnFlow migrates or discards older states. */
export const PERSIST_VERSION = 1

/*
 * Where a portal keeps its flow in sessionStorage: one key per portal (the shop's subdomain).
 * Portals that share an origin (an IP address, a host without a subdomain, a changed
 * defaultSubdomain) never read each other's session: another shop's order never shows here.
 */
const flowKey = (portal: string) => `rebound:returnFlow:${portal}`

/** The sessionStorage key of a portal's flow, with redux-persist's prefix. */
export const persistedFlowKey = (portal: string) => `persist:${flowKey(portal)}`

/** The portal this page is: the same subdomain the configuration is fetched for. */
const currentPortal = () => subdomainFromHost(window.location.hostname, env.defaultSubdomain)

const returnFlowPersistConfig = (portal: string): PersistConfig<ReturnFlowState> => ({
  key: flowKey(portal),
  // Written after the next frame (afterPaintStorage.ts), which serializes what redux-persist hands it.
  storage: afterPaintStorage(),
  serialize: false,
  version: PERSIST_VERSION,
  // Runs on every rehydration, whatever version was stored: what sessionStorage holds is untrusted.
  // The checks are a chunk of their own, fetched only when there is a session to restore: a
  // shopper who opens the portal afresh never downloads them.
  migrate: async (state: PersistedState) => {
    if (state === undefined) return state
    const { restoreReturnFlow } = await loadRestore()
    return { ...restoreReturnFlow(state), _persist: { version: PERSIST_VERSION, rehydrated: true } }
  },
})

/**
 * The restore chunk, tried three times (a dropped request on a reload): were it to fail, the
 * stored session would be replaced by an empty one.
 */
async function loadRestore(attempt = 1): Promise<typeof Restore> {
  try {
    return await import(/* webpackChunkName: "restore" */ '../features/returnFlow/restore')
  } catch (error) {
    if (attempt >= 3) throw error
    await new Promise((resolve) => setTimeout(resolve, 300 * attempt))
    return loadRestore(attempt + 1)
  }
}

const rootReducerFor = (portal: string) =>
  combineReducers({
    [returnFlowSlice.reducerPath]: persistReducer(returnFlowPersistConfig(portal), returnFlowSlice.reducer),
    [portalApi.reducerPath]: portalApi.reducer,
  })

export type RootState = ReturnType<ReturnType<typeof rootReducerFor>>

/** Builds the store of `portal` (this page's by default); tests build the same one with a preloaded flow. */
export function makeStore(preloaded?: { returnFlow?: ReturnFlowState }, portal = currentPortal()) {
  return configureStore({
    reducer: rootReducerFor(portal),
    preloadedState: preloaded as Partial<RootState> | undefined,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(portalApi.middleware, sessionExpiry),
    devTools: devToolsOptions(process.env.NODE_ENV === 'production', window.location.search, safeSessionStorage()),
  })
}

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']
