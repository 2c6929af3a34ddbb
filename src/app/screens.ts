import type { FlowRoute } from '../features/returnFlow/location'
import { withFlowWords } from '../i18n/i18n'
import { lazyScreen, type ScreenLoader } from './lazyScreen'

/**
 * The loaders of the later steps' chunks (the start screen is in the main bundle), each with the
 * later steps' words in the shopper's language. A module of its own, without React or the router,
 * so that the boot can start a step's chunk early.
 */
export const screenLoaders: Record<FlowRoute, ScreenLoader> = {
  products: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "products" */ '../features/products/ProductsScreen')),
  ),
  returnReason: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "returnReason" */ '../features/returnReason/ReturnReasonScreen')),
  ),
  exchange: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "exchange" */ '../features/exchange/ExchangeScreen')),
  ),
  upsellOffer: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "upsellOffer" */ '../features/upsellOffer/UpsellOfferScreen')),
  ),
  upsellExplore: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "upsellExplore" */ '../features/upsellExplore/UpsellExploreScreen')),
  ),
  refundMethod: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "refundMethod" */ '../features/refundMethod/RefundMethodScreen')),
  ),
  confirm: lazyScreen(() =>
    withFlowWords(import(/* webpackChunkName: "confirm" */ '../features/confirm/ConfirmScreen')),
  ),
  returnInstruction: lazyScreen(() =>
    withFlowWords(
      import(/* webpackChunkName: "returnInstruction" */ '../features/returnInstruction/ReturnInstructionScreen'),
    ),
  ),
}

/** /support: support staff open a shopper's session from a code; not a step of the flow. */
export const supportScreenLoader = lazyScreen(() =>
  withFlowWords(import(/* webpackChunkName: "support" */ '../support/SupportScreen')),
)

/** /status/{id}: a submitted return's status from its kept link; not a step of the flow, no session needed. */
export const statusScreenLoader = lazyScreen(() =>
  withFlowWords(import(/* webpackChunkName: "status" */ '../features/status/StatusScreen')),
)
