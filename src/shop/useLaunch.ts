import { useMemo } from 'react'
import { matchPath, useLocation } from 'react-router-dom'
import { useAppSelector } from '../app/hooks'
import { flowPatterns } from '../config/paths'
import { selectLaunch } from '../features/returnFlow/returnFlowSlice'
import { launchFromSearch, type Launch } from '../../contract/launch'

/**
 * The launch parameters in force: on the start screen (and any unknown path) they are the URL's
 * own; on later steps, those the session was started with.
 */
export function useLaunch(): Launch {
  const { pathname, search } = useLocation()
  const stored = useAppSelector(selectLaunch)
  const onStartScreen = !flowPatterns.some((pattern) => matchPath(pattern, pathname) !== null)
  return useMemo(
    () => (onStartScreen ? launchFromSearch(new URLSearchParams(search)) : stored),
    [onStartScreen, search, stored],
  )
}
