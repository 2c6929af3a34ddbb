import { http, HttpResponse } from 'msw'
import { makeStore } from '../app/store'
import { buildFlow, buildOrder, buildReturnStatus } from '../testing/builders'
import { server } from '../testing/server'
import { configApi } from './configEndpoints'
import { apiUrl, portalApi } from './portalApi'
import { returnsApi } from './returnsEndpoints'
import { verifyApi } from './verifyEndpoints'

/** The authorization header of each call, by path. */
function watchAuthorization() {
  const seen = new Map<string, string | null>()
  server.events.on('request:start', ({ request }) => {
    seen.set(new URL(request.url).pathname, request.headers.get('authorization'))
  })
  return seen
}

afterEach(() => server.events.removeAllListeners())

test('an endpoint named nowhere else (a new one) carries the session’s token', async () => {
  server.use(http.get('*/portal-registration/made-up', () => HttpResponse.json({ ok: true })))
  const madeUp = portalApi.injectEndpoints({
    endpoints: (build) => ({
      getMadeUpThing: build.query<{ ok: boolean }, void>({ query: () => apiUrl('/portal-registration/made-up') }),
    }),
  })
  const seen = watchAuthorization()
  const store = makeStore({ returnFlow: buildFlow({ order: buildOrder({ token: 'jane-token' }) }) })
  await store.dispatch(madeUp.endpoints.getMadeUpThing.initiate())
  expect(seen.get('/portal-registration/made-up')).toBe('Bearer jane-token')
})

test('the public calls (configuration, verify, return status) go without it', async () => {
  server.use(http.get('*/portal-registration/returns/:id/status', () => HttpResponse.json(buildReturnStatus())))
  const seen = watchAuthorization()
  const store = makeStore({ returnFlow: buildFlow({ order: buildOrder({ token: 'jane-token' }) }) })
  await store.dispatch(configApi.endpoints.getConfig.initiate({ id: 'demo' }))
  await store.dispatch(returnsApi.endpoints.getReturnStatus.initiate({ returnId: 'r-1', signature: 'sig' }))
  await store.dispatch(
    verifyApi.endpoints.verifyOrder.initiate({
      order_name: '#1001',
      email: 'jane@example.com',
      shop: 'demo-shop',
      portal_id: 'portal-demo',
    }),
  )
  expect(seen.get('/portal-registration/config/demo')).toBeNull()
  expect(seen.get('/portal-registration/verify')).toBeNull()
  expect(seen.get('/portal-registration/returns/r-1/status')).toBeNull()
})

test('without a verified order no call carries a token', async () => {
  server.use(http.get('*/portal-registration/catalogue', () => HttpResponse.json({ products: [] })))
  const seen = watchAuthorization()
  const store = makeStore()
  await store.dispatch(returnsApi.endpoints.getCatalogue.initiate())
  expect(seen.get('/portal-registration/catalogue')).toBeNull()
})
