import type { LightMyRequestResponse } from 'fastify'
import type { ReturnStatus } from '../../contract/api'
import type { CommerceEngine } from '../src/commerce/engine'
import type { EngineAction } from '../src/domain/engineActions'
import { signStatus } from '../src/domain/token'
import { claimDue } from '../src/storage/outbox'
import { buildLine, buildOrder, buildProduct, buildShop, returnItem } from './builders'
import { bearer, engines, loadShops, startApi, submitted, type TestApi, verified, demoStaffCookie } from './harness'

/**
 * The actions a return asks of the shop's commerce engine are written with the change that calls
 * for them (docs/commerce.md, decision 0078): for an order read from the engine only, each once.
 */

const HOST = 'demo.localhost'

/** An order read from the engine: a jacket at 45.00, a tee in M at 19.99 and a 4.00 mug the shopper keeps. */
const fromEngine = buildOrder({
  name: '#2001',
  email: 'ines@example.com',
  line_items: [
    buildLine({ id: 'ordli_jacket', variant_id: 'jacket-default', price: '45.00' }),
    buildLine({ id: 'ordli_tee', variant_id: 'tee-m', price: '19.99' }),
    buildLine({ id: 'ordli_mug', variant_id: 'mug-default', price: '4.00' }),
  ],
})
/** The same order, imported from a file: no engine. */
const fromFile = buildOrder({
  name: '#2002',
  email: 'jo@example.com',
  line_items: [
    buildLine({ id: 'file-jacket', variant_id: 'jacket-default', price: '45.00' }),
    buildLine({ id: 'file-tee', variant_id: 'tee-m', price: '19.99' }),
  ],
})
const DEMO = buildShop({
  shop: 'demo',
  settings: { keep_item_below: '5.00' },
  catalogue: [
    buildProduct(),
    buildProduct({ id: 'jacket', title: 'Rain Jacket', sizes: [], price: '45.00' }),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '4.00' }),
  ],
  orders: [fromEngine, fromFile],
  // A shopper's second return within 30 days waits for review.
  policy: { deductions: { opened: 10, damaged: 50 }, review: { frequent: { returns: 1, days: 30 } } },
})

interface ActionRow {
  id: string
  event: string
  target: string
  payload: { action: EngineAction }
}

describe.each(engines())('engine actions written by the use cases on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [], { limits: { verifyPerClient: 1000, verifyPerOrder: 1000, signInPerClient: 1000 } })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops; DELETE FROM outbox')
    await loadShops(api.db, [DEMO])
    // As verify stores an order it read from Medusa: the engine's order id beside the engine's line ids.
    await api.db.query("UPDATE orders SET engine_order_id = 'order_01MEDUSA' WHERE name = '#2001'")
    cookie = await demoStaffCookie(api)
  })

  const post = (url: string, payload: unknown) =>
    api.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      payload: payload as Record<string, unknown>,
    })
  const ok = (response: LightMyRequestResponse) => {
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 200 })
    return response
  }
  const status = async (id: string) =>
    (
      await api.app.inject({
        method: 'GET',
        url: `/portal-registration/returns/${id}/status?signature=${signStatus(Buffer.from('test-secret'), id)}`,
      })
    ).json<ReturnStatus>()
  const actions = (returnId: string) =>
    api.db.query<ActionRow>(
      "SELECT id, event, target, payload FROM outbox WHERE return_id = $1 AND channel = 'engine' ORDER BY seq",
      [returnId],
    )
  const allActions = () => api.db.query<ActionRow>("SELECT id FROM outbox WHERE channel = 'engine'")

  async function submit(
    order: typeof fromEngine,
    items: ReturnType<typeof returnItem>[],
    method: 'original_payment' | 'store_credit' = 'original_payment',
    key?: string,
  ) {
    const verifiedOrder = await verified(api.app, DEMO, order)
    const made = await submitted(api.app, verifiedOrder.token, { items, refund_method: method }, key)
    return { id: made.id!, token: verifiedOrder.token }
  }
  const everything = (prefix: string) => [
    returnItem(`${prefix}jacket`),
    returnItem(`${prefix}tee`),
    ...(prefix === 'ordli_' ? [returnItem('ordli_mug')] : []),
  ]

  test('a submit opens the return in the engine with the items sent back, once even when retried', async () => {
    const key = 'submit-once'
    const { id, token } = await submit(fromEngine, everything('ordli_'), 'original_payment', key)
    const again = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': key },
      payload: { items: everything('ordli_'), refund_method: 'original_payment' },
    })
    expect(again.statusCode).toBe(200)
    const rows = await actions(id)
    expect(rows.map((row) => ({ event: row.event, target: row.target, action: row.payload.action }))).toEqual([
      {
        event: 'engine.request_return',
        target: 'engine:demo',
        action: {
          kind: 'request_return',
          order_id: 'order_01MEDUSA',
          // The mug is kept (under 5.00): it never travels.
          items: [
            { line_item_id: 'ordli_jacket', quantity: 1 },
            { line_item_id: 'ordli_tee', quantity: 1 },
          ],
          note: 'Rebound #2001-R1: Changed mind',
        },
      },
    ])
  })

  test('an order not read from an engine writes no action, from submit to refund', async () => {
    const { id } = await submit(fromFile, everything('file-'))
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [
          { line_item_id: 'file-jacket', condition: 'as_new', disposition: 'restock' },
          { line_item_id: 'file-tee', condition: 'damaged', disposition: 'dispose' },
        ],
        refund: true,
      }),
    )
    expect(await allActions()).toEqual([])
  })

  test('the inspection that refunds receives the return (restock per item) and refunds exactly what is left', async () => {
    const { id } = await submit(fromEngine, everything('ordli_'))
    const [opened] = await actions(id)
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [
          { line_item_id: 'ordli_jacket', condition: 'opened', disposition: 'restock' },
          { line_item_id: 'ordli_tee', condition: 'damaged', disposition: 'dispose' },
        ],
        refund: true,
      }),
    )
    const shown = await status(id)
    // 68.99 less 4.50 (opened jacket) less 9.99 (damaged tee, 50 % of 19.99 rounded down) = 54.50
    expect(shown.refund?.amount).toEqual({ amount: '54.50', currency_code: 'EUR' })
    const rows = await actions(id)
    expect(rows.map((row) => row.payload.action)).toEqual([
      opened!.payload.action,
      {
        kind: 'receive_return',
        order_id: 'order_01MEDUSA',
        return_key: opened!.id,
        items: [
          { line_item_id: 'ordli_jacket', quantity: 1, restock: true },
          { line_item_id: 'ordli_tee', quantity: 1, restock: false },
        ],
      },
      { kind: 'refund', order_id: 'order_01MEDUSA', amount_minor: 5450, note: 'Rebound #2001-R1: Changed mind' },
    ])
  })

  test('a partial inspection receives nothing yet; the rest of the parcel receives it whole, then refunds', async () => {
    const { id } = await submit(fromEngine, everything('ordli_'))
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [{ line_item_id: 'ordli_jacket', condition: 'as_new', disposition: 'restock' }],
      }),
    )
    expect((await actions(id)).map((row) => row.event)).toEqual(['engine.request_return'])
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [{ line_item_id: 'ordli_tee', condition: 'as_new', disposition: 'dispose' }],
        refund: true,
      }),
    )
    const rows = await actions(id)
    expect(rows.map((row) => row.event)).toEqual(['engine.request_return', 'engine.receive_return', 'engine.refund'])
    expect(rows[1]!.payload.action).toMatchObject({
      items: [
        { line_item_id: 'ordli_jacket', restock: true },
        { line_item_id: 'ordli_tee', restock: false },
      ],
    })
    expect(rows[2]!.payload.action).toMatchObject({ amount_minor: 6899 })
  })

  test('staff moves: received waits for the item’s fate; refunded receives without restock, then refunds', async () => {
    const { id } = await submit(fromEngine, everything('ordli_'))
    ok(await post(`/admin/api/returns/${id}/status`, { state: 'received' }))
    expect((await actions(id)).map((row) => row.event)).toEqual(['engine.request_return'])
    ok(await post(`/admin/api/returns/${id}/status`, { state: 'refunded' }))
    // Told again: nothing moves, nothing more is written.
    expect((await post(`/admin/api/returns/${id}/status`, { state: 'refunded' })).statusCode).toBe(422)
    const rows = await actions(id)
    expect(rows.map((row) => row.payload.action)).toEqual([
      expect.objectContaining({ kind: 'request_return' }),
      {
        kind: 'receive_return',
        order_id: 'order_01MEDUSA',
        return_key: rows[0]!.id,
        items: [
          { line_item_id: 'ordli_jacket', quantity: 1, restock: false },
          { line_item_id: 'ordli_tee', quantity: 1, restock: false },
        ],
      },
      { kind: 'refund', order_id: 'order_01MEDUSA', amount_minor: 6899, note: 'Rebound #2001-R1: Changed mind' },
    ])
  })

  test('store credit: the code the status page shows, its amount, currency and the shopper’s e-mail', async () => {
    const { id } = await submit(fromEngine, [returnItem('ordli_jacket')], 'store_credit')
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [{ line_item_id: 'ordli_jacket', condition: 'as_new', disposition: 'restock' }],
        refund: true,
      }),
    )
    const credit = (await status(id)).refund?.store_credit
    expect(credit?.code).toMatch(/^GC-/)
    const rows = await actions(id)
    expect(rows.map((row) => row.payload.action)).toEqual([
      expect.objectContaining({ kind: 'request_return' }),
      expect.objectContaining({ kind: 'receive_return' }),
      {
        kind: 'store_credit',
        code: credit!.code,
        amount_minor: 4500,
        currency: 'EUR',
        email: 'ines@example.com',
      },
    ])
  })

  test('an exchange released by the inspection asks for the exchange order: the returned line and the new variant', async () => {
    const { id } = await submit(fromEngine, [
      returnItem('ordli_tee', { exchange_variant_id: 'tee-l' }),
      returnItem('ordli_jacket'),
    ])
    // The exchanged tee comes back through the engine's exchange, not its return.
    expect((await actions(id)).map((row) => row.payload.action)).toEqual([
      expect.objectContaining({ kind: 'request_return', items: [{ line_item_id: 'ordli_jacket', quantity: 1 }] }),
    ])
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [
          { line_item_id: 'ordli_tee', condition: 'as_new', disposition: 'restock' },
          { line_item_id: 'ordli_jacket', condition: 'as_new', disposition: 'restock' },
        ],
        refund: true,
      }),
    )
    const rows = await actions(id)
    expect(rows.map((row) => row.payload.action)).toEqual([
      expect.objectContaining({ kind: 'request_return' }),
      expect.objectContaining({
        kind: 'receive_return',
        items: [{ line_item_id: 'ordli_jacket', quantity: 1, restock: true }],
      }),
      expect.objectContaining({ kind: 'refund', amount_minor: 4500 }),
      {
        kind: 'exchange',
        order_id: 'order_01MEDUSA',
        return_items: [{ line_item_id: 'ordli_tee', quantity: 1 }],
        new_items: [{ variant_id: 'tee-l', quantity: 1 }],
      },
    ])
  })

  test('a return that waits for review opens nothing in the engine until staff approve it', async () => {
    await submit(fromEngine, [returnItem('ordli_jacket')])
    const { id } = await submit(fromEngine, [returnItem('ordli_tee')])
    expect((await status(id)).review?.state).toBe('pending')
    expect(await actions(id)).toEqual([])
    ok(await post('/admin/api/reviews', { return_ids: [id], decision: 'approve' }))
    expect((await actions(id)).map((row) => row.payload.action)).toEqual([
      {
        kind: 'request_return',
        order_id: 'order_01MEDUSA',
        items: [{ line_item_id: 'ordli_tee', quantity: 1 }],
        note: 'Rebound #2001-R2: Changed mind',
      },
    ])
  })

  test('cancelling a return opened in the engine cancels it there, naming its opening, once', async () => {
    const { id } = await submit(fromEngine, everything('ordli_'))
    ok(await post(`/admin/api/returns/${id}/cancel`, {}))
    expect((await post(`/admin/api/returns/${id}/cancel`, {})).statusCode).toBe(409)
    const rows = await actions(id)
    expect(rows.map((row) => row.payload.action.kind)).toEqual(['request_return', 'cancel_return'])
    expect(rows[1]).toMatchObject({
      event: 'engine.cancel_return',
      target: 'engine:demo',
      payload: { action: { kind: 'cancel_return', order_id: 'order_01MEDUSA', return_key: rows[0]!.id } },
    })
  })

  test('cancelling a return never opened in the engine (waiting for review) asks nothing of it', async () => {
    await submit(fromEngine, [returnItem('ordli_jacket')])
    const { id } = await submit(fromEngine, [returnItem('ordli_tee')])
    ok(await post(`/admin/api/returns/${id}/cancel`, {}))
    expect(await actions(id)).toEqual([])
  })

  test('a held exchange asks for nothing until staff release it', async () => {
    const { id } = await submit(fromEngine, [returnItem('ordli_tee', { exchange_variant_id: 'tee-l' })])
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [{ line_item_id: 'ordli_tee', condition: 'wrong_item', disposition: 'dispose' }],
        refund: true,
      }),
    )
    expect(await actions(id)).toEqual([])
    ok(await post(`/admin/api/returns/${id}/status`, { state: 'refunded' }))
    expect((await actions(id)).map((row) => row.payload.action)).toEqual([
      expect.objectContaining({ kind: 'exchange', new_items: [{ variant_id: 'tee-l', quantity: 1 }] }),
    ])
  })
})

describe.each(engines())('the exchange e-mail waits for the engine’s exchange on %s', (engine) => {
  let api: TestApi
  let cookie: string
  /** the fake engine holds the exchange until the test lets it go */
  let release: () => void = () => {}
  let exchangeAsked: Promise<void>
  let askedExchange: () => void = () => {}
  const fake: CommerceEngine = {
    name: 'fake',
    async carryOut(action) {
      if (action.kind !== 'exchange') return { reference: `${action.kind}_ref`, alreadyDone: false }
      askedExchange()
      await new Promise<void>((resolve) => (release = resolve))
      return { reference: 'exch_01FAKE', alreadyDone: false }
    },
  }
  beforeAll(async () => {
    exchangeAsked = new Promise((resolve) => (askedExchange = resolve))
    api = await startApi(engine, [DEMO], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, signInPerClient: 1000 },
      now: () => new Date(),
      engines: { forShop: () => Promise.resolve(fake) },
      delivery: { pollMs: 50, allowPrivateNetworks: false },
    })
    await api.db.query("UPDATE orders SET engine_order_id = 'order_01MEDUSA' WHERE name = '#2001'")
    cookie = await demoStaffCookie(api)
  })
  afterAll(async () => {
    release()
    await api.close()
  })

  const rowsOf = (returnId: string) =>
    api.db.query<{ id: string; event: string; state: string; message: { text: string } | null }>(
      'SELECT id, event, state, message FROM outbox WHERE return_id = $1 ORDER BY seq',
      [returnId],
    )
  async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 30_000
    for (;;) {
      const value = await read()
      if (check(value)) return value
      if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`)
      await new Promise((next) => setTimeout(next, 50))
    }
  }

  test('sent once the exchange is made, naming it', async () => {
    const order = await verified(api.app, DEMO, fromEngine)
    const made = await submitted(api.app, order.token, {
      items: [returnItem('ordli_tee', { exchange_variant_id: 'tee-l' })],
      refund_method: 'original_payment',
    })
    const id = made.id!
    const inspected = await api.app.inject({
      method: 'POST',
      url: `/admin/api/returns/${id}/inspection`,
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      payload: { items: [{ line_item_id: 'ordli_tee', condition: 'as_new', disposition: 'restock' }], refund: true },
    })
    expect(inspected.statusCode).toBe(200)
    await exchangeAsked
    // Everything else has gone, and the engine is making the exchange: a claim now leaves the e-mail.
    await until(
      () => rowsOf(id),
      (rows) =>
        rows.every((row) => row.state !== 'pending' || ['email.new_item_sent', 'engine.exchange'].includes(row.event)),
    )
    const claimed = await claimDue(api.db, new Date(), new Date(Date.now() + 60_000), 10)
    expect(claimed.map((row) => row.event)).toEqual([])
    expect((await rowsOf(id)).find((row) => row.event === 'email.new_item_sent')!.state).toBe('pending')
    release()
    const sent = await until(
      async () => (await rowsOf(id)).find((row) => row.event === 'email.new_item_sent')!,
      (row) => row.state === 'kept',
    )
    expect(sent.message!.text).toContain('Your exchange order in the shop: exch_01FAKE')
  })
})
