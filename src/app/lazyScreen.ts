import type { ComponentType } from 'react'

const RELOADED_KEY = 'rebound:chunk-reload'

type ScreenModule = { default: ComponentType }

/** A screen's loader for React.lazy, whose chunk can also be fetched ahead of the render. */
export interface ScreenLoader {
  (): Promise<ScreenModule>
  /** Fetches the chunk now (a failure is left to the render, which tries again). */
  preload: () => Promise<void>
  /** Whether the chunk is in: the screen then renders without suspending. */
  isLoaded: () => boolean
}

/**
 * Wraps a screen's dynamic import for React.lazy. When a chunk fails to load (a deploy replaced
 * it), the page reloads once to pick up the new build instead of showing a blank screen; a second
 * failure reaches the error boundary, which offers a reload.
 *
 * Once the chunk is loaded (preloaded, or shown before), the loader answers with an already
 * settled thenable: React.lazy then renders the screen in the same pass instead of suspending,
 * so a screen whose chunk came in with the configuration appears with the frame around it, in
 * one paint, with nothing of the page moving.
 */
export function lazyScreen(load: () => Promise<ScreenModule>): ScreenLoader {
  let loaded: ScreenModule | null = null
  let loading: Promise<ScreenModule> | null = null

  const fetchChunk = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = null
        throw error
      },
    ))

  async function reloadOnFailure(chunk: Promise<ScreenModule>): Promise<ScreenModule> {
    try {
      const module = await chunk
      sessionStorage.removeItem(RELOADED_KEY)
      return module
    } catch (error) {
      // Offline, a reload cannot fetch the page either: it would swap the portal for the
      // browser's own error page. The error boundary says what happened and offers the reload.
      if (navigator.onLine && sessionStorage.getItem(RELOADED_KEY) === null) {
        sessionStorage.setItem(RELOADED_KEY, String(Date.now()))
        window.location.reload()
        return new Promise<never>(() => {})
      }
      throw error
    }
  }

  const loader = (() => {
    if (loaded === null) return reloadOnFailure(fetchChunk())
    const module = loaded
    // React.lazy reads a thenable that calls back at once as already resolved.
    return {
      then: (onFulfilled: (value: ScreenModule) => unknown) => onFulfilled(module),
    } as unknown as Promise<ScreenModule>
  }) as ScreenLoader
  loader.preload = () =>
    fetchChunk().then(
      () => undefined,
      () => undefined,
    )
  loader.isLoaded = () => loaded !== null
  return loader
}
