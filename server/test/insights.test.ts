import type { LightMyRequestResponse } from 'fastify'
import type { Insights } from '../../contract/staff'
import { buildLine, buildOrder, buildProduct, buildShop, returnItem } from './builders'
import { engines, loadShops, startApi, submitted, type TestApi, verified, demoStaffCookie } from './harness'

const HOST = 'demo.localhost'
const EUR = (amount: string) => ({ amount, currency_code: 'EUR' })

const jacket = (id: string) => buildLine({ id, variant_id: 'jacket-default', price: '45.00' })
const tee = (id: string) => buildLine({ id, variant_id: 'tee-m', price: '19.99' })
/** Sent back, never received. */
const unreceived = buildOrder({ name: '#2001', line_items: [jacket('a-jacket'), tee('a-tee')] })
/** Store credit, asked for in October, issued in November less 10% for an opened jacket. */
const credited = buildOrder({ name: '#2002', line_items: [jacket('b-jacket')] })
/** An exchange whose new tee was sent in November. */
const exchanged = buildOrder({ name: '#2003', line_items: [tee('c-tee')] })
/** Refunded in November, less half for a damaged tee. */
const refunded = buildOrder({ name: '#2004', line_items: [tee('d-tee')] })
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct(), buildProduct({ id: 'jacket', title: 'Rain Jacket', sizes: [], price: '45.00' })],
  orders: [unreceived, credited, exchanged, refunded],
  policy: { deductions: { opened: 10, damaged: 50 } },
})

describe.each(engines())('insights count the money that moved in the period, on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops')
    await loadShops(api.db, [DEMO])
    cookie = await demoStaffCookie(api)
  })

  const headers = () => ({ host: HOST, cookie, origin: `http://${HOST}` })
  const ok = (response: LightMyRequestResponse) => {
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 200 })
    return response
  }
  const returnOf = async (
    order: typeof unreceived,
    items: ReturnType<typeof returnItem>[],
    method = 'original_payment',
  ) => {
    const { token } = await verified(api.app, DEMO, order)
    return (await submitted(api.app, token, { items, refund_method: method as 'original_payment' })).id!
  }
  const inspectAndRefund = (id: string, items: unknown[]) =>
    api.app.inject({
      method: 'POST',
      url: `/admin/api/returns/${id}/inspection`,
      headers: headers(),
      payload: { refund: true, items },
    })
  const insights = async (query: string) =>
    ok(await api.app.inject({ method: 'GET', url: `/admin/api/insights${query}`, headers: headers() })).json<Insights>()
  /** Moves a return's making, and every step of its items, to other days. */
  const happenedOn = async (id: string, made: string, moved: string) => {
    await api.db.query('UPDATE returns SET created_at = $2 WHERE id = $1', [id, new Date(made)])
    await api.db.query('UPDATE return_item_events SET at = $2 WHERE return_id = $1', [id, new Date(moved)])
  }

  test('refunded is what was refunded after deductions, store credit what was issued, exchanges what was sent, each in its period', async () => {
    await returnOf(unreceived, [returnItem('a-jacket'), returnItem('a-tee')])
    const credit = await returnOf(credited, [returnItem('b-jacket')], 'store_credit')
    ok(await inspectAndRefund(credit, [{ line_item_id: 'b-jacket', condition: 'opened', disposition: 'refurbish' }]))
    await happenedOn(credit, '2026-10-15T09:00:00Z', '2026-11-10T09:00:00Z')
    const exchange = await returnOf(exchanged, [returnItem('c-tee', { exchange_variant_id: 'tee-l' })])
    ok(await inspectAndRefund(exchange, [{ line_item_id: 'c-tee', condition: 'as_new', disposition: 'restock' }]))
    const refund = await returnOf(refunded, [returnItem('d-tee')])
    ok(await inspectAndRefund(refund, [{ line_item_id: 'd-tee', condition: 'damaged', disposition: 'dispose' }]))

    const november = await insights('?from=2026-11-01&to=2026-11-20')
    // Three returns asked for in November; the credit was asked for in October.
    expect(november.returns).toBe(3)
    expect(november.outcomes).toEqual({
      // 19.99 less half (9.99, rounded down for the shopper): the unreceived 64.99 is not refunded.
      refunded: EUR('10.00'),
      // 45.00 less 10%, issued in November though asked for in October.
      store_credit: EUR('40.50'),
      exchanges: EUR('19.99'),
      upsells: EUR('0.00'),
    })
    // October saw the credit asked for, and no money move.
    const october = await insights('?from=2026-10-01&to=2026-10-31')
    expect(october.returns).toBe(1)
    expect(october.reasons.map((row) => row.count)).toEqual([1])
    expect(october.outcomes).toEqual({
      refunded: EUR('0.00'),
      store_credit: EUR('0.00'),
      exchanges: EUR('0.00'),
      upsells: EUR('0.00'),
    })
  })

  test('a return sent back and not yet refunded moved no money, whatever its method', async () => {
    await returnOf(unreceived, [returnItem('a-jacket'), returnItem('a-tee')])
    await returnOf(credited, [returnItem('b-jacket')], 'store_credit')
    await returnOf(exchanged, [returnItem('c-tee', { exchange_variant_id: 'tee-l' })])
    const shown = await insights('')
    expect(shown.returns).toBe(3)
    expect(shown.outcomes).toEqual({
      refunded: EUR('0.00'),
      store_credit: EUR('0.00'),
      exchanges: EUR('0.00'),
      upsells: EUR('0.00'),
    })
  })
})
