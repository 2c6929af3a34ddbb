import { createServer, type Server, type Socket } from 'node:net'
import { fromMedusa, medusaClient, MedusaError, toMedusa, type MedusaClient } from '../../src/commerce/medusa'
import { freePort } from '../processApi'
import { basicAuth, call, placeOrder, startMedusa, stockedQuantity, variantOf, type Medusa } from './engine'

/**
 * The Medusa Admin API client (server/src/commerce/medusa.ts) against a real Medusa 2.21 (one
 * engine for the whole file: it takes about 15 s to start). docs/medusa.md lists what each
 * action calls and which read protects it from being done twice.
 */

describe('amounts cross into Medusa in major units', () => {
  it.each([
    [2550, 'EUR', 25.5],
    [1999, 'eur', 19.99],
    [1200, 'JPY', 1200],
    [1250, 'KWD', 1.25],
    [5, 'USD', 0.05],
  ])('%i minor %s is %d', (minor, currency, major) => {
    expect(toMedusa(minor, currency)).toBe(major)
    expect(fromMedusa(major, currency)).toBe(minor)
  })

  it('reads back the nearest minor unit of a computed amount', () => {
    expect(fromMedusa(8.333333333, 'EUR')).toBe(833)
    expect(fromMedusa('75.99', 'EUR')).toBe(7599)
    expect(fromMedusa(0.1 + 0.2, 'EUR')).toBe(30)
  })

  it('refuses a fractional minor amount', () => {
    expect(() => toMedusa(12.5, 'EUR')).toThrow(RangeError)
  })
})

describe('an engine that never answers', () => {
  it('answers timeout when the engine accepts but never answers', async () => {
    const sockets: Socket[] = []
    const silent: Server = createServer((socket) => void sockets.push(socket))
    const port = await freePort()
    await new Promise<void>((listening) => silent.listen(port, '127.0.0.1', listening))
    try {
      const slow = medusaClient({ url: `http://127.0.0.1:${port}`, secretApiKey: 'sk_test', timeoutMs: 500 })
      const started = performance.now()
      await expect(slow.findOrder(1, 'a@example.com')).rejects.toMatchObject({ kind: 'timeout' })
      expect(performance.now() - started).toBeLessThan(5000)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((closed) => silent.close(closed))
    }
  })
})

const running = Boolean(process.env.TEST_DATABASE_URL)
if (!running && process.env.CI) throw new Error('TEST_DATABASE_URL is not set: the Medusa suite needs PostgreSQL')

;(running ? describe : describe.skip)('the Medusa client, against a real Medusa', () => {
  let medusa: Medusa
  let client: MedusaClient

  // The first run on a fresh clone installs Medusa from the registry (minutes) and migrates its
  // template (about a minute) in this hook, unless scripts/test.sh did the install before.
  beforeAll(async () => {
    medusa = await startMedusa()
    client = medusaClient({
      url: medusa.url,
      secretApiKey: medusa.secretApiKey,
      salesChannelId: medusa.salesChannelId,
      stockLocationId: medusa.stockLocationId,
      // Generous: on two busy cores a first call of a kind can take seconds (the timeout tests use short ones).
      timeoutMs: 30_000,
    })
  }, 30 * 60_000)

  afterAll(async () => {
    await medusa?.stop()
  })

  const order = (email: string, items: { sku: string; quantity: number }[]) => placeOrder(medusa, { email, items })

  it('tests the connection: the key, the sales channel and the stock location', async () => {
    expect(await client.testConnection()).toEqual({
      reachable: true,
      keyAccepted: true,
      salesChannelFound: true,
      stockLocationFound: true,
    })
    const missing = medusaClient({
      url: medusa.url,
      secretApiKey: medusa.secretApiKey,
      salesChannelId: 'sc_missing',
      stockLocationId: 'sloc_missing',
    })
    expect(await missing.testConnection()).toMatchObject({
      keyAccepted: true,
      salesChannelFound: false,
      stockLocationFound: false,
    })
  })

  it('refuses a wrong key, and never writes the key in an error', async () => {
    const wrongKey = 'sk_0123456789abcdef0123456789abcdef'
    const wrong = medusaClient({ url: medusa.url, secretApiKey: wrongKey })
    const check = await wrong.testConnection()
    expect(check).toMatchObject({ reachable: true, keyAccepted: false })
    expect(check.error).not.toContain(wrongKey)
    const error = await wrong.findOrder(1, 'a@example.com').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error).toMatchObject({ kind: 'refused', status: 401 })
    expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain(wrongKey.slice(3))
  })

  it('finds an order by display id and e-mail, in minor units, and nothing for another e-mail', async () => {
    const placed = await order('Ada@Example.com', [
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'CAP', quantity: 1 },
    ])
    const found = await client.findOrder(placed.displayId, 'ada@example.com')
    expect(found).toMatchObject({
      id: placed.orderId,
      displayId: placed.displayId,
      currency: 'EUR',
      fulfillmentStatus: 'shipped',
      payments: [{ amountMinor: 7599, capturedMinor: 7599, refundedMinor: 0 }],
    })
    // Lines made in the same instant come in any order.
    expect(found?.items).toHaveLength(2)
    expect(found?.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: placed.lineItems[0]!.id,
          variantId: variantOf(medusa, 'TEE-M'),
          quantity: 2,
          unitPriceMinor: 2550,
        }),
        expect.objectContaining({
          id: placed.lineItems[1]!.id,
          variantId: variantOf(medusa, 'CAP'),
          quantity: 1,
          unitPriceMinor: 1999,
        }),
      ]),
    )
    expect(found?.createdAt).toEqual(expect.any(String))
    expect(await client.findOrder(placed.displayId, 'someone@example.com')).toBeNull()
    expect(await client.findOrder(placed.displayId + 1000, 'ada@example.com')).toBeNull()
  })

  it('requests a return once, receives it: a restocked item raises the stock, a disposed one does not', async () => {
    const placed = await order('bea@example.com', [
      { sku: 'TEE-S', quantity: 2 },
      { sku: 'CAP', quantity: 1 },
    ])
    const [tee, cap] = placed.lineItems
    const request = {
      orderId: placed.orderId,
      items: [
        { lineItemId: tee!.id, quantity: 2 },
        { lineItemId: cap!.id, quantity: 1 },
      ],
      reasonNote: 'Too small',
      key: 'return-1',
    }
    const made = await client.requestReturn(request)
    expect(made.alreadyDone).toBe(false)
    expect(await client.findReturnFor(placed.orderId, 'return-1')).toMatchObject({
      id: made.returnId,
      status: 'requested',
    })
    // A retry after success finds the return and makes no other.
    expect(await client.requestReturn(request)).toEqual({ returnId: made.returnId, alreadyDone: true })
    const { returns } = await call<{ returns: unknown[] }>(
      medusa.url,
      'GET',
      `/admin/returns?order_id=${placed.orderId}`,
      basicAuth(medusa.secretApiKey),
    )
    expect(returns).toHaveLength(1)

    const before = { tee: await stockedQuantity(medusa, 'TEE-S'), cap: await stockedQuantity(medusa, 'CAP') }
    const receipt = {
      returnId: made.returnId,
      items: [
        { lineItemId: tee!.id, quantity: 2, restock: true },
        { lineItemId: cap!.id, quantity: 1, restock: false },
      ],
    }
    expect(await client.receiveReturn(receipt)).toEqual({ alreadyDone: false })
    expect(await client.getReturn(made.returnId)).toMatchObject({ status: 'received' })
    expect(await stockedQuantity(medusa, 'TEE-S')).toBe(before.tee + 2)
    expect(await stockedQuantity(medusa, 'CAP')).toBe(before.cap)
    // A retried receipt restocks nothing more.
    expect(await client.receiveReturn(receipt)).toEqual({ alreadyDone: true })
    expect(await stockedQuantity(medusa, 'TEE-S')).toBe(before.tee + 2)
  })

  it('receives one line in two parts: a unit restocked raises the stock by one, the other is dismissed', async () => {
    // A line inspected unit by unit (docs/decisions/0085-inspection-per-unit.md): 1 restock, 1 dispose.
    const placed = await order('dee@example.com', [{ sku: 'TEE-S', quantity: 2 }])
    const [tee] = placed.lineItems
    const made = await client.requestReturn({
      orderId: placed.orderId,
      items: [{ lineItemId: tee!.id, quantity: 2 }],
      reasonNote: 'Too small',
      key: 'return-units',
    })
    const before = await stockedQuantity(medusa, 'TEE-S')
    const receipt = {
      returnId: made.returnId,
      items: [
        { lineItemId: tee!.id, quantity: 1, restock: true },
        { lineItemId: tee!.id, quantity: 1, restock: false },
      ],
    }
    expect(await client.receiveReturn(receipt)).toEqual({ alreadyDone: false })
    expect(await client.getReturn(made.returnId)).toMatchObject({ status: 'received' })
    expect(await stockedQuantity(medusa, 'TEE-S')).toBe(before + 1)
    // A retried receipt restocks nothing more.
    expect(await client.receiveReturn(receipt)).toEqual({ alreadyDone: true })
    expect(await stockedQuantity(medusa, 'TEE-S')).toBe(before + 1)
  })

  it('makes again a return a failed attempt left open (begun, never requested)', async () => {
    const placed = await order('cleo@example.com', [{ sku: 'TEE-L', quantity: 1 }])
    // What an attempt that died after its first call leaves: a return begun with the key.
    await call(medusa.url, 'POST', '/admin/returns', basicAuth(medusa.secretApiKey), {
      order_id: placed.orderId,
      metadata: { rebound_action: 'return-2' },
    })
    expect(await client.findReturnFor(placed.orderId, 'return-2')).toMatchObject({ status: 'open' })
    const made = await client.requestReturn({
      orderId: placed.orderId,
      items: [{ lineItemId: placed.lineItems[0]!.id, quantity: 1 }],
      key: 'return-2',
    })
    expect(made.alreadyDone).toBe(false)
    expect(await client.findReturnFor(placed.orderId, 'return-2')).toMatchObject({
      id: made.returnId,
      status: 'requested',
    })
  })

  it('refunds exactly the amount, once', async () => {
    const placed = await order('dan@example.com', [{ sku: 'TEE-M', quantity: 1 }])
    const refund = { orderId: placed.orderId, amountMinor: 1234, note: 'Partial refund', key: 'refund-1' }
    const made = await client.refundPayment(refund)
    expect(made.alreadyDone).toBe(false)
    expect(made.refundId).toMatch(/^ref_/)
    expect(await client.refundPayment(refund)).toEqual({ ...made, alreadyDone: true })
    expect(await client.refundsOf(placed.orderId)).toEqual([
      {
        id: made.refundId,
        paymentId: made.paymentId,
        amountMinor: 1234,
        note: 'Partial refund [rebound_action:refund-1]',
      },
    ])
    const read = await client.getOrder(placed.orderId)
    expect(read.payments).toEqual([{ id: made.paymentId, amountMinor: 3050, capturedMinor: 3050, refundedMinor: 1234 }])
    // More than is left: no payment to take it from, and Medusa's own refusal for a named payment.
    await expect(client.refundPayment({ ...refund, amountMinor: 5000, key: 'refund-2' })).rejects.toMatchObject({
      kind: 'refused',
    })
    const named = { ...refund, paymentId: made.paymentId, amountMinor: 5000, key: 'refund-3' }
    const medusaSays = await client.refundPayment(named).catch((caught: unknown) => caught)
    expect(medusaSays).toMatchObject({ kind: 'refused', status: 400 })
    expect((medusaSays as MedusaError).medusaMessage).toBeTruthy()
    // The rest of it, named, is refunded exactly.
    await client.refundPayment({ ...named, amountMinor: 3050 - 1234 })
    expect((await client.getOrder(placed.orderId)).payments[0]).toMatchObject({ refundedMinor: 3050 })
  })

  it('makes a single-use store credit code that a new cart of that customer accepts, once', async () => {
    const credit = {
      code: 'REBOUND-CREDIT-1',
      amountMinor: 1500,
      currency: 'EUR',
      email: 'Eve@example.com',
      key: 'credit-1',
    }
    const made = await client.createStoreCreditCode(credit)
    expect(made.alreadyDone).toBe(false)
    expect(await client.createStoreCreditCode(credit)).toEqual({ ...made, alreadyDone: true })
    expect(await client.findPromotionByCode(credit.code)).toEqual({
      id: made.promotionId,
      code: credit.code,
      status: 'active',
      limit: 1,
      used: 0,
      actionKey: 'credit-1',
    })
    // The same code for another action is Medusa's promotion already: refused, not reused.
    await expect(client.createStoreCreditCode({ ...credit, key: 'credit-2' })).rejects.toMatchObject({
      kind: 'refused',
    })

    const store = <T>(method: string, path: string, body?: unknown) =>
      call<T>(medusa.url, method, path, { 'x-publishable-api-key': medusa.publishableKey }, body)
    type Cart = { cart: { id: string; total: number; discount_total: number; promotions?: { code: string }[] } }
    const cartOf = async (email: string) => {
      const { cart } = await store<Cart>('POST', '/store/carts', {
        region_id: medusa.regionId,
        sales_channel_id: medusa.salesChannelId,
        email,
        items: [{ variant_id: variantOf(medusa, 'TEE-L'), quantity: 1 }],
      })
      return store<Cart>('POST', `/store/carts/${cart.id}/promotions?fields=total,discount_total,*promotions`, {
        promo_codes: [credit.code],
      })
    }
    const theirs = await cartOf('eve@example.com')
    expect(theirs.cart).toMatchObject({ total: 12, discount_total: 15, promotions: [{ code: credit.code }] })
    const another = await cartOf('mallory@example.com')
    expect(another.cart).toMatchObject({ total: 27, discount_total: 0, promotions: [] })

    // Used once in an order, the code is spent.
    const placed = await placeOrder(medusa, {
      email: 'eve@example.com',
      items: [{ sku: 'TEE-L', quantity: 1 }],
      promoCodes: [credit.code],
    })
    expect(placed.total).toBe(27 + 5 - 15)
    expect(await client.findPromotionByCode(credit.code)).toMatchObject({ used: 1 })
    // Medusa leaves a spent code off the cart without an error.
    const spent = await cartOf('eve@example.com')
    expect(spent.cart).toMatchObject({ total: 27, discount_total: 0, promotions: [] })
  })

  it('makes an exchange once: the item comes back, the new variant goes out', async () => {
    const placed = await order('finn@example.com', [{ sku: 'TEE-M', quantity: 1 }])
    const exchange = {
      orderId: placed.orderId,
      returnItems: [{ lineItemId: placed.lineItems[0]!.id, quantity: 1 }],
      newItems: [{ variantId: variantOf(medusa, 'TEE-L'), quantity: 1 }],
      key: 'exchange-1',
    }
    const made = await client.createExchange(exchange)
    expect(made.alreadyDone).toBe(false)
    expect(made.exchangeId).toMatch(/^oexc_/)
    expect(await client.createExchange(exchange)).toEqual({ ...made, alreadyDone: true })
    expect(await client.getReturn(made.returnId!)).toMatchObject({ status: 'requested', exchangeId: made.exchangeId })
    const read = await client.getOrder(placed.orderId)
    expect(read.items.map((item) => [item.variantId, item.quantity])).toEqual(
      expect.arrayContaining([[variantOf(medusa, 'TEE-L'), 1]]),
    )
  })

  // Last: it stops the engine.
  it('answers unreachable within the timeout once Medusa is stopped', async () => {
    await medusa.kill()
    const absent = medusaClient({ url: medusa.url, secretApiKey: medusa.secretApiKey, timeoutMs: 2000 })
    const started = performance.now()
    const error = await absent.findOrder(1, 'a@example.com').catch((caught: unknown) => caught)
    expect(error).toMatchObject({ kind: 'unreachable' })
    expect(performance.now() - started).toBeLessThan(2500)
    expect(String(error)).not.toContain(medusa.secretApiKey)
    expect(await absent.testConnection()).toMatchObject({ reachable: false, keyAccepted: false })
  })
})
