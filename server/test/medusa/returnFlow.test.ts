import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { ReturnStatus } from '../../../contract/api'
import { fromMinor, toMinor } from '../../../contract/money'
import { medusaClient, type MedusaClient } from '../../src/commerce/medusa'
import { medusaEngine } from '../../src/commerce/medusaEngine'
import { buildApp } from '../../src/app'
import { hashPassword } from '../../src/domain/passwords'
import { signStatus } from '../../src/domain/token'
import type { OrderFile, ShopFile } from '../../src/import/shopFile'
import type { Database } from '../../src/storage/database'
import { addStaff } from '../../src/storage/staff'
import { buildLine, buildShop, returnItem } from '../builders'
import { loadShops, NOW, openTestDatabase, staffCookie, submitted, verified } from '../harness'
import { placeOrder, startMedusa, stockedQuantity, type Medusa, type PlacedOrder } from './engine'

/**
 * A return's whole way through a real Medusa 2.21 (docs/commerce.md, decision 0078): an order
 * placed in Medusa and stored in Rebound with Medusa's ids, a return submitted through the portal,
 * inspected with one item restocked through the console's API and refunded; the delivery loop, as
 * shipped (its poll, woken by each change), carries each action out in Medusa.
 */

const running = Boolean(process.env.TEST_DATABASE_URL)
if (!running && process.env.CI) throw new Error('TEST_DATABASE_URL is not set: the Medusa suite needs PostgreSQL')

const PASSWORD = 'correct horse battery'
const HOST = 'north.localhost'
const SECRET = Buffer.from('test-secret')

interface ActionRow {
  id: string
  event: string
  state: string
  reference: string | null
  last_error: string | null
}

;(running ? describe : describe.skip)('a return from submit to refund, carried out in a real Medusa', () => {
  let medusa: Medusa
  let client: MedusaClient
  let db: Database
  let app: FastifyInstance
  let cookie = ''
  /** the figures measured, for the report */
  const figures: Record<string, number> = {}

  beforeAll(async () => {
    medusa = await startMedusa()
    client = medusaClient({
      url: medusa.url,
      secretApiKey: medusa.secretApiKey,
      stockLocationId: medusa.stockLocationId,
    })
    db = await openTestDatabase('postgres')
    const engine = medusaEngine(client)
    app = await buildApp({
      db,
      secret: SECRET,
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0, signInPerClient: 1000 },
      engines: { forShop: (shop) => Promise.resolve(shop === 'north' ? engine : null) },
      // The loop as shipped: its poll is not shortened here.
      delivery: { allowPrivateNetworks: true },
    })
  }, 30 * 60_000)
  afterAll(async () => {
    if (Object.keys(figures).length > 0) console.log(`return flow figures (ms): ${JSON.stringify(figures)}`)
    await app?.close()
    await db?.close()
    await medusa?.stop()
  })

  /** The Medusa order as Rebound stores it: Medusa's line and variant ids, its prices, and its id beside. */
  function shopWith(placed: PlacedOrder): { shop: ShopFile; order: OrderFile } {
    const [tee, cap] = placed.lineItems
    const price = (major: number) => fromMinor(Math.round(major * 100), 'EUR')
    const order: OrderFile = {
      name: `#${placed.displayId}`,
      email: placed.email,
      processed_at: 'now-2d',
      fulfilled_at: 'now-1d',
      line_items: [
        buildLine({ id: tee!.id, variant_id: tee!.variantId, price: price(tee!.unitPrice), tax_rate: '0' }),
        buildLine({ id: cap!.id, variant_id: cap!.variantId, price: price(cap!.unitPrice), tax_rate: '0' }),
      ],
    }
    const shop = buildShop({
      shop: 'north',
      catalogue: [
        {
          id: 'tee',
          title: 'Classic Tee',
          variants: [{ id: tee!.variantId, options: [{ name: 'Size', value: 'M' }], price: price(tee!.unitPrice) }],
        },
        { id: 'cap', title: 'Wool cap', variants: [{ id: cap!.variantId, options: [], price: price(cap!.unitPrice) }] },
      ],
      orders: [order],
      policy: { deductions: { opened: 10 } },
    })
    return { shop, order }
  }

  const post = (url: string, payload: unknown) =>
    app.inject({
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
      await app.inject({
        method: 'GET',
        url: `/portal-registration/returns/${id}/status?signature=${signStatus(SECRET, id)}`,
      })
    ).json<ReturnStatus>()
  const actions = (returnId: string) =>
    db.query<ActionRow>(
      "SELECT id, event, state, reference, last_error FROM outbox WHERE return_id = $1 AND channel = 'engine' ORDER BY seq",
      [returnId],
    )

  /** Waits until `check` holds (what the loop carries out shows in Medusa), giving how long it took. */
  async function until<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<number> {
    const started = performance.now()
    const deadline = Date.now() + 120_000
    for (;;) {
      const value = await read()
      if (check(value)) return performance.now() - started
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`)
      await new Promise((next) => setTimeout(next, 50))
    }
  }

  /** An order placed in Medusa, stored in Rebound from it, and its return submitted through the portal. */
  async function submittedReturn(email: string, method: 'original_payment' | 'store_credit') {
    const placed = await placeOrder(medusa, {
      email,
      items: [
        { sku: 'TEE-M', quantity: 1 },
        { sku: 'CAP', quantity: 1 },
      ],
    })
    const { shop, order } = shopWith(placed)
    await loadShops(db, [shop])
    // As verify stores an order it read from Medusa.
    await db.query('UPDATE orders SET engine_order_id = $1 WHERE shop_id = $2 AND name = $3', [
      placed.orderId,
      'north',
      order.name,
    ])
    // Staff keep their access across the shop's reloads: added once.
    if (!cookie) {
      await addStaff(db, 'north', 'staff@north.example', await hashPassword(PASSWORD), NOW)
      cookie = await staffCookie(app, 'staff@north.example', PASSWORD, HOST)
    }
    const token = (await verified(app, shop, order)).token
    const made = await submitted(app, token, {
      items: placed.lineItems.map((line) => returnItem(line.id)),
      refund_method: method,
    })
    return { placed, id: made.id! }
  }

  /** Inspects both items (the tee as new, restocked; the cap opened, disposed of) and issues the refund. */
  async function inspectAndRefund(placed: PlacedOrder, id: string) {
    const [tee, cap] = placed.lineItems
    ok(
      await post(`/admin/api/returns/${id}/inspection`, {
        items: [
          { line_item_id: tee!.id, condition: 'as_new', disposition: 'restock' },
          { line_item_id: cap!.id, condition: 'opened', disposition: 'dispose' },
        ],
        refund: true,
      }),
    )
  }

  test('refunded to the payment: the return received in Medusa, one item restocked, the refund as Rebound’s', async () => {
    const { placed, id } = await submittedReturn('ines@example.com', 'original_payment')
    const [opened] = await actions(id)
    expect(opened).toMatchObject({ event: 'engine.request_return' })
    figures.submitToReturnRequested = await until(
      'the return requested in Medusa',
      async () => (await actions(id))[0]!,
      (row) => row.state === 'delivered',
    )
    const medusaReturnId = (await actions(id))[0]!.reference!
    expect(await client.getReturn(medusaReturnId)).toMatchObject({ orderId: placed.orderId, status: 'requested' })

    const teeBefore = await stockedQuantity(medusa, 'TEE-M')
    const capBefore = await stockedQuantity(medusa, 'CAP')
    const confirmed = performance.now()
    await inspectAndRefund(placed, id)
    const refund = (await status(id)).refund!
    // 25.50 + 19.99, less 10 % of the opened cap (1.99): 43.50.
    expect(refund.amount).toEqual({ amount: '43.50', currency_code: 'EUR' })
    const refundMinor = toMinor(refund.amount.amount, 'EUR')
    await until(
      'the refund in Medusa',
      () => client.refundsOf(placed.orderId),
      (refunds) => refunds.length > 0,
    )
    figures.inspectionConfirmToRefundInMedusa = Math.round(performance.now() - confirmed)

    expect((await client.refundsOf(placed.orderId)).map((one) => one.amountMinor)).toEqual([refundMinor])
    expect(await client.getReturn(medusaReturnId)).toMatchObject({ status: 'received' })
    expect(await stockedQuantity(medusa, 'TEE-M')).toBe(teeBefore + 1)
    expect(await stockedQuantity(medusa, 'CAP')).toBe(capBefore)
    const rows = await actions(id)
    expect(rows.map((row) => [row.event, row.state, row.last_error])).toEqual([
      ['engine.request_return', 'delivered', null],
      ['engine.receive_return', 'delivered', null],
      ['engine.refund', 'delivered', null],
    ])
    expect(rows[1]!.reference).toBe(medusaReturnId)
    // Where the time goes: each action's attempt in Medusa.
    const attempts = await db.query<{ event: string; duration_ms: number }>(
      `SELECT o.event, a.duration_ms FROM delivery_attempts a JOIN outbox o ON o.seq = a.outbox_seq
        WHERE o.return_id = $1 AND o.channel = 'engine' ORDER BY a.outbox_seq, a.attempt`,
      [id],
    )
    for (const attempt of attempts) figures[`attempt ${attempt.event}`] = attempt.duration_ms
  })

  test('cancelled by staff: the return opened in Medusa is cancelled there, once', async () => {
    const { placed, id } = await submittedReturn('max@example.com', 'original_payment')
    // At once after the submit: the cancel waits behind the opening, whether it is done yet or not.
    const cancelled = performance.now()
    ok(await post(`/admin/api/returns/${id}/cancel`, {}))
    await until(
      'the cancel carried out',
      () => actions(id),
      (rows) => rows.length === 2 && rows.every((row) => row.state !== 'pending'),
    )
    figures.cancelToCanceledInMedusa = Math.round(performance.now() - cancelled)
    const [opened, cancel] = await actions(id)
    expect([opened, cancel].map((row) => [row!.event, row!.state, row!.last_error])).toEqual([
      ['engine.request_return', 'delivered', null],
      ['engine.cancel_return', 'delivered', null],
    ])
    expect(cancel!.reference).toBe(opened!.reference)
    expect(await client.getReturn(opened!.reference!)).toMatchObject({ orderId: placed.orderId, status: 'canceled' })
    // Told again under the same key (an answer lost), the cancel finds it done.
    const again = await medusaEngine(client).carryOut(
      { kind: 'cancel_return', order_id: placed.orderId, return_key: opened!.id },
      cancel!.id,
    )
    expect(again).toEqual({ reference: opened!.reference, alreadyDone: true })
  })

  test('refunded as store credit: Medusa’s promotion code is the code on the status page', async () => {
    const { placed, id } = await submittedReturn('jo@example.com', 'store_credit')
    const confirmed = performance.now()
    await inspectAndRefund(placed, id)
    const credit = (await status(id)).refund!.store_credit!
    expect(credit.code).toMatch(/^GC-/)
    await until(
      'the promotion in Medusa',
      () => client.findPromotionByCode(credit.code),
      (promotion) => promotion !== null,
    )
    figures.inspectionConfirmToStoreCreditInMedusa = Math.round(performance.now() - confirmed)
    const promotion = (await client.findPromotionByCode(credit.code))!
    expect(promotion).toMatchObject({ code: credit.code, status: 'active', limit: 1 })
    const rows = await actions(id)
    expect(rows.map((row) => [row.event, row.state])).toEqual([
      ['engine.request_return', 'delivered'],
      ['engine.receive_return', 'delivered'],
      ['engine.store_credit', 'delivered'],
    ])
    expect(rows[2]!.reference).toBe(promotion.id)
    // Nothing went back to the payment.
    expect(await client.refundsOf(placed.orderId)).toEqual([])
  })
})
