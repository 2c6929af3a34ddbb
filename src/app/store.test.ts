import { persistStore, type Persistor } from 'redux-persist'
import { http, HttpResponse } from 'msw'
import { configApi } from '../api/configEndpoints'
import { orderVerified, portalOpened } from '../features/returnFlow/returnFlowSlice'
import { buildConfig, buildOrder } from '../testing/builders'
import { server } from '../testing/server'
import { makeStore, PERSIST_VERSION, persistedFlowKey } from './store'

// jsdom's page is on localhost: the default subdomain, demo.
const KEY = persistedFlowKey('demo')

const persistors: Persistor[] = []

function rehydrated(store: ReturnType<typeof makeStore>): Promise<Persistor> {
  return new Promise((resolve) => {
    const persistor = persistStore(store, null, () => resolve(persistor))
    persistors.push(persistor)
  })
}

// A store writes after the next frame (afterPaintStorage.ts): each test's writes are done, and
// cleared, before the next test begins.
afterEach(async () => {
  await Promise.all(persistors.splice(0).map((persistor) => persistor.flush()))
  sessionStorage.clear()
})

test('the flow survives a reload through sessionStorage', async () => {
  const first = makeStore()
  const persistor = await rehydrated(first)
  const order = buildOrder({ order_name: '#1001' })
  first.dispatch(portalOpened({ lang: 'de', testMode: true, configOverride: null }))
  first.dispatch(orderVerified(order))
  await persistor.flush()

  const afterReload = makeStore()
  await rehydrated(afterReload)
  expect(afterReload.getState().returnFlow).toMatchObject({ launch: { lang: 'de', testMode: true }, order })
})

test('a session of another shop’s portal on the same origin is never restored: each portal keeps its own', async () => {
  const acme = makeStore(undefined, 'acme')
  const acmePersistor = await rehydrated(acme)
  const acmeOrder = buildOrder({ order_name: 'AC1001' })
  acme.dispatch(orderVerified(acmeOrder))
  await acmePersistor.flush()

  const demo = makeStore(undefined, 'demo')
  await rehydrated(demo)
  expect(demo.getState().returnFlow.order).toBeNull()
  // Stored under its own portal's key, acme's session is still there for acme.
  const acmeAgain = makeStore(undefined, 'acme')
  await rehydrated(acmeAgain)
  expect(acmeAgain.getState().returnFlow.order).toEqual(acmeOrder)
})

test('the API cache is never persisted', async () => {
  const store = makeStore()
  const persistor = await rehydrated(store)
  store.dispatch(orderVerified(buildOrder()))
  await persistor.flush()
  expect(Object.keys(sessionStorage)).toEqual([KEY])
  expect(sessionStorage.getItem(KEY)).not.toContain('portalApi')
})

test.each([
  ['corrupted JSON', '{"launch": nope'],
  ['a foreign shape', JSON.stringify({ cart: '[]', _persist: JSON.stringify({ version: 7, rehydrated: true }) })],
  [
    'an older version with a broken order',
    JSON.stringify({ order: '{"order_name":1}', _persist: JSON.stringify({ version: 0, rehydrated: true }) }),
  ],
])('%s in sessionStorage gives a clean start', async (_name, stored) => {
  jest.spyOn(console, 'error').mockImplementation(() => {})
  sessionStorage.setItem(KEY, stored)
  const store = makeStore()
  await rehydrated(store)
  expect(store.getState().returnFlow).toMatchObject({
    launch: { lang: null, testMode: false, configOverride: null },
    order: null,
  })
  jest.restoreAllMocks()
})

test(`the persisted state carries version ${PERSIST_VERSION}`, async () => {
  const store = makeStore()
  const persistor = await rehydrated(store)
  store.dispatch(orderVerified(buildOrder()))
  await persistor.flush()
  const stored = JSON.parse(sessionStorage.getItem(KEY)!) as { _persist: string }
  expect(JSON.parse(stored._persist)).toMatchObject({ version: PERSIST_VERSION })
})

test('fetched configuration is kept for 24 hours and not refetched when the window regains focus', async () => {
  let calls = 0
  server.use(
    http.get('*/portal-registration/config/:id', () => {
      calls += 1
      return HttpResponse.json(buildConfig())
    }),
  )
  const store = makeStore()
  const cached = () => store.getState().portalApi.queries['getConfig({"id":"demo"})']?.data
  const first = store.dispatch(configApi.endpoints.getConfig.initiate({ id: 'demo' }))
  await first

  jest.useFakeTimers()
  try {
    first.unsubscribe()
    jest.advanceTimersByTime(23 * 60 * 60 * 1000)
    expect(cached()).toBeDefined()
    window.dispatchEvent(new Event('focus'))
    document.dispatchEvent(new Event('visibilitychange'))
    jest.advanceTimersByTime(2 * 60 * 60 * 1000)
    expect(cached()).toBeUndefined()
  } finally {
    jest.useRealTimers()
  }
  expect(calls).toBe(1)

  const again = store.dispatch(configApi.endpoints.getConfig.initiate({ id: 'demo' }))
  await again
  again.unsubscribe()
  expect(calls).toBe(2)
})
