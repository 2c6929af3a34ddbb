import type { FastifyInstance } from 'fastify'
import { medusaClient, type MedusaClient } from '../../src/commerce/medusa'
import { medusaEngine } from '../../src/commerce/medusaEngine'
import type { CommerceEngine } from '../../src/commerce/engine'
import { buildApp } from '../../src/app'
import type { EngineAction } from '../../src/domain/engineActions'
import type { Database } from '../../src/storage/database'
import { writeEngineAction } from '../../src/storage/outbox'
import { openTestDatabase } from '../harness'
import { placeOrder, startMedusa, stockedQuantity, type Medusa, type PlacedOrder } from './engine'

/**
 * Actions in the shop's commerce engine go through the outbox (docs/commerce.md): the delivery
 * loop carries each out in a real Medusa 2.21 under its row's id, in order per return, and an
 * outage of the engine loses nothing and doubles nothing.
 */

const running = Boolean(process.env.TEST_DATABASE_URL)
if (!running && process.env.CI) throw new Error('TEST_DATABASE_URL is not set: the Medusa suite needs PostgreSQL')

interface ActionRow {
  id: string
  state: string
  attempts: number
  last_error: string | null
  reference: string | null
}

;(running ? describe : describe.skip)('engine actions through the outbox, against a real Medusa', () => {
  let medusa: Medusa
  let client: MedusaClient
  let db: Database
  let app: FastifyInstance
  /** the delivery loop's clock: moved on to make a retry due at once */
  let offsetMs = 0

  // The first run on a fresh clone may install Medusa and migrate its template (docs/medusa.md).
  beforeAll(async () => {
    medusa = await startMedusa()
    client = medusaClient({
      url: medusa.url,
      secretApiKey: medusa.secretApiKey,
      stockLocationId: medusa.stockLocationId,
    })
    db = await openTestDatabase('postgres')
    const engine: CommerceEngine = medusaEngine(client)
    app = await buildApp({
      db,
      secret: Buffer.from('test-secret'),
      engines: { forShop: (shop) => Promise.resolve(shop === 'north' ? engine : null) },
      delivery: { allowPrivateNetworks: true, pollMs: 50, clock: () => new Date(Date.now() + offsetMs) },
    })
  }, 30 * 60_000)
  afterAll(async () => {
    await app?.close()
    await db?.close()
    await medusa?.stop()
  })

  const order = (email: string) =>
    placeOrder(medusa, {
      email,
      items: [
        { sku: 'TEE-M', quantity: 2 },
        { sku: 'CAP', quantity: 1 },
      ],
    })

  async function write(returnId: string, action: EngineAction, shopId = 'north'): Promise<string> {
    const id = await db.transaction((tx) =>
      writeEngineAction(tx, { shopId, returnId, action }, new Date(Date.now() + offsetMs)),
    )
    return id
  }

  const rowOf = async (id: string) =>
    (await db.query<ActionRow>('SELECT id, state, attempts, last_error, reference FROM outbox WHERE id = $1', [id]))[0]!

  /** Waits until the row is as `until` wants it (the loop polls every 50 ms). */
  async function settled(id: string, until: (row: ActionRow) => boolean, what: string): Promise<ActionRow> {
    const deadline = Date.now() + 120_000
    for (;;) {
      const row = await rowOf(id)
      if (until(row)) return row
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(row)}`)
      await new Promise((next) => setTimeout(next, 100))
    }
  }
  const delivered = (id: string) => settled(id, (row) => row.state === 'delivered', 'delivered')

  test('a return opened, received with one item restocked, and refunded: each once, in order', async () => {
    const placed: PlacedOrder = await order('ines@example.com')
    const [tee, cap] = placed.lineItems
    const stockBefore = await stockedQuantity(medusa, 'TEE-M')
    const opened = await write('ret-1', {
      kind: 'request_return',
      order_id: placed.orderId,
      items: [
        { line_item_id: tee!.id, quantity: 1 },
        { line_item_id: cap!.id, quantity: 1 },
      ],
      note: 'Rebound #1001-R1',
    })
    const received = await write('ret-1', {
      kind: 'receive_return',
      order_id: placed.orderId,
      return_key: opened,
      items: [
        { line_item_id: tee!.id, quantity: 1, restock: true },
        { line_item_id: cap!.id, quantity: 1, restock: false },
      ],
    })
    const refunded = await write('ret-1', {
      kind: 'refund',
      order_id: placed.orderId,
      amount_minor: 3154,
      note: 'Rebound #1001-R1',
    })

    const returnRow = await delivered(opened)
    expect(returnRow.reference).toMatch(/^return_/)
    expect(await delivered(received)).toMatchObject({ reference: returnRow.reference })
    expect((await delivered(refunded)).reference).toMatch(/^ref/)

    const medusaReturn = await client.getReturn(returnRow.reference!)
    expect(medusaReturn).toMatchObject({ orderId: placed.orderId, status: 'received' })
    expect(await stockedQuantity(medusa, 'TEE-M')).toBe(stockBefore + 1)
    const refunds = await client.refundsOf(placed.orderId)
    expect(refunds.map((refund) => refund.amountMinor)).toEqual([3154])
  })

  test('an answer lost after the refund was made: the attempt again finds it made, and refunds nothing more', async () => {
    const placed = await order('jo@example.com')
    const refunded = await write('ret-2', { kind: 'refund', order_id: placed.orderId, amount_minor: 1000, note: 'x' })
    await delivered(refunded)
    // As if the process died after Medusa refunded and before the row said so.
    await db.query("UPDATE outbox SET state = 'pending', delivered_at = NULL, due_at = now() WHERE id = $1", [refunded])
    await settled(refunded, (row) => row.state === 'delivered' && row.attempts === 2, 'delivered again')
    expect((await client.refundsOf(placed.orderId)).map((refund) => refund.amountMinor)).toEqual([1000])
  })

  test('Medusa stopped during a refund, then started: one refund, not zero, not two', async () => {
    const placed = await order('kai@example.com')
    await medusa.kill()
    const refunded = await write('ret-3', { kind: 'refund', order_id: placed.orderId, amount_minor: 2550, note: 'y' })
    const failed = await settled(refunded, (row) => row.attempts >= 1 && row.last_error !== null, 'a failed attempt')
    expect(failed).toMatchObject({ state: 'pending', reference: null })
    expect(failed.last_error).toMatch(/unreachable|timeout/)
    expect(failed.last_error).not.toContain(medusa.secretApiKey)

    await medusa.restart()
    // The retry is due 5 s after the failure: the loop's clock moves past it.
    offsetMs += 10 * 60_000
    await delivered(refunded)
    expect((await client.refundsOf(placed.orderId)).map((refund) => refund.amountMinor)).toEqual([2550])
  })

  test('a shop without an engine: the action waits, saying no store is connected', async () => {
    const written = await write('ret-4', { kind: 'refund', order_id: 'order_x', amount_minor: 100, note: 'z' }, 'south')
    const row = await settled(written, (candidate) => candidate.last_error !== null, 'a failed attempt')
    expect(row).toMatchObject({ state: 'pending', last_error: 'No store is connected.' })
  })
})
