import { isRejectedWithValue, type Middleware } from '@reduxjs/toolkit'
import { PUBLIC_ENDPOINTS } from '../../api/portalApi'
import { sessionExpired } from './returnFlowSlice'

/**
 * A 401, handled once for every call: a call of the portal's API (its thunks name their endpoint)
 * that carried the session's token and was refused expires the session (sessionExpired). The
 * screens read that from the store.
 */
export const sessionExpiry: Middleware =
  ({ dispatch }) =>
  (next) =>
  (action) => {
    const result = next(action)
    if (isRejectedWithValue(action)) {
      const endpoint = (action.meta.arg as { endpointName?: string } | undefined)?.endpointName
      const status = (action.payload as { status?: unknown } | undefined)?.status
      if (status === 401 && endpoint !== undefined && !PUBLIC_ENDPOINTS.has(endpoint)) dispatch(sessionExpired())
    }
    return result
  }
