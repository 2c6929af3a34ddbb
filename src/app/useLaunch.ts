import { useMemo } from 'react'
import { useLocation } from 'react-router-dom'
import { launchAt } from '../features/returnFlow/location'
import { selectLaunch, type Launch } from '../features/returnFlow/returnFlowSlice'
import { useAppSelector } from './hooks'

/**
 * The launch parameters in force: on the start screen (and any unknown path) they are the URL's
 * own; on later steps, those the session was started with. Read here, in the app's wiring, and
 * handed to the shop's configuration (useShopConfig), which stands below the return flow.
 */
export function useLaunch(): Launch {
  const { pathname, search } = useLocation()
  const stored = useAppSelector(selectLaunch)
  return useMemo(() => launchAt({ pathname, search }, stored), [pathname, search, stored])
}
