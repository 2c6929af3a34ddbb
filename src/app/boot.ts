import { persistStore } from 'redux-persist'
import { configApi } from '../api/configEndpoints'
import { activateLocale, uiLocale } from '../i18n/i18n'
import { configIdFor, launchAt, stepAt } from '../features/returnFlow/location'
import { selectHasOrder, selectLaunch } from '../features/returnFlow/returnFlowSlice'
import { cssColors, needsCssColors } from '../shop/color'
import { previewParser } from '../shop/shopConfig'
import { safeUrl } from '../shop/sanitizeConfig'
import { screenLoaders } from './screens'
import type { AppStore } from './store'

/** Restores the session from sessionStorage (a few microtasks: the storage is synchronous). */
export function restoreSession(store: AppStore): Promise<void> {
  return new Promise((resolve) => {
    const persistor = persistStore(store, null, resolve)
    // redux-persist writes on a timer: a reload right after a choice would lose it. Leaving the
    // page writes what is pending at once (sessionStorage is synchronous).
    window.addEventListener('pagehide', () => void persistor.flush())
  })
}

/** Fetches an image now, so that the element showing it later finds it loaded. */
function warmImage(url: string | undefined) {
  const safe = url ? safeUrl(url) : null
  if (!safe) return
  const image = new Image()
  image.fetchPriority = 'high'
  image.src = safe
}

/**
 * What the first screen waits for, started before React and the screens are evaluated: the
 * shop's configuration (the same query, same id, as useShopConfig asks for, so the screen finds
 * it in flight or done), then the shop's logo, the start screen's largest paint, as soon as the
 * configuration names it; on a later step with a restored order, that step's chunk; and the
 * portal's words in the session's language. Resolves when those words are ready to render.
 */
export function startLoading(store: AppStore, location: Location = window.location): Promise<void> {
  const step = stepAt(location.pathname)
  // As useLaunch: the URL's parameters on the start screen, the session's on later steps.
  const launch = launchAt(location, selectLaunch(store.getState()))
  const config = store.dispatch(
    configApi.endpoints.getConfig.initiate({ id: configIdFor(launch.lang, location.hostname) }, { subscribe: false }),
  )
  // First: a later step's chunk (below) comes with the words of this language.
  const wordsReady = activateLocale(uiLocale(launch.lang))
  // A preview (?config=) may show another logo: nothing is guessed then. Its parser, and the
  // reader of colour names it may use, are fetched alongside the configuration.
  if (launch.configOverride === null) void config.then(({ data }) => warmImage(data?.config.logo_src))
  else void Promise.all([previewParser.load(), cssColors.load()])
  void config.then(({ data }) => {
    if (needsCssColors(data?.config.button_color)) void cssColors.load()
  })
  // A later step (a reload, a link to it): its chunk comes alongside the configuration, not after
  // it. A failure is handled where the screen renders (reload once, then the error boundary).
  if (step && selectHasOrder(store.getState())) void screenLoaders[step].preload()
  // On the start screen, the item selection's chunk comes while the shopper types (not before:
  // nothing competes with the start screen's own loading), so the verify leads straight to it.
  if (!step) document.addEventListener('focusin', () => void screenLoaders.products.preload(), { once: true })
  return wordsReady
}
