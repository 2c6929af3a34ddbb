import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyRequest } from 'fastify'
import { readEnv, type PortalEnv } from '../../../contract/readEnv'
import { launchFromSearch } from '../../../contract/launch'
import { paths } from '../../../contract/paths'
import { safeUrl } from '../../../contract/safeUrl'
import { configId, subdomainFromHost } from '../../../contract/subdomain'
import type { PortalContext } from '../context'
import { resolvePortalConfig } from '../services/portalConfig'
import { isConfigId } from './config'

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

/** The shop's configuration and logo, as the portal asks for them with `lang` (see firstPaint), and the logo's URL. */
async function configHints(
  request: FastifyRequest,
  context: PortalContext,
  root: string,
  lang: string | null,
): Promise<{ hints: string[]; logo: string | null }> {
  const none = { hints: [], logo: null }
  const env = await builtEnv(root)
  if (!env || env.configUrl !== '') return none
  const id = configId(subdomainFromHost(request.hostname, env.defaultSubdomain), lang)
  if (!isConfigId(id)) return none
  const config = (await resolvePortalConfig(context, id))?.config
  if (!config) return none
  const hints = [
    `<link rel="preload" href="/portal-registration/config/${encodeURIComponent(id)}" as="fetch" crossorigin="anonymous">`,
  ]
  const logo = preloadableImage(config.logo_src)
  if (logo) hints.push(`<link rel="preload" href="${escapeAttribute(logo)}" as="image" fetchpriority="high">`)
  return { hints, logo }
}

/**
 * The page's first paint, in its HTML before any script has run: the card with the shop's logo
 * where the portal draws it (the same classes and box, ShopLogo.tsx), which the portal's first
 * render replaces. Hidden from assistive technology, which reads the portal's page a moment later;
 * shown on narrow screens only (styles.css `.page--first-paint`).
 */
const firstPaintShell = (logo: string) =>
  '<div class="page page--first-paint" aria-hidden="true"><div class="page__body"><div class="card">' +
  `<div class="card__header"><div class="shop-logo"><img class="shop-logo__image" src="${escapeAttribute(logo)}" alt="" width="220" height="56"></div></div>` +
  '</div></div></div>'

/** The portal's pages after the start screen whose chunk the page loads at once, with the chunk's name. */
const LAZY_PAGES = (Object.keys(paths) as (keyof typeof paths)[])
  .filter((route) => route !== 'start')
  .map((route) => ({
    route,
    // As the router matches: any case, a trailing slash, a parameter is one segment.
    pattern: new RegExp(`^${paths[route].pattern.replace(/:[^/]+/g, '[^/]+')}/?$`, 'i'),
  }))

/** The build's chunk-groups.json (webpack.config.mjs): the scripts of each named lazy chunk. */
async function chunkGroups(root: string): Promise<Record<string, unknown[]>> {
  // A build without it (or a damaged one) names no scripts; the page is served all the same.
  const groups: unknown = await readFile(join(root, 'chunk-groups.json'), 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => null)
  return groups !== null && typeof groups === 'object' ? (groups as Record<string, unknown[]>) : {}
}

/**
 * The scripts a later page runs before its first paint: the session's restore (a step of the
 * flow), the page's own chunk, and the flow's words, in English unless the URL names another
 * language (the session's language is in the browser's sessionStorage, which the server cannot
 * read; a session in another language fetches its own words as before: decision 0029).
 */
async function scriptHints(
  root: string,
  route: keyof typeof paths,
  step: boolean,
  lang: string | null,
): Promise<string[]> {
  const groups = await chunkGroups(root)
  const words = `i18n-flow-${(lang ?? '').toLowerCase().split('-')[0]}`
  const names = [...(step ? ['restore'] : []), route, groups[words] ? words : 'i18n-flow-en']
  const files = new Set(names.flatMap((name) => (Array.isArray(groups[name]) ? groups[name] : [])))
  return [...files]
    .filter((file): file is string => typeof file === 'string' && /^assets\/[\w.-]+\.js$/.test(file))
    .map((file) => `<link rel="preload" href="/${file}" as="script">`)
}

/** What firstPaint writes into a page: hints for its head, and a first paint for its root. */
export interface FirstPaint {
  hints: string
  shell: string
}

async function firstPaintOf(request: FastifyRequest, context: PortalContext, root: string): Promise<FirstPaint> {
  const url = new URL(request.url, PAGE_ORIGIN)
  const page = LAZY_PAGES.find(({ pattern }) => pattern.test(url.pathname))
  // As the portal: a step of the flow runs with the session's launch parameters (the server
  // guesses none: decision 0029), any other page with its URL's.
  const step = page !== undefined && page.route !== 'status' && page.route !== 'support'
  const launch = step ? { lang: null, configOverride: null } : launchFromSearch(url.searchParams)
  const [config, scripts] = await Promise.all([
    // A preview (?config=) may show another logo: nothing is guessed then.
    launch.configOverride === null ? configHints(request, context, root, launch.lang) : { hints: [], logo: null },
    page ? scriptHints(root, page.route, step, launch.lang) : [],
  ])
  return { hints: [...config.hints, ...scripts].join(''), shell: config.logo ? firstPaintShell(config.logo) : '' }
}

const NOTHING: FirstPaint = { hints: '', shell: '' }

/**
 * What a page's first paint waits for, named in its HTML so the browser asks at once instead of
 * after the portal's JavaScript has arrived (decision 0029):
 * - on every page, the shop's configuration (the request the portal makes, same URL, so it takes
 *   this answer) and its logo, the start screen's largest paint; only where the portal will ask
 *   exactly that: no preview override on the start screen (it may show another logo), env.js
 *   pointing the configuration at this server, a shop this server knows; and the logo drawn in
 *   the page itself, so it shows before the JavaScript has run;
 * - on a later page (a step of the flow, the status page, support), the scripts it runs before
 *   its first paint.
 * Hints are a bonus: a database that fails or is slow leaves them out, not the page.
 */
export async function firstPaint(request: FastifyRequest, context: PortalContext, root: string): Promise<FirstPaint> {
  const made = firstPaintOf(request, context, root).catch((error: unknown) => {
    request.log.warn({ err: error }, 'first-paint hints left out: the shop could not be read')
    return NOTHING
  })
  return Promise.race([made, sleep(HINTS_WAIT_MS, NOTHING)])
}
