import { paths } from '../config/paths'
import { withFlowWords } from '../i18n/i18n'
import { lazyScreen } from './lazyScreen'

/**
 * The loaders of the later steps' chunks (the start screen is in the main bundle), each with the
 * later steps' words in the shopper's language. A module of its own, without React or the router,
 * so that the boot can start a step's chunk early.
 */
export const screenLoaders = {
  products: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "products" */ '../features/products/ProductsScreen')),
  ),
  returnReason: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "return-reason" */ '../features/returnReason/ReturnReasonScreen')),
  ),
  exchange: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "exchange" */ '../features/exchange/ExchangeScreen')),
  ),
  upsellOffer: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "upsell-offer" */ '../features/upsellOffer/UpsellOfferScreen')),
  ),
  upsellExplore: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "upsell-explore" */ '../features/upsellExplore/UpsellExploreScreen')),
  ),
  refundMethod: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "refund-method" */ '../features/refundMethod/RefundMethodScreen')),
  ),
  confirm: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "confirm" */ '../features/confirm/ConfirmScreen')),
  ),
  returnInstruction: lazyScreen(() =>
    withFlowWords(
      import(/* webpackChunkName: "return-instruction" */ '../features/returnInstruction/ReturnInstructionScreen'),
    ),
  ),
}

export type ScreenName = keyof typeof screenLoaders

/** /support: support staff open a shopper's session from a code; not a step of the flow. */
export const supportScreenLoader = lazyScreen(() =>
  withFlowWords(import(/* webpackChunkName: "support" */ '../support/SupportScreen')),
)

/** /status/{id}: a submitted return's status from its kept link; not a step of the flow, no session needed. */
export const statusScreenLoader = lazyScreen(() =>
  withFlowWords(import(/* webpackChunkName: "status" */ '../features/status/StatusScreen')),
)

/** A route pattern ('/return-item/:id/exchange') as a test of a pathname, as matchPath reads it. */
const matcher = (pattern: string) => new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}/?$`, 'i')
const matchers = (Object.keys(screenLoaders) as ScreenName[]).map((name) => ({
  name,
  test: matcher(paths[name].pattern),
}))

/** The later step shown at `pathname`, or null for the start screen (any other path). */
export function screenAt(pathname: string): ScreenName | null {
  return matchers.find(({ test }) => test.test(pathname))?.name ?? null
}

/**
 * Starts loading the chunk of the later step at `pathname`, if it is one, so that it comes in
 * alongside the configuration rather than after it (a reload of /products, a link to a step).
 */
export function preloadScreen(pathname: string): void {
  const name = screenAt(pathname)
  // A failure is handled where the screen renders (reload once, then the error boundary).
  if (name) void screenLoaders[name].preload()
}
