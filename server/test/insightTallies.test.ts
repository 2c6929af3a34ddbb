import type { LightMyRequestResponse } from 'fastify'
import type { ReturnRequest } from '../../contract/api'
import { minorDigits } from '../../contract/money'
import { findInsights, recountInsights } from '../src/storage/insights'
import { countReturnViews } from '../src/storage/staffReturns'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop, returnItem } from './builders'
import { engines, loadShops, NOW, startApi, submitted, type TestApi, verified, demoStaffCookie } from './harness'

/**
 * The insights' daily tallies (migration 22, decision 0087) against a full recount of the rows:
 * returns driven through submit, review, receipt, refund, inspection, cancel and close, and rows
 * changed beneath the routes (dates moved, an order's prices re-imported, a return deleted), then
 * every period's insights read from the tallies equal the recount, field by field. The views'
 * tallies (migration 26, decision 0100) likewise: each view's count of the shop's every return
 * equals the count of the rows.
 */
const HOST = 'demo.localhost'

const jacket = (id: string) => buildLine({ id, variant_id: 'jacket-default', price: '45.00' })
const tee = (id: string) => buildLine({ id, variant_id: 'tee-m', price: '19.99' })
const mug = (id: string) => buildLine({ id, variant_id: 'mug-default', price: '4.00' })
const orders = Array.from({ length: 10 }, (_, n) =>
  buildOrder({
    name: `#30${n}`,
    email: `shopper${n}@example.com`,
    line_items: [jacket(`o${n}-jacket`), tee(`o${n}-tee`), mug(`o${n}-mug`)],
  }),
)
const DEMO = buildShop({
  shop: 'demo',
  settings: {
    keep_item_below: '5.00',
    refund_timing: { store_credit: { from_days: 0, to_days: 0, business_days: false, after: 'submit' } },
  },
  catalogue: [
    buildProduct(),
    buildProduct({ id: 'jacket', title: 'Rain Jacket', sizes: [], price: '45.00' }),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '4.00' }),
  ],
  return_reasons: [
    buildReason('changed_mind', { label: 'Changed my mind' }),
    buildReason('too_small', { label: 'Too small' }),
  ],
  orders,
  policy: { deductions: { opened: 10, damaged: 50 }, review: { over_amount: '65.00', answer_within_days: 2 } },
})

describe.each(engines())('the insights tallies equal a full recount, on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    await api.db.exec('DELETE FROM staff; DELETE FROM shops')
    await loadShops(api.db, [DEMO])
    cookie = await demoStaffCookie(api)
  })
  afterAll(() => api.close())

  const post = async (url: string, payload: Record<string, unknown> = {}) => {
    const response: LightMyRequestResponse = await api.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      payload,
    })
    expect({ url, status: response.statusCode, body: response.body }).toEqual({ url, status: 200, body: response.body })
  }
  const made = async (n: number, items: ReturnRequest['items'], method: 'original_payment' | 'store_credit') => {
    const { token } = await verified(api.app, DEMO, orders[n]!)
    return (await submitted(api.app, token, { items, refund_method: method })).id!
  }
  const move = (id: string, state: string) => post(`/admin/api/returns/${id}/status`, { state })
  const inspect = (id: string, items: { line_item_id: string; condition: string; disposition: string }[]) =>
    post(`/admin/api/returns/${id}/inspection`, { refund: true, items })

  /** The tallies kept by the triggers, against the same worked out afresh from every return. */
  const keptAndAfresh = async () => {
    const grouped = (from: string) => `
      SELECT shop_id, day::text, kind, key, label, SUM(count)::text AS count, SUM(value)::text AS value FROM ${from}
       GROUP BY shop_id, day, kind, key, label HAVING SUM(count) <> 0 OR SUM(value) <> 0
       ORDER BY shop_id, day, kind, key, label`
    return {
      kept: await api.db.query(grouped('insight_days')),
      afresh: await api.db.query(grouped('(SELECT p.* FROM returns r, return_insight_parts(r.id) p) AS parts')),
    }
  }

  test("the tallies' currency decimals are Intl's, as toMinor reads them, for every currency", async () => {
    const codes = Intl.supportedValuesOf('currency')
    const rows = await api.db.query<{ code: string; digits: number }>(
      'SELECT code, currency_digits(code) AS digits FROM unnest($1::text[]) AS code',
      [codes],
    )
    expect(Object.fromEntries(rows.map((row) => [row.code, Number(row.digits)]))).toEqual(
      Object.fromEntries(codes.map((code) => [code, minorDigits(code)])),
    )
  })

  test('every way a return changes keeps the tallies equal to the recount', async () => {
    // Refunded to the card once received and marked refunded.
    const card = await made(0, [returnItem('o0-tee', { reason_id: 'too_small' })], 'original_payment')
    for (const state of ['in_transit', 'received', 'refunded']) await move(card, state)
    // Store credit at once, with a kept mug; the jacket inspected as opened afterwards.
    const credit = await made(1, [returnItem('o1-jacket'), returnItem('o1-mug')], 'store_credit')
    await inspect(credit, [{ line_item_id: 'o1-jacket', condition: 'opened', disposition: 'refurbish' }])
    // An exchange, inspected and refunded: the new tee sent.
    const swap = await made(2, [returnItem('o2-tee', { exchange_variant_id: 'tee-l' })], 'original_payment')
    await inspect(swap, [{ line_item_id: 'o2-tee', condition: 'as_new', disposition: 'restock' }])
    // Over the review amount (the kept mug too): one rejected, one approved and then refunded less half.
    const rejected = await made(
      3,
      [returnItem('o3-jacket'), returnItem('o3-tee'), returnItem('o3-mug')],
      'original_payment',
    )
    await post('/admin/api/reviews', { return_ids: [rejected], decision: 'reject', reason: 'Worn.' })
    const approved = await made(
      4,
      [returnItem('o4-jacket'), returnItem('o4-tee'), returnItem('o4-mug')],
      'store_credit',
    )
    await post('/admin/api/reviews', { return_ids: [approved], decision: 'approve' })
    await inspect(approved, [
      { line_item_id: 'o4-jacket', condition: 'damaged', disposition: 'dispose' },
      { line_item_id: 'o4-tee', condition: 'as_new', disposition: 'restock' },
    ])
    // Cancelled, and closed with a reason, before anything moved.
    const cancelled = await made(5, [returnItem('o5-tee')], 'original_payment')
    await post(`/admin/api/returns/${cancelled}/cancel`)
    const closed = await made(6, [returnItem('o6-jacket', { reason_id: 'too_small' })], 'original_payment')
    await post(`/admin/api/returns/${closed}/close`, { reason: 'Lost in the post.' })
    // Only sent: nothing moved yet.
    const sent = await made(7, [returnItem('o7-jacket'), returnItem('o7-tee')], 'original_payment')
    await move(sent, 'in_transit')
    // Beneath the routes: a return asked for in October and refunded in November, another moved
    // to last year, an order's prices re-imported, a return deleted.
    const older = await made(8, [returnItem('o8-tee')], 'original_payment')
    for (const state of ['in_transit', 'received', 'refunded']) await move(older, state)
    await api.db.query('UPDATE returns SET created_at = $2 WHERE id = $1', [older, new Date('2026-10-15T09:00:00Z')])
    await api.db.query('UPDATE return_item_events SET at = $2 WHERE return_id = $1', [
      older,
      new Date('2026-11-02T23:59:59Z'),
    ])
    const lastYear = await made(9, [returnItem('o9-mug'), returnItem('o9-tee')], 'store_credit')
    await api.db.query('UPDATE returns SET created_at = $2 WHERE id = $1', [lastYear, new Date('2025-12-01T00:00:00Z')])
    await api.db.query(
      `UPDATE orders SET line_items = jsonb_set(line_items, '{1,price}', '"21.50"') WHERE id = (SELECT order_id FROM returns WHERE id = $1)`,
      [swap],
    )
    await api.db.query('DELETE FROM returns WHERE id = $1', [sent])

    const { kept, afresh } = await keptAndAfresh()
    expect(kept).toEqual(afresh)
    expect(kept.length).toBeGreaterThan(0)
    const periods: [string, string][] = [
      ['2026-10-01', '2026-10-31'],
      ['2026-11-01', '2026-11-30'],
      ['2026-11-02', '2026-11-02'],
      ['2025-11-28', '2026-11-27'],
      [NOW.toISOString().slice(0, 10), NOW.toISOString().slice(0, 10)],
    ]
    const insights = { refunded: 0, store_credit: 0, exchanges: 0, returns: 0 }
    for (const [from, to] of periods) {
      const start = new Date(`${from}T00:00:00Z`)
      const until = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000)
      const tallied = await findInsights(api.db, 'demo', start, until, 'EUR')
      const recounted = await recountInsights(api.db, 'demo', start, until, 'EUR')
      expect({ from, to, ...tallied }).toEqual({ from, to, ...recounted })
      insights.returns += tallied.returns
      for (const kind of ['refunded', 'store_credit', 'exchanges'] as const)
        insights[kind] += Number(tallied.outcomes[kind])
    }
    // The comparison saw money move of every kind, not only zeros.
    expect(Object.values(insights).every((sum) => sum > 0)).toBe(true)

    // The views: tallied (no search, no filter) and counted row by row (a filter every return passes).
    const tallied = await countReturnViews(api.db, 'demo', {})
    expect(tallied).toEqual(await countReturnViews(api.db, 'demo', { from: new Date('2000-01-01T00:00:00Z') }))
    expect(tallied).toEqual({ all: 9, needs_review: 0, to_receive: 1, to_refund: 0, done: 8 })
    expect(
      await api.db.query(
        'SELECT shop_id, state, review, n::int AS n FROM return_view_tallies WHERE n <> 0 ORDER BY 1, 2, 3',
      ),
    ).toEqual(
      await api.db.query(
        `SELECT shop_id, state, COALESCE(review, '') AS review, count(*)::int AS n FROM returns
          GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      ),
    )
  })
})
