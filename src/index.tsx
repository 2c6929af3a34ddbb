import './styles.css'

/** Resolves in a later task: the main thread is free for input (and a paint) in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Evaluating the whole bundle in one go is one long task on a phone (about 150 ms at 4x CPU
 * slowdown), which blocks input and counts in Total Blocking Time. The modules are all in this
 * bundle (eager imports load nothing more), but are evaluated in four tasks of a few ms each:
 * 1. the state libraries (Redux Toolkit, RTK Query, redux-persist);
 * 2. the store: the session is restored and what the first screen needs (configuration, logo,
 *    a later step's chunk, the words of a language other than English) is requested at once;
 * 3. React DOM, while those requests are on their way;
 * 4. the router and the screens, and the first render.
 * The router starts after the session is restored, so the first screen (and its loaders) see
 * the shopper's choices, never an empty flow that is then overwritten.
 */
async function boot() {
  // A shopper back on a later step (a reload): the checks of the stored session are a chunk of
  // their own (store.ts), fetched now, while the libraries below are evaluated, not after.
  // A failure here is the restore's to retry (store.ts), not an error of the page.
  if (hasStoredSession())
    import(/* webpackChunkName: "restore" */ './features/returnFlow/restore').catch(() => undefined)
  // webpackExports: an import() would otherwise keep every export of the library in the bundle.
  await Promise.all([
    import(/* webpackMode: "eager", webpackExports: ["configureStore"] */ '@reduxjs/toolkit'),
    import(/* webpackMode: "eager", webpackExports: ["createApi"] */ '@reduxjs/toolkit/query/react'),
    import(/* webpackMode: "eager", webpackExports: ["persistStore"] */ 'redux-persist'),
  ])
  await nextTask()
  const [{ makeStore }, { restoreSession, startLoading }] = await Promise.all([
    import(/* webpackMode: "eager" */ './app/store'),
    import(/* webpackMode: "eager" */ './app/boot'),
  ])
  const store = makeStore()
  await restoreSession(store)
  const wordsReady = startLoading(store)
  await nextTask()
  await import(/* webpackMode: "eager", webpackExports: ["createRoot"] */ 'react-dom/client')
  // A language other than English is a small chunk fetched alongside the configuration.
  await wordsReady
  await nextTask()
  const { startPortal } = await import(/* webpackMode: "eager" */ './app/start')
  startPortal(store)
}

/** Whether sessionStorage holds a portal's flow (store.ts names its keys `persist:rebound:returnFlow:…`). */
function hasStoredSession(): boolean {
  try {
    return Object.keys(window.sessionStorage).some((key) => key.startsWith('persist:rebound:returnFlow:'))
  } catch {
    return false
  }
}

void boot()
