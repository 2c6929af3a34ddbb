import { matchPath } from 'react-router-dom'
import { env } from '../../app/env'
import { paths } from '../../config/paths'
import { launchFromSearch } from '../../shop/launch'
import { subdomainFromHost } from '../../shop/subdomain'
import type { Launch } from './returnFlowSlice'

/*
 * Where the shopper is: the part of the flow's navigation (navigation.ts, which re-exports it)
 * that the boot, the shell and the routes need before any step is loaded. A module of its own so
 * that the start screen's bundle takes this, and not the flow's rules.
 */

/** The routes of the flow after the start screen, in the flow's order; any other path shows the start screen. */
export const FLOW_ROUTES = [
  'products',
  'returnReason',
  'exchange',
  'upsellOffer',
  'upsellExplore',
  'refundMethod',
  'confirm',
  'returnInstruction',
] as const

export type FlowRoute = (typeof FLOW_ROUTES)[number]

/** A step of the flow as a URL names it: the route, and the item's id (decoded) on an item's steps. */
export interface StepLocation {
  route: FlowRoute
  id?: string
}

/**
 * The step of the flow shown at `pathname`, matched as the router matches it (any case, a
 * trailing slash); null on the start screen and any other path.
 * @example stepAt('/return-item/tee/exchange') // { route: 'exchange', id: 'tee' }
 */
export function stepAt(pathname: string): StepLocation | null {
  for (const route of FLOW_ROUTES) {
    const match = matchPath(paths[route].pattern, pathname)
    if (match) return match.params.id === undefined ? { route } : { route, id: decodeSegment(match.params.id) }
  }
  return null
}

/** A path segment decoded as the router decodes it (a malformed escape stays as it is). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * The launch parameters in force at a URL: on the start screen (and any unknown path) the URL's
 * own; on a step of the flow, those the session was started with (`stored`).
 */
export function launchAt(url: { pathname: string; search: string }, stored: Launch): Launch {
  return stepAt(url.pathname) ? stored : launchFromSearch(new URLSearchParams(url.search))
}

/** The configuration this page fetches for a language: `{subdomain}` or `{subdomain}-{lang}`, the subdomain from the host. */
export function configId(lang: string | null, hostname: string = window.location.hostname): string {
  const subdomain = subdomainFromHost(hostname, env.defaultSubdomain)
  return lang ? `${subdomain}-${lang}` : subdomain
}
