import type { ReturnInstructions, ReturnOrder, ReturnRequest, ReturnStatus, VerifiedOrder } from '../../contract/api'
import { buildApp } from '../src/app'
import { signStatus } from '../src/domain/token'
import { ACME, bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'

const ADMIN_TOKEN = 'admin-token-for-status-tests'
const SECRET = Buffer.from('test-secret')
const DAY_MS = 86_400_000

describe.each(engines())('return status and refund timing on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, ['#1001', 'jane@example.com'], (ready) => ({ api, order } = ready), {
    adminToken: ADMIN_TOKEN,
  })

  const tee = () => order.line_items[0]!
  const mug = () => order.line_items[1]!
  const teeL = () =>
    order.exchange_data!.options[tee().variant_id!]!.find((id) => order.exchange_data!.variants[id]!.title === 'L')!

  /** The tee exchanged for L and the mug refunded by `method`. */
  const journey = (method: 'original_payment' | 'store_credit'): ReturnRequest => ({
    items: [
      { line_item_id: tee().id, quantity: 1, reason_id: 'too_small', exchange_variant_id: teeL() },
      { line_item_id: mug().id, quantity: 1, reason_id: 'changed_mind' },
    ],
    refund_method: method,
  })
  const submitted = async (method: 'original_payment' | 'store_credit' = 'original_payment') => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(order.token), 'idempotency-key': `status-${method}` },
      payload: journey(method),
    })
    expect(response.statusCode).toBe(201)
    return response.json<ReturnOrder>()
  }
  const instructions = async (id: string) => {
    const response = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/instructions`,
      headers: bearer(order.token),
    })
    expect(response.statusCode).toBe(200)
    return response.json<ReturnInstructions>()
  }
  const status = (id: string, signature: string | null, app = api.app) =>
    app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/status${signature === null ? '' : `?signature=${signature}`}`,
    })
  const advance = (id: string, body: unknown, token: string | null = ADMIN_TOKEN) =>
    api.app.inject({
      method: 'POST',
      url: `/admin/returns/${id}/status`,
      headers: token === null ? {} : bearer(token),
      payload: body as object,
    })

  test('a quote of the demo shop carries its refund timing per method', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      headers: bearer(order.token),
      payload: journey('store_credit'),
    })
    expect(response.json<ReturnOrder>().refund_timing).toEqual({
      original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
      store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
    })
  })

  test('a shop without refund timing quotes exactly as before: no refund_timing field at all', async () => {
    const ada = await verified(api.app, 'AC1001', 'ada@example.com', ACME)
    const line = ada.line_items[0]!
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      headers: bearer(ada.token),
      payload: { items: [{ line_item_id: line.id, quantity: 1, reason_id: ada.return_reasons[0]!.id }] },
    })
    expect(response.statusCode).toBe(200)
    expect(Object.keys(response.json<ReturnOrder>())).not.toContain('refund_timing')
  })

  test('the instructions sign a status link that shows the new return: items requested, refund with timing, label and QR', async () => {
    const made = await submitted('store_credit')
    const { status_token: token } = await instructions(made.id!)
    expect(token).toBe(signStatus(SECRET, made.id!))
    const response = await status(made.id!, token)
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['referrer-policy']).toBe('no-referrer')
    const view = response.json<ReturnStatus>()
    expect(view).toMatchObject({
      return_id: made.id,
      return_name: '#1001-R1',
      created_at: NOW.toISOString(),
      address: { city: 'Hamburg' },
    })
    expect(view.items).toEqual([
      expect.objectContaining({
        line_item_id: tee().id,
        title: 'Classic Tee',
        variant_title: 'M',
        quantity: 1,
        exchange_variant_title: 'L',
        state: 'requested',
        history: [{ state: 'requested', at: NOW.toISOString() }],
      }),
      expect.objectContaining({
        line_item_id: mug().id,
        title: 'Ceramic Mug',
        exchange_variant_title: null,
        state: 'requested',
        image_src: expect.stringMatching(/mug/),
      }),
    ])
    // Store credit comes at once, on submission: issued then, so the mug's refund is no step still to come.
    expect(view.items.map((item) => item.states)).toEqual([
      ['requested', 'in_transit', 'received', 'refunded'],
      ['requested', 'in_transit', 'received'],
    ])
    expect(view.refund).toEqual({
      method: 'store_credit',
      amount: made.breakdown.total.presentment_money,
      timing: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
      expected: { from: '2026-11-20', to: '2026-11-20' },
      issued_at: NOW.toISOString(),
    })
    expect(view.label).toMatchObject({
      qr_code_value: expect.stringMatching(/^RB-/),
      qr_svg: expect.stringMatching(/^<svg/),
    })
    expect((await api.app.inject({ method: 'GET', url: view.label!.label_url })).statusCode).toBe(200)
  })

  test.each([
    ['a forged signature', (id: string) => signStatus(Buffer.from('another-secret'), id)],
    ['the signature of another return id', () => signStatus(SECRET, '00000000-0000-4000-8000-000000000000')],
    [
      'a label-shaped signature',
      (id: string) => signStatus(SECRET, id).replace(/^./, (first) => (first === 'A' ? 'B' : 'A')),
    ],
  ])('%s is a 404 that says only that the link is not valid', async (_name, signature) => {
    const made = await submitted()
    const response = await status(made.id!, signature(made.id!))
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'not_found', message: 'This status link is not valid.' })
  })

  test('a return that does not exist, with its own valid signature, looks like a forged link', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    const response = await status(id, signStatus(SECRET, id))
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'not_found', message: 'This status link is not valid.' })
  })

  test.each([
    ['no signature', null],
    ['a signature with characters no signature has', 'abc%2Fdef'],
  ])('%s is a 400', async (_name, signature) => {
    const made = await submitted()
    expect((await status(made.id!, signature)).statusCode).toBe(400)
  })

  test('a status link reaches the status page only: it is no session token and opens no other call', async () => {
    const made = await submitted()
    const token = signStatus(SECRET, made.id!)
    const asBearer = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${made.id}/instructions`,
      headers: bearer(token),
    })
    expect(asBearer.statusCode).toBe(401)
    const asLabel = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${made.id}/label.pdf?expires=9999999999&signature=${token}`,
    })
    expect(asLabel.statusCode).toBe(404)
  })

  test('a genuine link a year after the return was made is a 410 link_expired; a day before, it works', async () => {
    const made = await submitted()
    const token = signStatus(SECRET, made.id!)
    const at = async (ms: number) => {
      const later = await buildApp({ db: api.db, secret: SECRET, now: () => new Date(NOW.getTime() + ms) })
      try {
        return await status(made.id!, token, later)
      } finally {
        await later.close()
      }
    }
    expect((await at(364 * DAY_MS)).statusCode).toBe(200)
    const expired = await at(365 * DAY_MS)
    expect(expired.statusCode).toBe(410)
    expect(expired.json()).toEqual({ error: 'link_expired', message: 'This status link has expired.' })
  })

  test('the operator moves items forward: in transit, then received, when the refund’s dates become known and the label goes', async () => {
    const made = await submitted('original_payment')
    const token = signStatus(SECRET, made.id!)
    const moved = await advance(made.id!, { state: 'in_transit' })
    expect(moved.statusCode).toBe(200)
    expect(moved.json()).toEqual({
      return_id: made.id,
      status_token: token,
      items: expect.arrayContaining([
        { line_item_id: tee().id, state: 'in_transit' },
        { line_item_id: mug().id, state: 'in_transit' },
      ]),
    })
    let view = (await status(made.id!, token)).json<ReturnStatus>()
    expect(view.items.map((item) => item.state)).toEqual(['in_transit', 'in_transit'])
    expect(view.items[0]!.history.map((step) => step.state)).toEqual(['requested', 'in_transit'])
    // Original payment counts from receipt: no dates while the parcel travels.
    expect(view.refund).toMatchObject({
      method: 'original_payment',
      timing: { from_days: 5, to_days: 10, after: 'receipt' },
      expected: null,
    })
    expect(view.label).not.toBeNull()

    expect((await advance(made.id!, { state: 'received', line_item_ids: [mug().id] })).statusCode).toBe(200)
    view = (await status(made.id!, token)).json<ReturnStatus>()
    expect(view.items.map((item) => item.state)).toEqual(['in_transit', 'received'])
    // The mug is the only refunded item: its arrival (Friday 20 November) starts the count, 5 to 10 business days.
    expect(view.refund!.expected).toEqual({ from: '2026-11-27', to: '2026-12-04' })
    expect(view.label).not.toBeNull()

    expect((await advance(made.id!, { state: 'received', line_item_ids: [tee().id] })).statusCode).toBe(200)
    view = (await status(made.id!, token)).json<ReturnStatus>()
    expect(view.label).toBeNull()
  })

  test.each([
    ['backwards', [{ state: 'received' }, { state: 'in_transit' }], 'is already received'],
    ['to the same state again', [{ state: 'in_transit' }, { state: 'in_transit' }], 'is already in transit'],
    [
      'for a line not in the return',
      [{ state: 'in_transit', line_item_ids: ['li-1001-003'] }],
      '"li-1001-003" is not an item of this return',
    ],
  ])('moving items %s is a 422 that changes nothing', async (_name, steps, message) => {
    const made = await submitted()
    const token = signStatus(SECRET, made.id!)
    for (const step of steps.slice(0, -1)) expect((await advance(made.id!, step)).statusCode).toBe(200)
    const before = (await status(made.id!, token)).json<ReturnStatus>()
    const response = await advance(made.id!, steps.at(-1))
    expect(response.statusCode).toBe(422)
    expect(response.json()).toMatchObject({ error: 'invalid_transition', message: expect.stringContaining(message) })
    expect((await status(made.id!, token)).json<ReturnStatus>()).toEqual(before)
  })

  test.each([
    ['an unknown state', { state: 'lost' }, 'state'],
    ['requested (where every item starts)', { state: 'requested' }, 'state'],
    ['an unknown field', { state: 'received', note: 'x' }, 'note'],
    ['an empty list of lines', { state: 'received', line_item_ids: [] }, 'line_item_ids'],
  ])('an admin body with %s is a 400 naming the field', async (_name, body, field) => {
    const made = await submitted()
    const response = await advance(made.id!, body)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toContain(field)
  })

  test('moving items needs the admin token; an unknown return is a 404', async () => {
    const made = await submitted()
    expect((await advance(made.id!, { state: 'received' }, null)).statusCode).toBe(401)
    expect((await advance(made.id!, { state: 'received' }, 'wrong-token')).statusCode).toBe(401)
    expect((await advance('00000000-0000-4000-8000-000000000000', { state: 'received' })).statusCode).toBe(404)
  })

  test('without ADMIN_TOKEN there is no route to move items', async () => {
    const plain = await buildApp({ db: api.db, secret: SECRET, now: () => NOW })
    try {
      const made = await submitted()
      const response = await plain.inject({
        method: 'POST',
        url: `/admin/returns/${made.id}/status`,
        headers: bearer(ADMIN_TOKEN),
        payload: { state: 'received' },
      })
      expect(response.statusCode).toBe(404)
    } finally {
      await plain.close()
    }
  })

  test('demo order #1007 comes with a return in transit: the hoodie exchanged for L, the sneakers refunded to the original payment', async () => {
    const [row] = await api.db.query<{ id: string }>(
      "SELECT r.id FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = 'demo' AND o.name = '#1007'",
    )
    const response = await status(row!.id, signStatus(SECRET, row!.id))
    expect(response.statusCode).toBe(200)
    const view = response.json<ReturnStatus>()
    expect(view.return_name).toBe('#1007-R1')
    expect(view.created_at).toBe(new Date(NOW.getTime() - 3 * DAY_MS).toISOString())
    expect(view.items.map((item) => [item.title, item.variant_title, item.exchange_variant_title, item.state])).toEqual(
      [
        ['Everyday Hoodie', 'M', 'L', 'in_transit'],
        ['Court Sneakers', '41', null, 'in_transit'],
      ],
    )
    expect(view.items[1]!.history).toEqual([
      { state: 'requested', at: new Date(NOW.getTime() - 3 * DAY_MS).toISOString() },
      { state: 'in_transit', at: new Date(NOW.getTime() - 2 * DAY_MS).toISOString() },
    ])
    // 89.00 less the 3.95 fee.
    expect(view.refund).toMatchObject({
      method: 'original_payment',
      amount: { amount: '85.05', currency_code: 'EUR' },
      expected: null,
    })
    // The beanie was not returned and can still be.
    const again = await verified(api.app, '#1007', 'track@example.com')
    expect(again.line_items.map((line) => [line.title, line.returnable_quantity])).toEqual([
      ['Everyday Hoodie', 0],
      ['Court Sneakers', 0],
      ['Wool Beanie', 1],
    ])
  })
})
