import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyRequest } from 'fastify'
import { readEnv, type PortalEnv } from '../../../contract/readEnv'
import { launchFromSearch } from '../../../contract/launch'
import { safeUrl } from '../../../contract/safeUrl'
import { configId, subdomainFromHost } from '../../../contract/subdomain'
import type { PortalContext } from '../context'
import { isConfigId, resolvePortalConfig } from './config'

/** The longest the start page waits for its hints (a shop not yet read from the database). */
const HINTS_WAIT_MS = 100

/** A string setting of env.js's object literal, as written: `configUrl: ''`. */
const setting = (code: string, name: string) =>
  new RegExp(`\\b${name}\\s*:\\s*(['"\`])([^'"\`\\n]*)\\1`).exec(code)?.[2]

/**
 * The build's env.js as the portal reads it, or null when it is not the plain object literal the
 * build ships (then no hints). Read as text, never run: it is a browser's script, not the API's.
 */
async function builtEnv(root: string): Promise<PortalEnv | null> {
  const code = await readFile(join(root, 'env.js'), 'utf8').catch(() => null)
  const configUrl = code === null ? undefined : setting(code, 'configUrl')
  if (code === null || configUrl === undefined) return null
  return readEnv({ configUrl, apiUrl: setting(code, 'apiUrl'), defaultSubdomain: setting(code, 'defaultSubdomain') })
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const PAGE_ORIGIN = 'http://portal.invalid'

/**
 * The logo as the page will ask for it (the portal's own safeUrl), if the CSP lets the page show
 * it: this origin (kept a path) or https. Null for anything else.
 */
function preloadableImage(src: unknown): string | null {
  const url = typeof src === 'string' ? safeUrl(src, `${PAGE_ORIGIN}/`) : null
  if (url === null) return null
  if (url.startsWith(`${PAGE_ORIGIN}/`)) return url.slice(PAGE_ORIGIN.length)
  return url.startsWith('https:') ? url : null
}

async function hintsFor(request: FastifyRequest, context: PortalContext, root: string): Promise<string> {
  const launch = launchFromSearch(new URL(request.url, PAGE_ORIGIN).searchParams)
  if (launch.configOverride !== null) return ''
  const env = await builtEnv(root)
  if (!env || env.configUrl !== '') return ''
  const id = configId(subdomainFromHost(request.hostname, env.defaultSubdomain), launch.lang)
  if (!isConfigId(id)) return ''
  const config = await resolvePortalConfig(context, id)
  if (!config) return ''
  const hints = [
    `<link rel="preload" href="/portal-registration/config/${encodeURIComponent(id)}" as="fetch" crossorigin="anonymous">`,
  ]
  const logo = preloadableImage(config.logo_src)
  if (logo) hints.push(`<link rel="preload" href="${escapeAttribute(logo)}" as="image" fetchpriority="high">`)
  return hints.join('')
}

/**
 * What the start screen's first paint waits for, named in its HTML so the browser asks at once
 * instead of after the portal's JavaScript has arrived: the shop's configuration (the request the
 * portal makes, same URL, so it takes this answer) and its logo, the largest paint. Only where the
 * portal will ask exactly that: the start screen at `/` (its only caller), no preview override
 * (it may show another logo), env.js pointing the configuration at this server, a shop this server
 * knows. Hints are a bonus: a database that fails or is slow leaves them out, not the page.
 */
export async function firstPaintHints(request: FastifyRequest, context: PortalContext, root: string): Promise<string> {
  const hints = hintsFor(request, context, root).catch((error: unknown) => {
    request.log.warn({ err: error }, 'first-paint hints left out: the shop could not be read')
    return ''
  })
  return Promise.race([hints, sleep(HINTS_WAIT_MS, '')])
}
