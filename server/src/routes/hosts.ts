/**
 * The hosts this install serves, and each shop's portal address (docs/decisions/0052-portal-origin.md):
 * links in e-mails come from PORTAL_ORIGIN, never from a request's Host, and a request for a host
 * the install does not serve is refused before any route sees it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { subdomainFromHost } from '../../../contract/subdomain'
import { Refusal } from '../services/refusal'
import { readSettings } from '../settings'

declare module 'fastify' {
  interface FastifyInstance {
    /** the shop's portal origin from PORTAL_ORIGIN: where its shoppers' e-mails link */
    portalOrigin(shop: string): string
  }
}

/** PORTAL_ORIGIN as shipped, and the port `{PORT}` means until the server listens. */
const SHIPPED = readSettings({})

const MISDIRECTED = { error: 'misdirected', message: 'This server does not serve this address.' }

/** An address, or `localhost` itself: a call without a name (a probe, a test, a benchmark) names no shop. */
const UNNAMED = /^(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/

/**
 * A shop's origin from the pattern: `{shop}` its subdomain, `{PORT}` the given port.
 * @example originOf('http://{shop}.localhost:{PORT}', 'demo', 8080) // 'http://demo.localhost:8080'
 */
export function originOf(pattern: string, shop: string, port: number): string {
  return pattern.replaceAll('{shop}', shop).replaceAll('{PORT}', String(port))
}

// The host names' part after the shop, per pattern (an install has one): read at every request.
const suffixes = new Map<string, string>()
function suffixOf(pattern: string): string {
  let suffix = suffixes.get(pattern)
  if (suffix === undefined)
    suffixes.set(pattern, (suffix = new URL(originOf(pattern, 'shop', 1)).hostname.replace(/^shop/, '')))
  return suffix
}

/**
 * Whether a request for `hostname` (its port left off) is served: a host of the pattern whose first
 * label is a shop's subdomain as the portal reads it (contract/subdomain.ts), or an address.
 * @example servedHost('http://{shop}.localhost:{PORT}', 'evil.attacker.example') // false
 */
export function servedHost(pattern: string, hostname: string): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '')
  if (UNNAMED.test(host)) return true
  const suffix = suffixOf(pattern)
  if (!host.endsWith(suffix)) return false
  const shop = host.slice(0, -suffix.length)
  return shop !== '' && subdomainFromHost(host, '') === shop
}

/**
 * Decorates the app with `portalOrigin` and refuses, with a 421 Misdirected Request, every request
 * but /health for a host it does not serve. `pattern` is PORTAL_ORIGIN (docs/settings.md).
 */
export function servedHosts(app: FastifyInstance, pattern = SHIPPED.PORTAL_ORIGIN): void {
  const port = () => {
    const address = app.server.address()
    return typeof address === 'object' && address ? address.port : SHIPPED.PORT
  }
  app.decorate('portalOrigin', (shop: string) => originOf(pattern, shop, port()))
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    // A load balancer's probe may name the host however it likes.
    if (request.url === '/health' || servedHost(pattern, request.hostname)) return done()
    done(new Refusal(421, MISDIRECTED, { 'cache-control': 'no-store' }))
  })
}
