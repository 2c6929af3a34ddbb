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
  let stopped = false
  const preload = (index: number) => {
    const name = FLOW_ROUTES[index]
    if (stopped || !name) return
    void screenLoaders[name].preload().then(() => whenIdle(() => preload(index + 1)))
  }
  whenIdle(() => preload(0))
  return () => {
    stopped = true
  }
}

const whenIdle = (run: () => void) =>
  typeof window.requestIdleCallback === 'function'
    ? window.requestIdleCallback(run, { timeout: 1_000 })
    : setTimeout(run, 50)
