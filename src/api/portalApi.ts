import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'

/** Fetched data stays fresh for 24 hours (portal-spec.md §9). */
export const DAY_IN_SECONDS = 24 * 60 * 60

/**
 * The one API slice of the portal. Endpoints build absolute URLs from env (config host, API
 * host), so one slice serves both hosts; endpoints are injected per resource.
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: fetchBaseQuery({ timeout: 20_000 }),
  keepUnusedDataFor: DAY_IN_SECONDS,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  endpoints: () => ({}),
})

/** An absolute URL on a configured host ('' means this page's origin). */
export function hostUrl(base: string, path: string): string {
  return `${base || window.location.origin}${path}`
}
