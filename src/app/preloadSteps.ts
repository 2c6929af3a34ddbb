import { FLOW_ROUTES } from '../features/returnFlow/location'
import { screenLoaders } from './screens'

/**
 * Once the flow has begun (the steps' route layout calls it), every step's chunk comes in the
 * background, one at a time when the page is idle (at the latest a second apart): a shopper whose
 * connection drops mid-flow still moves between steps, and the step on screen is not slowed by
 * the others' evaluation in the tasks after its first paint. Returns a function that stops what
 * has not started.
 */
export function preloadStepsWhenIdle(): () => void {
  const pending = [...FLOW_ROUTES]
  let cancel: () => void = () => {}
  const next = () => {
    const name = pending.shift()
    if (name) void screenLoaders[name].preload().then(schedule)
  }
  const schedule = () => {
    if (pending.length === 0) return
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(next, { timeout: 1_000 })
      cancel = () => window.cancelIdleCallback(id)
    } else {
      const id = window.setTimeout(next, 50)
      cancel = () => window.clearTimeout(id)
    }
  }
  schedule()
  return () => {
    pending.length = 0
    cancel()
  }
}
