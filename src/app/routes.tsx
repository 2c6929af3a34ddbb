import { lazy, Suspense, type ReactNode } from 'react'
import { Navigate, Outlet, Route, Routes, useOutletContext } from 'react-router-dom'
import { Spinner } from '../components/Spinner'
import { paths } from '../config/paths'
import { useAppSelector } from './hooks'
import { selectHasOrder } from '../features/returnFlow/returnFlowSlice'
import StartScreen from '../features/start/StartScreen'
import { lazyScreen } from './lazyScreen'
import { Shell } from './Shell'

// Every later screen is its own chunk; the start screen is in the main bundle.
const ProductsScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "products" */ '../features/products/ProductsScreen')))
const ReturnReasonScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "return-reason" */ '../features/returnReason/ReturnReasonScreen')))
const ExchangeScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "exchange" */ '../features/exchange/ExchangeScreen')))
const UpsellOfferScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "upsell-offer" */ '../features/upsellOffer/UpsellOfferScreen')))
const UpsellExploreScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "upsell-explore" */ '../features/upsellExplore/UpsellExploreScreen')))
const RefundMethodScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "refund-method" */ '../features/refundMethod/RefundMethodScreen')))
const ConfirmScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "confirm" */ '../features/confirm/ConfirmScreen')))
const ReturnInstructionScreen = lazy(lazyScreen(() => import(/* webpackChunkName: "return-instruction" */ '../features/returnInstruction/ReturnInstructionScreen')))

const FLOW_ROUTES: { pattern: string; element: ReactNode }[] = [
  { pattern: paths.products.pattern, element: <ProductsScreen /> },
  { pattern: paths.returnReason.pattern, element: <ReturnReasonScreen /> },
  { pattern: paths.exchange.pattern, element: <ExchangeScreen /> },
  { pattern: paths.upsellOffer.pattern, element: <UpsellOfferScreen /> },
  { pattern: paths.upsellExplore.pattern, element: <UpsellExploreScreen /> },
  { pattern: paths.refundMethod.pattern, element: <RefundMethodScreen /> },
  { pattern: paths.confirm.pattern, element: <ConfirmScreen /> },
  { pattern: paths.returnInstruction.pattern, element: <ReturnInstructionScreen /> },
]

/** Later steps need a verified order; without one the shopper starts at the start screen. */
function RequireOrder() {
  const hasOrder = useAppSelector(selectHasOrder)
  // The shell's configuration goes on to the step below (useShop reads the nearest outlet's context).
  const shop = useOutletContext()
  if (!hasOrder) return <Navigate to={paths.start.build()} replace />
  return (
    <Suspense fallback={<Spinner label="Loading the next step" />}>
      <Outlet context={shop} />
    </Suspense>
  )
}

/** Every route of portal-spec.md §2. */
export function PortalRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route element={<RequireOrder />}>
          {FLOW_ROUTES.map(({ pattern, element }) => (
            <Route key={pattern} path={pattern} element={element} />
          ))}
        </Route>
        {/* portal-spec.md §2: the start screen, and any unknown path shows it too. */}
        <Route path="*" element={<StartScreen />} />
      </Route>
    </Routes>
  )
}
