import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import type { FastifyRequest } from 'fastify'
import { readEnv, type PortalEnv, type RawPortalEnv } from '../../../src/app/readEnv'
import { launchFromSearch } from '../../../src/shop/launch'
import { configId, subdomainFromHost } from '../../../src/shop/subdomain'
import type { PortalContext } from '../context'
import { resolvePortalConfig } from './config'

/** The build's env.js as the portal reads it; null when it cannot be read (no hints then). */
async function builtEnv(root: string): Promise<PortalEnv | null> {
  try {
    const code = await readFile(join(root, 'env.js'), 'utf8')
    const sandbox: { window: { PORTAL_ENV?: unknown } } = { window: {} }
    runInNewContext(code, sandbox, { timeout: 50 })
    return readEnv(sandbox.window.PORTAL_ENV as RawPortalEnv)
  } catch {
    return null
  }
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A logo the page may show (CSP: this origin or https), as a URL to preload; null otherwise. */
function preloadableImage(src: unknown): string | null {
  if (typeof src !== 'string' || src.length > 2048) return null
  if (src.startsWith('/') && !src.startsWith('//')) return src
  try {
    return new URL(src).protocol === 'https:' ? src : null
  } catch {
    return null
  }
}

/**
 * What the start screen's first paint waits for, named in its HTML so the browser asks at once
 * instead of after the portal's JavaScript has arrived: the shop's configuration (the request the
 * portal makes, same URL, so it takes this answer) and its logo, the largest paint. Only where the
 * portal will ask exactly that: the start screen at `/`, no preview override (it may show another
 * logo), env.js pointing the configuration at this server, a shop this server knows.
 */
export async function firstPaintHints(request: FastifyRequest, context: PortalContext, root: string): Promise<string> {
  const url = new URL(request.url, 'http://portal.invalid')
  if (url.pathname !== '/') return ''
  const launch = launchFromSearch(url.searchParams)
  if (launch.configOverride !== null) return ''
  const env = await builtEnv(root)
  if (!env || env.configUrl !== '') return ''
  const id = configId(subdomainFromHost(request.hostname, env.defaultSubdomain), launch.lang)
  // Hints are a bonus: without the database the page still goes out, as built.
  const config = await resolvePortalConfig(context, id).catch((error: unknown) => {
    request.log.warn({ err: error }, 'first-paint hints left out: the shop could not be read')
    return null
  })
  if (!config) return ''
  const hints = [`<link rel="preload" href="/portal-registration/config/${encodeURIComponent(id)}" as="fetch" crossorigin="anonymous">`]
  const logo = preloadableImage(config.logo_src)
  if (logo) hints.push(`<link rel="preload" href="${escapeAttribute(logo)}" as="image" fetchpriority="high">`)
  return hints.join('')
}
