import { matchPath } from 'react-router-dom'
import { env } from '../../app/env'
import { paths } from '../../../contract/paths'
import { launchFromSearch } from '../../../contract/launch'
import { configId, subdomainFromHost } from '../../../contract/subdomain'
import type { Launch } from '../../../contract/launch'

/*
 * Where the shopper is: the part of the flow's navigation (navigation.ts, which re-exports it)
 * that the boot, the shell and the routes need before any step is loaded. A module of its own so
 * that the start screen's bundle takes this, and not the flow's rules.
 */

/** The routes of the flow after the start screen, in the flow's order (paths.ts); any other path shows the start screen. */
export const FLOW_ROUTES = (Object.keys(paths) as (keyof typeof paths)[]).filter(
  (route): route is FlowRoute => route !== 'start' && route !== 'support' && route !== 'status',
)

export type FlowRoute = Exclude<keyof typeof paths, 'start' | 'support' | 'status'>

/**
 * The step of the flow shown at `pathname`, matched as the router matches it (react-router's
 * matchPath: any case, a trailing slash); null on the start screen and any other path.
 * @example stepAt('/return-item/tee/exchange') // 'exchange'
 */
export function stepAt(pathname: string): FlowRoute | null {
  return FLOW_ROUTES.find((route) => matchPath(paths[route].pattern, pathname)) ?? null
}

/**
 * The launch parameters in force at a URL: on the start screen (and any unknown path) the URL's
 * own; on a step of the flow, those the session was started with (`stored`).
 */
export function launchAt(url: { pathname: string; search: string }, stored: Launch): Launch {
  return stepAt(url.pathname) ? stored : launchFromSearch(new URLSearchParams(url.search))
}

/** The configuration this page fetches for a language: its host's shop, in that language (configId). */
export function configIdFor(lang: string | null, hostname: string = window.location.hostname): string {
  return configId(subdomainFromHost(hostname, env.defaultSubdomain), lang)
}
