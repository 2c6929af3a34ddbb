import { lazy, useEffect } from 'react'
import { Navigate, Outlet, Route, Routes, useOutletContext } from 'react-router-dom'
import { paths } from '../../contract/paths'
import { useAppSelector } from './hooks'
import { FLOW_ROUTES } from '../features/returnFlow/location'
import { selectHasOrder } from '../features/returnFlow/returnFlowSlice'
import StartScreen from '../features/start/StartScreen'
import { screenLoaders, statusScreenLoader, supportScreenLoader } from './screens'
import { Shell } from './Shell'

// Every later screen is its own chunk (./screens); the start screen is in the main bundle.
const FLOW_SCREENS = FLOW_ROUTES.map((name) => {
  const Screen = lazy(screenLoaders[name])
  return { pattern: paths[name].pattern, element: <Screen /> }
})

const SupportScreen = lazy(supportScreenLoader)
const StatusScreen = lazy(statusScreenLoader)

/** Later steps need a verified order; without one the shopper starts at the start screen. */
function RequireOrder() {
  const hasOrder = useAppSelector(selectHasOrder)
  // The shell's configuration goes on to the step below (useShop reads the nearest outlet's context).
  const shop = useOutletContext()
  // Once the flow has begun, every step's chunk comes in the background, when the page is idle:
  // a shopper whose connection drops mid-flow still moves between steps, and only the API calls
  // wait for it (a step whose chunk cannot load would otherwise reload the page into the
  // browser's offline error). The start screen does not wait for them.
  useEffect(() => {
    if (hasOrder)
      void import(/* webpackChunkName: "preload-steps" */ './preloadSteps').then((module) =>
        module.preloadStepsWhenIdle(),
      )
  }, [hasOrder])
  if (!hasOrder) return <Navigate to={paths.start.build()} replace />
  // While a step's chunk loads, the shell shows its loading card (its Suspense boundary).
  return <Outlet context={shop} />
}

/** Every route of docs/rules.md §3. */
export function PortalRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route element={<RequireOrder />}>
          {FLOW_SCREENS.map(({ pattern, element }) => (
            <Route key={pattern} path={pattern} element={element} />
          ))}
        </Route>
        <Route path={paths.support.pattern} element={<SupportScreen />} />
        <Route path={paths.status.pattern} element={<StatusScreen />} />
        {/* docs/rules.md §3: the start screen, and any unknown path shows it too. */}
        <Route path="*" element={<StartScreen />} />
      </Route>
    </Routes>
  )
}
