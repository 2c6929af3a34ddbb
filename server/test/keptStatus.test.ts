import type { ReturnOrder, ReturnRequest, ReturnStatus, VerifiedOrder } from '../../contract/api'
import { buildApp } from '../src/app'
import { signStatus } from '../src/domain/token'
import { DEMO_SHOP_FILES, readDemoShop } from '../src/import/demoShops'
import type { ShopFile } from '../src/import/shopFile'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'

const ADMIN_TOKEN = 'admin-token-for-kept-status-tests'
const SECRET = Buffer.from('test-secret')
const DAY_MS = 86_400_000
const SOCKS = 'li-1010-001'
const BEANIE = 'li-1010-002'

/**
 * The status of keep-item returns on the demo shop (#1010: socks at 9.90 are kept, a beanie at
 * 17.00 is sent; original payment arrives 5–10 business days after receipt). NOW is Friday
 * 20 November 2026.
 */
describe.each(engines())('status of kept items on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, ['#1010', 'keep@example.com'], (ready) => ({ api, order } = ready), {
    adminToken: ADMIN_TOKEN,
  })

  const socksOnly: ReturnRequest = {
    items: [{ line_item_id: SOCKS, quantity: 2, reason_id: 'changed_mind' }],
    refund_method: 'original_payment',
  }
  const mixed: ReturnRequest = {
    items: [
      { line_item_id: SOCKS, quantity: 1, reason_id: 'changed_mind' },
      { line_item_id: BEANIE, quantity: 1, reason_id: 'changed_mind' },
    ],
    refund_method: 'original_payment',
  }
  const submit = async (body: ReturnRequest) => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(order.token), 'idempotency-key': 'kept-status-0001' },
      payload: body,
    })
    expect(response.statusCode).toBe(201)
    return response.json<ReturnOrder>()
  }
  const statusOf = async (id: string) => {
    const response = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/status?signature=${signStatus(SECRET, id)}`,
    })
    expect(response.statusCode).toBe(200)
    return response.json<ReturnStatus>()
  }
  const advance = async (id: string, body: object, at = NOW) => {
    const app =
      at === NOW ? api.app : await buildApp({ db: api.db, secret: SECRET, now: () => at, adminToken: ADMIN_TOKEN })
    try {
      return await app.inject({
        method: 'POST',
        url: `/admin/returns/${id}/status`,
        headers: bearer(ADMIN_TOKEN),
        payload: body,
      })
    } finally {
      if (app !== api.app) await app.close()
    }
  }
  const states = (view: ReturnStatus) => view.items.map((item) => [item.line_item_id, item.state])

  test('mixed: the socks are kept (requested → refunded), the beanie has all four states; the label stays for the beanie', async () => {
    const made = await submit(mixed)
    const view = await statusOf(made.id!)
    expect(view.items.map((item) => [item.line_item_id, item.keep, item.states, item.state])).toEqual([
      [SOCKS, true, ['requested', 'refunded'], 'requested'],
      [BEANIE, false, ['requested', 'in_transit', 'received', 'refunded'], 'requested'],
    ])
    expect(view.label).toMatchObject({ qr_code_value: expect.stringMatching(/^RB-/) })
    // The money waits for the beanie's parcel.
    expect(view.refund).toMatchObject({ timing: { after: 'receipt' }, expected: null })
  })

  test('the operator: "every item" in transit or received passes the kept socks by; naming them is a 422; refunding them is fine', async () => {
    const made = await submit(mixed)
    const moved = await advance(made.id!, { state: 'in_transit' })
    expect(moved.statusCode).toBe(200)
    expect(moved.json().items).toEqual(
      expect.arrayContaining([
        { line_item_id: SOCKS, state: 'requested' },
        { line_item_id: BEANIE, state: 'in_transit' },
      ]),
    )
    const before = await statusOf(made.id!)
    for (const state of ['in_transit', 'received']) {
      const refused = await advance(made.id!, { state, line_item_ids: [SOCKS] })
      expect(refused.statusCode).toBe(422)
      expect(refused.json()).toEqual({
        error: 'invalid_transition',
        message: `line_item_ids: "${SOCKS}" is kept by the shopper (not sent back), so it is never ${state.replace('_', ' ')}`,
      })
      // With a sent item beside it, nothing moves either.
      expect((await advance(made.id!, { state, line_item_ids: [BEANIE, SOCKS] })).statusCode).toBe(422)
    }
    expect(await statusOf(made.id!)).toEqual(before)

    expect((await advance(made.id!, { state: 'refunded', line_item_ids: [SOCKS] })).statusCode).toBe(200)
    let view = await statusOf(made.id!)
    expect(states(view)).toEqual([
      [SOCKS, 'refunded'],
      [BEANIE, 'in_transit'],
    ])
    expect(view.items[0]!.history.map((step) => step.state)).toEqual(['requested', 'refunded'])
    expect(view.label).not.toBeNull()
    expect(view.refund!.expected).toBeNull()

    // The beanie arrives on Monday 23 November: the dates count from its receipt, not from the submission.
    expect((await advance(made.id!, { state: 'received' }, new Date(NOW.getTime() + 3 * DAY_MS))).statusCode).toBe(200)
    view = await statusOf(made.id!)
    expect(states(view)).toEqual([
      [SOCKS, 'refunded'],
      [BEANIE, 'received'],
    ])
    expect(view.refund!.expected).toEqual({ from: '2026-11-30', to: '2026-12-07' })
    expect(view.label).toBeNull()
  })

  test('moving every item to refunded takes the kept socks along', async () => {
    const made = await submit(mixed)
    expect((await advance(made.id!, { state: 'refunded' })).statusCode).toBe(200)
    expect(states(await statusOf(made.id!))).toEqual([
      [SOCKS, 'refunded'],
      [BEANIE, 'refunded'],
    ])
  })

  test('every item kept: no label or QR, and a refund "after receipt" counts from the submission', async () => {
    const made = await submit(socksOnly)
    const view = await statusOf(made.id!)
    expect(view.items.map((item) => [item.line_item_id, item.keep, item.states, item.state, item.quantity])).toEqual([
      [SOCKS, true, ['requested', 'refunded'], 'requested', 2],
    ])
    expect(view.label).toBeNull()
    // 5 to 10 business days from Friday 20 November.
    expect(view.refund).toEqual({
      method: 'original_payment',
      amount: { amount: '19.80', currency_code: 'EUR' },
      timing: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
      expected: { from: '2026-11-27', to: '2026-12-04' },
    })
  })

  test('every item kept as store credit at once: refunded on submission, its two steps both reached then', async () => {
    const made = await submit({ ...socksOnly, refund_method: 'store_credit' })
    const view = await statusOf(made.id!)
    expect(view.items.map((item) => [item.line_item_id, item.states, item.state, item.history])).toEqual([
      [
        SOCKS,
        ['requested', 'refunded'],
        'refunded',
        [
          { state: 'requested', at: NOW.toISOString() },
          { state: 'refunded', at: NOW.toISOString() },
        ],
      ],
    ])
    expect(view.refund).toMatchObject({ method: 'store_credit', issued_at: NOW.toISOString() })
  })

  test('original payment after receipt is no refund issued on submission: the kept item waits as before', async () => {
    const view = await statusOf((await submit(socksOnly)).id!)
    expect(view.refund).not.toHaveProperty('issued_at')
    expect(states(view)).toEqual([[SOCKS, 'requested']])
  })

  test('every item kept: moving "every item" in transit or received is a 422 saying nothing is sent; refunded works', async () => {
    const made = await submit(socksOnly)
    for (const state of ['in_transit', 'received']) {
      const refused = await advance(made.id!, { state })
      expect(refused.statusCode).toBe(422)
      expect(refused.json()).toEqual({
        error: 'invalid_transition',
        message: `state: every item of this return is kept by the shopper (nothing is sent back), so none is ever ${state.replace('_', ' ')}`,
      })
    }
    expect((await advance(made.id!, { state: 'refunded' })).statusCode).toBe(200)
    const view = await statusOf(made.id!)
    expect(states(view)).toEqual([[SOCKS, 'refunded']])
    expect(view.refund!.expected).toEqual({ from: '2026-11-27', to: '2026-12-04' })
  })

  test('a tracked return in a shop file: its progress in transit and received concerns the items sent; a kept item is refunded only', async () => {
    const file = readDemoShop(DEMO_SHOP_FILES[0]!) as ShopFile
    file.shop = 'trackkeep'
    file.config.portal_id = 'portal-trackkeep'
    const o1010 = file.orders.find((entry) => entry.name === '#1010')!
    o1010.tracked_returns = [
      {
        created_at: 'now-3d',
        refund_method: 'original_payment',
        items: [
          { line_item_id: SOCKS, quantity: 2, reason_id: 'changed_mind' },
          { line_item_id: BEANIE, quantity: 1, reason_id: 'changed_mind' },
        ],
        progress: { in_transit: 'now-2d', received: 'now-1d' },
      },
    ]
    expect(
      (await api.app.inject({ method: 'POST', url: '/admin/shops', headers: bearer(ADMIN_TOKEN), payload: file }))
        .statusCode,
    ).toBe(201)
    const [row] = await api.db.query<{ id: string }>(
      "SELECT r.id FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = 'trackkeep' AND o.name = '#1010'",
    )
    const view = await statusOf(row!.id)
    expect(
      view.items.map((item) => [item.line_item_id, item.keep, item.state, item.history.map((step) => step.state)]),
    ).toEqual([
      [SOCKS, true, 'requested', ['requested']],
      [BEANIE, false, 'received', ['requested', 'in_transit', 'received']],
    ])
    expect(view.label).toBeNull()
  })
})
