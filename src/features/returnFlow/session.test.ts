import { http, HttpResponse } from 'msw'
import { apiUrl, portalApi } from '../../api/portalApi'
import { returnsApi } from '../../api/returnsEndpoints'
import { makeStore } from '../../app/store'
import { buildFlow, buildOrder } from '../../testing/builders'
import { server } from '../../testing/server'
import { orderVerified, portalOpened } from './returnFlowSlice'

const expiredAnswer = () =>
  HttpResponse.json(
    { error: 'session_expired', message: 'Your session has expired. Please start your return again.' },
    { status: 401 },
  )

// An endpoint no screen knows, so that nothing in it is special-cased anywhere.
const madeUp = portalApi.injectEndpoints({
  endpoints: (build) => ({
    postMadeUpThing: build.mutation<unknown, void>({
      query: () => ({ url: apiUrl('/portal-registration/made-up'), method: 'POST' }),
    }),
  }),
})

const expired = (store: ReturnType<typeof makeStore>) => store.getState().returnFlow.expired === true

const storeWithOrder = () => makeStore({ returnFlow: buildFlow({ order: buildOrder({ token: 'old-token' }) }) })

test('one call refused with 401, whichever, expires the session in the store', async () => {
  server.use(http.post('*/portal-registration/made-up', expiredAnswer))
  const store = storeWithOrder()
  expect(expired(store)).toBe(false)
  await store.dispatch(madeUp.endpoints.postMadeUpThing.initiate())
  expect(expired(store)).toBe(true)
})

test('a query refused with 401 expires it as well; other failures do not', async () => {
  let status = 500
  server.use(http.get('*/portal-registration/catalogue', () => HttpResponse.json({ error: 'x' }, { status })))
  const store = storeWithOrder()
  await store.dispatch(returnsApi.endpoints.getCatalogue.initiate())
  expect(expired(store)).toBe(false)
  status = 401
  await store.dispatch(returnsApi.endpoints.getCatalogue.initiate(undefined, { forceRefetch: true }))
  expect(expired(store)).toBe(true)
})

test('a 401 of a public call (a status link’s signature) is no expired session', async () => {
  server.use(http.get('*/portal-registration/returns/:id/status', expiredAnswer))
  const store = storeWithOrder()
  await store.dispatch(returnsApi.endpoints.getReturnStatus.initiate({ returnId: 'r-1', signature: 'sig' }))
  expect(expired(store)).toBe(false)
})

test('a new session starts unexpired: a verify, or the start screen opened again', async () => {
  server.use(http.post('*/portal-registration/made-up', expiredAnswer))
  const store = storeWithOrder()
  await store.dispatch(madeUp.endpoints.postMadeUpThing.initiate())
  store.dispatch(orderVerified(buildOrder({ token: 'new-token' })))
  expect(expired(store)).toBe(false)

  await store.dispatch(madeUp.endpoints.postMadeUpThing.initiate())
  expect(expired(store)).toBe(true)
  store.dispatch(portalOpened({ lang: null, testMode: false, configOverride: null }))
  expect(expired(store)).toBe(false)
})
