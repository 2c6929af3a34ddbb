import { startTransition, useLayoutEffect, useState, type ReactNode } from 'react'
import { flushSync } from 'react-dom'
import {
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
  type NavigationType,
} from 'react-router-dom'

let atOnce = false

/**
 * Runs `navigate` so that the new location is rendered with the store's changes of the same event
 * (docs/decisions/0095-steps-leave-in-one-render.md): the screen left is unmounted in that render
 * instead of being drawn again with its choice first. For a step whose screen is loaded only: a
 * screen still to load would show the loading card in place of the step left.
 */
export function navigateAtOnce(navigate: () => void) {
  atOnce = true
  try {
    navigate()
  } finally {
    atOnce = false
  }
}

/**
 * react-router's BrowserRouter, whose location changes are transitions (the screen shown stays
 * until the next one is ready), except those made through navigateAtOnce.
 */
export function PortalRouter({ children }: { children: ReactNode }) {
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }))
  const [state, setState] = useState<{ action: NavigationType; location: Location }>(() => ({
    action: history.action,
    location: history.location,
  }))
  // The history's update as it comes ({ action, location, delta }): what the router reads of it.
  // At once, it is rendered there and then (flushSync), with the store's changes before it: also
  // after an awaited answer, outside any event, where it would otherwise wait for a task of its
  // own, a frame of the step left drawn before it (docs/decisions/0098-server-bound-steps.md).
  useLayoutEffect(
    () =>
      history.listen((update) =>
        atOnce ? flushSync(() => setState(update)) : startTransition(() => setState(update)),
      ),
    [history],
  )
  return (
    <Router location={state.location} navigationType={state.action} navigator={history}>
      {children}
    </Router>
  )
}
