import type {
  ApiError,
  ReturnInstructions,
  ReturnOrder,
  ReturnRequest,
  ReturnStatus,
  VerifiedOrder,
} from '../../contract/api'
import { buildApp } from '../src/app'
import { signStatus } from '../src/domain/token'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildShop,
  buildTrackedReturn,
  returnedUnit,
  type ShopSpec,
} from './builders'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'
import { arrayContaining, stringContaining, stringMatching } from './matchers'

const ADMIN_TOKEN = 'admin-token-for-status-tests'
/** What moving items answers: each item's state. */
type ItemStates = { return_id: string; status_token: string; items: { line_item_id: string; state: string }[] }
const SECRET = Buffer.from('test-secret')
const DAY_MS = 86_400_000

/** Store credit at once; the original payment 5 to 10 business days after the parcel arrives. */
const REFUND_TIMING = {
  original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
  store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
} as const
const ADDRESS = {
  name: 'North Returns',
  line1: 'Hafenstraße 12',
  city: 'Hamburg',
  postal_code: '20457',
  country_code: 'DE',
}
const CATALOGUE = [
  buildProduct({ id: 'tee', title: 'Classic Tee' }),
  buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00', image_src: '/images/mug.svg' }),
  buildProduct({ id: 'sneakers', title: 'Court Sneakers', sizes: ['41', '42'], price: '89.00' }),
  buildProduct({ id: 'socks', title: 'Cotton Socks', sizes: [], price: '6.00', image_src: '/images/socks.svg' }),
]
/** A shop with refund timing and a 3.95 return fee, 19 % tax included. */
const statusShop = (spec: ShopSpec) =>
  buildShop({
    settings: { return_fee: '3.95', refund_timing: REFUND_TIMING, upsell_enabled: true },
    return_reasons: [buildReason('too_small'), buildReason('changed_mind')],
    return_address: ADDRESS,
    catalogue: CATALOGUE,
    ...spec,
  })

/** #1001: two tees in M, a mug, a shirt. #1007: a return made before the import, in transit. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'li-tee', variant_id: 'tee-m', quantity: 2 }),
    buildLine({ id: 'li-mug', variant_id: 'mug-default', price: '14.00' }),
    buildLine({ id: 'li-other-tee', variant_id: 'tee-s' }),
  ],
})
const tracked = buildOrder({
  name: '#1007',
  email: 'track@example.com',
  line_items: [
    buildLine({ id: 'li-track-tee', variant_id: 'tee-m' }),
    buildLine({ id: 'li-track-sneakers', variant_id: 'sneakers-41', price: '89.00' }),
    buildLine({ id: 'li-track-mug', variant_id: 'mug-default', price: '14.00' }),
  ],
  tracked_returns: [
    buildTrackedReturn(
      [
        { ...returnedUnit('li-track-tee'), reason_id: 'too_small', exchange_variant_id: 'tee-l' },
        { ...returnedUnit('li-track-sneakers'), reason_id: 'too_small' },
      ],
      { created_at: 'now-3d', refund_method: 'original_payment', progress: { in_transit: 'now-2d' } },
    ),
  ],
})
const SHOP = statusShop({ shop: 'north', orders: [jane, tracked] })
/** A shop that says nothing of when refunds arrive. */
const untimed = buildOrder({ name: '#2001', email: 'ada@example.com' })
const UNTIMED = buildShop({ shop: 'south', orders: [untimed] })

describe.each(engines())('return status and refund timing on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, [SHOP, UNTIMED], [SHOP, jane], (ready) => ({ api, order } = ready), {
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

  test('a quote carries the shop’s refund timing per method', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns/quote',
      headers: bearer(order.token),
      payload: journey('store_credit'),
    })
    expect(response.json<ReturnOrder>().refund_timing).toEqual(REFUND_TIMING)
  })

  test('a shop without refund timing quotes exactly as before: no refund_timing field at all', async () => {
    const ada = await verified(api.app, UNTIMED, untimed)
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
        image_src: '/images/mug.svg',
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
      // Issued at once, so its code is there to spend (decision 0064).
      store_credit: {
        code: stringMatching(/^GC(-[0-9A-Z]{4}){4}$/),
        amount: made.breakdown.total.presentment_money,
        issued_at: NOW.toISOString(),
      },
    })
    expect(view.label).toMatchObject({
      qr_code_value: stringMatching(/^RB-/),
      qr_svg: stringMatching(/^<svg/),
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

  test('a new item taken with the return is on the status page, to be sent until the return is done, then sent', async () => {
    const made = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(order.token), 'idempotency-key': 'status-new-item' },
      payload: {
        items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'changed_mind' }],
        upsell_variant_id: 'socks-default',
        refund_method: 'original_payment',
      },
    })
    expect(made.json()).toMatchObject({ status: 'requested' })
    const id = made.json<ReturnOrder>().id!
    const token = signStatus(SECRET, id)
    const newItem = {
      variant_id: 'socks-default',
      product_title: 'Cotton Socks',
      price: {
        shop_money: { amount: '6.00', currency_code: 'EUR' },
        presentment_money: { amount: '6.00', currency_code: 'EUR' },
      },
      image_src: '/images/socks.svg',
    }
    expect((await status(id, token)).json<ReturnStatus>().new_item).toMatchObject({ ...newItem, state: 'to_be_sent' })
    for (const state of ['in_transit', 'received'] as const) expect((await advance(id, { state })).statusCode).toBe(200)
    expect((await status(id, token)).json<ReturnStatus>().new_item!.state).toBe('to_be_sent')
    expect((await advance(id, { state: 'refunded' })).statusCode).toBe(200)
    expect((await status(id, token)).json<ReturnStatus>().new_item).toMatchObject({ ...newItem, state: 'sent' })
  })

  test('the operator moves items forward: in transit, then received, when the refund’s dates become known; the label goes once all are on their way', async () => {
    const made = await submitted('original_payment')
    const token = signStatus(SECRET, made.id!)
    // One of two items on its way: the other still needs the parcel's label.
    expect((await advance(made.id!, { state: 'in_transit', line_item_ids: [tee().id] })).statusCode).toBe(200)
    expect((await status(made.id!, token)).json<ReturnStatus>().label).not.toBeNull()
    const moved = await advance(made.id!, { state: 'in_transit', line_item_ids: [mug().id] })
    expect(moved.statusCode).toBe(200)
    expect(moved.json()).toEqual({
      return_id: made.id,
      status_token: token,
      items: arrayContaining([
        { line_item_id: tee().id, state: 'in_transit' },
        { line_item_id: mug().id, state: 'in_transit' },
      ]),
    })
    let view = (await status(made.id!, token)).json<ReturnStatus>()
    // A return without a new item says nothing of one.
    expect(view).not.toHaveProperty('new_item')
    expect(view.items.map((item) => item.state)).toEqual(['in_transit', 'in_transit'])
    expect(view.items[0]!.history.map((step) => step.state)).toEqual(['requested', 'in_transit'])
    // Original payment counts from receipt: no dates while the parcel travels.
    expect(view.refund).toMatchObject({
      method: 'original_payment',
      timing: { from_days: 5, to_days: 10, after: 'receipt' },
      expected: null,
    })
    // Everything sent back is on its way: the label has done its work.
    expect(view.label).toBeNull()

    expect((await advance(made.id!, { state: 'received', line_item_ids: [mug().id] })).statusCode).toBe(200)
    view = (await status(made.id!, token)).json<ReturnStatus>()
    expect(view.items.map((item) => item.state)).toEqual(['in_transit', 'received'])
    // The mug is the only refunded item: its arrival (Friday 20 November) starts the count, 5 to 10 business days.
    expect(view.refund!.expected).toEqual({ from: '2026-11-27', to: '2026-12-04' })
    expect(view.label).toBeNull()

    expect((await advance(made.id!, { state: 'received', line_item_ids: [tee().id] })).statusCode).toBe(200)
    view = (await status(made.id!, token)).json<ReturnStatus>()
    expect(view.label).toBeNull()
  })

  test.each([
    ['backwards', [{ state: 'received' }, { state: 'in_transit' }], 'is already received'],
    ['to the same state again', [{ state: 'in_transit' }, { state: 'in_transit' }], 'is already in transit'],
    [
      'for a line not in the return',
      [{ state: 'in_transit', line_item_ids: ['li-other-tee'] }],
      '"li-other-tee" is not an item of this return',
    ],
  ])('moving items %s is a 422 that changes nothing', async (_name, steps, message) => {
    const made = await submitted()
    const token = signStatus(SECRET, made.id!)
    for (const step of steps.slice(0, -1)) expect((await advance(made.id!, step)).statusCode).toBe(200)
    const before = (await status(made.id!, token)).json<ReturnStatus>()
    const response = await advance(made.id!, steps.at(-1))
    expect(response.statusCode).toBe(422)
    expect(response.json()).toMatchObject({ error: 'invalid_transition', message: stringContaining(message) })
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
    expect(response.json<ApiError>().message).toContain(field)
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

  test('a return imported with its shop (tracked_returns) shows its items, how far they got and its priced refund', async () => {
    const [row] = await api.db.query<{ id: string }>(
      "SELECT r.id FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.shop_id = 'north' AND o.name = '#1007'",
    )
    const response = await status(row!.id, signStatus(SECRET, row!.id))
    expect(response.statusCode).toBe(200)
    const view = response.json<ReturnStatus>()
    expect(view.return_name).toBe('#1007-R1')
    expect(view.created_at).toBe(new Date(NOW.getTime() - 3 * DAY_MS).toISOString())
    expect(view.items.map((item) => [item.title, item.variant_title, item.exchange_variant_title, item.state])).toEqual(
      [
        ['Classic Tee', 'M', 'L', 'in_transit'],
        ['Court Sneakers', '41', null, 'in_transit'],
      ],
    )
    expect(view.items[1]!.history).toEqual([
      { state: 'requested', at: new Date(NOW.getTime() - 3 * DAY_MS).toISOString() },
      { state: 'in_transit', at: new Date(NOW.getTime() - 2 * DAY_MS).toISOString() },
    ])
    // 89.00 less the 3.95 fee; the tee is exchanged.
    expect(view.refund).toMatchObject({
      method: 'original_payment',
      amount: { amount: '85.05', currency_code: 'EUR' },
      expected: null,
    })
    // The mug was not returned and can still be.
    const again = await verified(api.app, SHOP, tracked)
    expect(again.line_items.map((line) => [line.title, line.returnable_quantity])).toEqual([
      ['Classic Tee', 0],
      ['Court Sneakers', 0],
      ['Ceramic Mug', 1],
    ])
  })
})

/**
 * The status of keep-item returns (#1010: socks at 9.90 are kept under the 10.00 threshold, a
 * beanie at 17.00 is sent; original payment arrives 5–10 business days after receipt). NOW is
 * Friday 20 November 2026.
 */
const SOCKS = 'li-socks'
const BEANIE = 'li-beanie'
const keeper = buildOrder({
  name: '#1010',
  email: 'keep@example.com',
  line_items: [
    buildLine({ id: SOCKS, variant_id: 'socks-default', quantity: 2, price: '9.90' }),
    buildLine({ id: BEANIE, variant_id: 'beanie-default', price: '17.00' }),
  ],
})
const keepShop = (shop: string, orders = [keeper]) =>
  statusShop({
    shop,
    settings: { return_fee: '3.95', refund_timing: REFUND_TIMING, keep_item_below: '10.00' },
    catalogue: [
      buildProduct({ id: 'socks', title: 'Cotton Socks', sizes: [], price: '9.90' }),
      buildProduct({ id: 'beanie', title: 'Wool Beanie', sizes: [], price: '17.00' }),
    ],
    orders,
  })
const KEEP = keepShop('keep')
/** The same shop, #1010 imported with a return that has gone on to be received. */
const TRACKED_KEEP = keepShop('trackkeep', [
  {
    ...keeper,
    tracked_returns: [
      buildTrackedReturn(
        [
          { ...returnedUnit(SOCKS, 2), reason_id: 'changed_mind' },
          { ...returnedUnit(BEANIE), reason_id: 'changed_mind' },
        ],
        { created_at: 'now-3d', progress: { in_transit: 'now-2d', received: 'now-1d' } },
      ),
    ],
  },
])

describe.each(engines())('status of kept items on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, [KEEP, TRACKED_KEEP], [KEEP, keeper], (ready) => ({ api, order } = ready), {
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

  test('mixed: the socks are kept (requested → refunded), the beanie has all four states; the label stays until the beanie is sent', async () => {
    const made = await submit(mixed)
    const view = await statusOf(made.id!)
    expect(view.items.map((item) => [item.line_item_id, item.keep, item.states, item.state])).toEqual([
      [SOCKS, true, ['requested', 'refunded'], 'requested'],
      [BEANIE, false, ['requested', 'in_transit', 'received', 'refunded'], 'requested'],
    ])
    expect(view.label).toMatchObject({ qr_code_value: stringMatching(/^RB-/) })
    // The money waits for the beanie's parcel.
    expect(view.refund).toMatchObject({ timing: { after: 'receipt' }, expected: null })
  })

  test('the operator: "every item" in transit or received passes the kept socks by; naming them is a 422; refunding them is fine', async () => {
    const made = await submit(mixed)
    const moved = await advance(made.id!, { state: 'in_transit' })
    expect(moved.statusCode).toBe(200)
    expect(moved.json<ItemStates>().items).toEqual(
      arrayContaining([
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
    // The beanie, the one item sent back, is on its way: no label any more.
    expect(view.label).toBeNull()
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
