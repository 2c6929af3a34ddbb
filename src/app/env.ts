import { readEnv, type PortalEnv, type RawPortalEnv } from '../../contract/readEnv'

export { readEnv, type PortalEnv, type RawPortalEnv }

declare global {
  interface Window {
    PORTAL_ENV?: RawPortalEnv
  }
}

/** This page's hosts (public/env.js), checked once. */
export const env: PortalEnv = readEnv(typeof window === 'undefined' ? undefined : window.PORTAL_ENV)
