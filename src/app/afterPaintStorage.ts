import type { WebStorage } from 'redux-persist'

/**
 * The flow's storage for redux-persist (store.ts, with `serialize: false`, one key): sessionStorage,
 * written as redux-persist writes it (each key's JSON, in a JSON object), but after the next frame
 * is drawn, not in the task after each change, which comes before the next step's first paint
 * (docs/benchmarks.md, "The shopper's steps"). A page being left or hidden (a reload, another
 * site, another tab) writes what waits at once, so a reload right after a step restores it;
 * `persistor.flush()` answers once the write is done. Where sessionStorage cannot be used, every
 * call fails and the flow starts afresh, as redux-persist's own storage would leave it.
 */
export function afterPaintStorage(): WebStorage {
  let waiting: (() => void) | null = null
  const write = () => {
    const next = waiting
    waiting = null
    next?.()
  }
  window.addEventListener('pagehide', write)
  document.addEventListener('visibilitychange', write)
  return {
    getItem: (key) => new Promise((resolve) => resolve(sessionStorage.getItem(key))),
    removeItem: (key) =>
      new Promise((resolve) => {
        waiting = null
        resolve(sessionStorage.removeItem(key))
      }),
    // With `serialize: false`, redux-persist hands over its state, not a string.
    setItem: (key, state) =>
      new Promise((resolve) => {
        // After the frame drawn next: a task queued from its animation-frame callback.
        if (!waiting) requestAnimationFrame(() => setTimeout(write))
        const keys = Object.entries(state as unknown as Record<string, unknown>)
        // A failed write (storage full or refused) rejects, as redux-persist's own storage does.
        waiting = () =>
          resolve(
            new Promise<void>((written) =>
              written(
                sessionStorage.setItem(
                  key,
                  JSON.stringify(Object.fromEntries(keys.map(([name, value]) => [name, JSON.stringify(value)]))),
                ),
              ),
            ),
          )
      }),
  }
}
