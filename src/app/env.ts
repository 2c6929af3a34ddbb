/** Runtime hosts of this deployment, read from window.PORTAL_ENV (public/env.js). */
export interface PortalEnv {
  configUrl: string
  apiUrl: string
  defaultSubdomain: string
}

declare global {
  interface Window {
    PORTAL_ENV?: Partial<Record<keyof PortalEnv, unknown>>
  }
}

const DEFAULTS: PortalEnv = { configUrl: '', apiUrl: '', defaultSubdomain: 'demo' }

/** An http(s) base URL without its trailing slash, or '' for the page's own origin. */
function baseUrl(value: unknown, name: string): string {
  if (value === undefined || value === '') return ''
  if (typeof value === 'string') {
    try {
      const url = new URL(value)
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href.replace(/\/+$/, '')
    } catch {
      // reported below
    }
  }
  console.warn(`env.js: ${name} must be an http(s) URL; using this page's origin instead`)
  return ''
}

/** Reads and checks window.PORTAL_ENV; anything malformed falls back to a safe default. */
export function readEnv(source: Window['PORTAL_ENV'] = typeof window === 'undefined' ? undefined : window.PORTAL_ENV): PortalEnv {
  const raw = source && typeof source === 'object' ? source : {}
  const subdomain = typeof raw.defaultSubdomain === 'string' && /^[a-z0-9-]{1,63}$/i.test(raw.defaultSubdomain)
    ? raw.defaultSubdomain.toLowerCase()
    : DEFAULTS.defaultSubdomain
  return {
    configUrl: baseUrl(raw.configUrl, 'configUrl'),
    apiUrl: baseUrl(raw.apiUrl, 'apiUrl'),
    defaultSubdomain: subdomain,
  }
}

export const env: PortalEnv = readEnv()
