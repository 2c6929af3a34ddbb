import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'
import { env } from '../app/env'
import type { QuoteRequest as QuoteBody, ReturnOrder } from '../../contract/api'

/** Fetched data stays fresh for 24 hours (docs/rules.md §13.1). */
export const DAY_IN_SECONDS = 24 * 60 * 60

/**
 * How long the portal waits for an answer before it gives up and offers a retry. A phone on a
 * weak mobile connection can take several seconds for a call the server answers at once, so
 * this is generous; past it, a shopper is better served by a message and a button than by a
 * spinner that never ends (a connection that went away mid-call never answers at all).
 */
export const API_TIMEOUT_MS = 20_000

/**
 * The calls made without the verify token: the configuration, the verify itself, and a return's
 * status from its signed link. Every other call carries the token (a new endpoint too), and a 401
 * from it means the session expired (features/returnFlow/session.ts).
 */
export const PUBLIC_ENDPOINTS: ReadonlySet<string> = new Set(['getConfig', 'verifyOrder', 'getReturnStatus'])

/** An absolute URL on a configured host ('' means this page's origin). */
export function hostUrl(base: string, path: string): string {
  return `${base || window.location.origin}${path}`
}

/** An absolute URL on the API's host. */
export const apiUrl = (path: string) => hostUrl(env.apiUrl, path)

interface FlowState {
  returnFlow?: { order?: { token?: unknown } | null; launch?: { lang?: unknown } }
}

/**
 * The one API slice of the portal. Endpoints build absolute URLs from env (config host, API
 * host), so one slice serves both hosts; endpoints are injected per resource, but for the quote,
 * whose answer the return flow's slice keeps (returnFlowSlice.ts, in the start screen's bundle).
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: fetchBaseQuery({
    timeout: API_TIMEOUT_MS,
    prepareHeaders: (headers, { getState, endpoint }) => {
      const flow = (getState() as FlowState).returnFlow
      const token = flow?.order?.token
      if (typeof token === 'string' && !PUBLIC_ENDPOINTS.has(endpoint)) headers.set('authorization', `Bearer ${token}`)
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
  endpoints: (build) => ({
    /**
     * The server's price of a set of choices: a query, sent as a POST with the choices as its
     * body, so that the same choices are priced once whoever asks (the step that moves on, then
     * the screen that shows the amounts).
     */
    quoteReturn: build.query<ReturnOrder, QuoteRequest>({
      query: ({ body }) => ({ url: apiUrl('/portal-registration/returns/quote'), method: 'POST', body }),
      // One cache entry per body, whoever asks for it.
      serializeQueryArgs: ({ queryArgs }) => queryArgs.body,
    }),
  }),
})

/** Choices to price, and whether they are the flow's current ones (then the flow keeps the quote). */
export interface QuoteRequest {
  body: QuoteBody
  current: boolean
}
