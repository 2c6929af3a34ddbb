/** Runtime hosts of this deployment, as public/env.js sets them (window.PORTAL_ENV); no DOM here, so the server reads a build's env.js with it too. */
export interface PortalEnv {
  configUrl: string
  apiUrl: string
  defaultSubdomain: string
}

/** What env.js sets: anything, until readEnv has checked it. */
export type RawPortalEnv = Partial<Record<keyof PortalEnv, unknown>> | undefined

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
export function readEnv(source: RawPortalEnv): PortalEnv {
  const raw = source && typeof source === 'object' ? source : {}
  const subdomain =
    typeof raw.defaultSubdomain === 'string' && /^[a-z0-9-]{1,63}$/i.test(raw.defaultSubdomain)
      ? raw.defaultSubdomain.toLowerCase()
      : DEFAULTS.defaultSubdomain
  return {
    configUrl: baseUrl(raw.configUrl, 'configUrl'),
    apiUrl: baseUrl(raw.apiUrl, 'apiUrl'),
    defaultSubdomain: subdomain,
  }
}
