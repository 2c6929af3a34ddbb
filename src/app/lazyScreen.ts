import type { ComponentType } from 'react'

const RELOADED_KEY = 'rebound:chunk-reload'

/**
 * Wraps a screen's dynamic import for React.lazy. When a chunk fails to load (a deploy replaced
 * it), the page reloads once to pick up the new build instead of showing a blank screen; a second
 * failure reaches the error boundary, which offers a reload.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>) {
  return async () => {
    try {
      const module = await load()
      sessionStorage.removeItem(RELOADED_KEY)
      return module
    } catch (error) {
      if (sessionStorage.getItem(RELOADED_KEY) === null) {
        sessionStorage.setItem(RELOADED_KEY, String(Date.now()))
        window.location.reload()
        return new Promise<never>(() => {})
      }
      throw error
    }
  }
}
