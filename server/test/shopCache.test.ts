import type { ReturnOrder } from '../../contract/api'
import { issueToken } from '../src/domain/token'
import { buildLine, buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { NOW, bearer, engines, startApi, type TestApi } from './harness'
import { within } from './spawned'

/**
 * Routes read shops through a cache that forgets after 5 s, so a request may be the first to read
 * its shop. On PGlite (one connection) a read outside an open transaction waits for that
 * transaction forever: these requests start with nothing cached, as after an idle spell.
 */
const solo = buildOrder({ name: '#1005', line_items: [buildLine({ id: 'li-tote' })] })
const SHOP = buildShop({ shop: 'north', orders: [solo] })

describe.each(engines())('requests whose shop is not cached yet on %s', (engine) => {
  let api: TestApi
  let token: string
  beforeEach(async () => {
    api = await startApi(engine, [SHOP])
    // A token made here rather than by verify, which would read (and cache) the shop.
    const [order] = await api.db.query<{ id: string }>(
      "SELECT id FROM orders WHERE shop_id = 'north' AND name = '#1005'",
    )
    token = issueToken(Buffer.from('test-secret'), {
      orderId: order!.id,
      shopId: 'north',
      expires: Math.floor(NOW.getTime() / 1000) + 3600,
      readOnly: false,
    })
  })
  afterEach(() => api.close())

  const request = () => buildReturn([returnItem('li-tote')])

  test('a submit is answered 201, not left waiting on its own transaction', async () => {
    const response = await within(
      10_000,
      'submit',
      api.app.inject({
        method: 'POST',
        url: '/portal-registration/returns',
        headers: { ...bearer(token), 'idempotency-key': 'uncached-0001' },
        payload: request(),
      }),
    )
    expect(response.statusCode).toBe(201)
    expect(response.json<ReturnOrder>().name).toBe('#1005-R1')
  })

  test('a quote is answered 200', async () => {
    const response = await within(
      10_000,
      'quote',
      api.app.inject({
        method: 'POST',
        url: '/portal-registration/returns/quote',
        headers: bearer(token),
        payload: request(),
      }),
    )
    expect(response.statusCode).toBe(200)
  })
})
