import { redirect, type LoaderFunction, type RouteObject } from 'react-router-dom'
import { paths } from '../config/paths'
import { portalOpened, selectHasOrder } from '../features/returnFlow/returnFlowSlice'
import StartScreen from '../features/start/StartScreen'
import { launchFromSearch } from '../shop/launch'
import { lazyScreen } from './lazyScreen'
import { RouteError } from './RouteError'
import { Shell } from './Shell'
import type { AppStore } from './store'

const relative = (pattern: string) => pattern.replace(/^\//, '')

/**
 * Every route of portal-spec.md §2. The start screen is eager; every later screen is a lazy
 * chunk behind a guard that sends a session without a verified order to the start screen.
 */
export function makeRoutes(store: AppStore): RouteObject[] {
  // Opening the start screen starts a new session: launch parameters read, return order cleared.
  const openPortal: LoaderFunction = ({ request }) => {
    store.dispatch(portalOpened(launchFromSearch(new URL(request.url).searchParams)))
    return null
  }
  const requireOrder: LoaderFunction = () => (selectHasOrder(store.getState()) ? null : redirect(paths.start.build()))

  return [
    {
      element: <Shell />,
      errorElement: <RouteError />,
      HydrateFallback: () => null,
      children: [
        { index: true, element: <StartScreen />, loader: openPortal },
        {
          loader: requireOrder,
          children: [
            { path: relative(paths.products.pattern), lazy: lazyScreen(() => import('../features/products/ProductsScreen')) },
            { path: relative(paths.returnReason.pattern), lazy: lazyScreen(() => import('../features/returnReason/ReturnReasonScreen')) },
            { path: relative(paths.exchange.pattern), lazy: lazyScreen(() => import('../features/exchange/ExchangeScreen')) },
            { path: relative(paths.upsellOffer.pattern), lazy: lazyScreen(() => import('../features/upsellOffer/UpsellOfferScreen')) },
            { path: relative(paths.upsellExplore.pattern), lazy: lazyScreen(() => import('../features/upsellExplore/UpsellExploreScreen')) },
            { path: relative(paths.refundMethod.pattern), lazy: lazyScreen(() => import('../features/refundMethod/RefundMethodScreen')) },
            { path: relative(paths.confirm.pattern), lazy: lazyScreen(() => import('../features/confirm/ConfirmScreen')) },
            { path: relative(paths.returnInstruction.pattern), lazy: lazyScreen(() => import('../features/returnInstruction/ReturnInstructionScreen')) },
          ],
        },
        // portal-spec.md §2: any unknown path shows the start screen.
        { path: '*', element: <StartScreen />, loader: openPortal },
      ],
    },
  ]
}
