import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'
import { env } from '../app/env'

/** Fetched data stays fresh for 24 hours (portal-spec.md §9). */
export const DAY_IN_SECONDS = 24 * 60 * 60

/**
 * How long the portal waits for an answer before it gives up and offers a retry. A phone on a
 * weak mobile connection can take several seconds for a call the server answers at once, so
 * this is generous; past it, a shopper is better served by a message and a button than by a
 * spinner that never ends (a connection that went away mid-call never answers at all).
 */
export const API_TIMEOUT_MS = 20_000

/** Calls made with the verify token; configuration and verify go without it. */
const AUTHORISED_ENDPOINTS = new Set([
  'quoteReturn',
  'submitReturn',
  'getCatalogue',
  'getReturnInstructions',
  'createSupportToken',
  'uploadPhoto',
])

interface FlowState {
  returnFlow?: { order?: { token?: unknown } | null; launch?: { lang?: unknown } }
}

/**
 * The one API slice of the portal. Endpoints build absolute URLs from env (config host, API
 * host), so one slice serves both hosts; endpoints are injected per resource.
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: fetchBaseQuery({
    timeout: API_TIMEOUT_MS,
    prepareHeaders: (headers, { getState, endpoint }) => {
      const flow = (getState() as FlowState).returnFlow
      const token = flow?.order?.token
      if (AUTHORISED_ENDPOINTS.has(endpoint) && typeof token === 'string')
        headers.set('authorization', `Bearer ${token}`)
      // The shopper's language (?lang=), so the API names reasons in it; the bodies stay as specified.
      const lang = flow?.launch?.lang
      if (typeof lang === 'string' && /^[a-z]{2}(?:-[a-z0-9]{2,8})?$/i.test(lang))
        headers.set('accept-language', lang.toLowerCase())
      return headers
    },
  }),
  keepUnusedDataFor: DAY_IN_SECONDS,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  endpoints: () => ({}),
})

/** An absolute URL on a configured host ('' means this page's origin). */
export function hostUrl(base: string, path: string): string {
  return `${base || window.location.origin}${path}`
}

/** An absolute URL on the API's host. */
export const apiUrl = (path: string) => hostUrl(env.apiUrl, path)
