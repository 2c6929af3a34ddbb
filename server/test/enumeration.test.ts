import type { LightMyRequestResponse } from 'fastify'
import { buildOrder, buildShop, portalOf } from './builders'
import { engines, startApi, type TestApi } from './harness'

/**
 * Order enumeration: a guesser learns nothing from a failed verify (same status, body, headers
 * and time for an unknown order as for a known order with a wrong e-mail), and the limits per
 * client and per order name hold when the guesses come all at once.
 */

const FLOOR_MS = 60

const SHOP = buildShop({
  shop: 'north',
  orders: [
    buildOrder({ name: '#1001', email: 'jane@example.com' }),
    buildOrder({ name: '#1005', email: 'solo@example.com' }),
  ],
})
const NORTH = portalOf(SHOP)

/** What a guesser could compare: status, body and headers but the clock and the client's count. */
function visible(response: LightMyRequestResponse) {
  const { date: _date, 'x-ratelimit-remaining': _remaining, 'x-ratelimit-reset': _reset, ...headers } = response.headers
  return { status: response.statusCode, body: response.body, headers }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

describe.each(engines())('failed verifies on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine, [SHOP], {
      limits: { verifyPerClient: 10_000, verifyPerOrder: 10_000, verifyFailureFloorMs: FLOOR_MS },
    })
  })
  afterAll(() => api.close())

  const attempt = async (order_name: string, email: string, shop: object = NORTH) => {
    const started = performance.now()
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      payload: { order_name, email, ...shop },
    })
    return { response, ms: performance.now() - started }
  }

  test('an unknown order, a wrong e-mail, a wrong portal and an unknown shop get the same answer, headers included', async () => {
    const answers = [
      await attempt('#9999', 'jane@example.com'),
      await attempt('#1001', 'wrong@example.com'),
      await attempt('#1001', 'jane@example.com', { shop: 'north', portal_id: 'portal-south' }),
      await attempt('#1001', 'jane@example.com', { shop: 'nosuchshop', portal_id: 'portal-north' }),
    ].map(({ response }) => visible(response))
    expect(answers[0]).toMatchObject({ status: 400, body: '{"error":"invalid_order"}' })
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0])
  })

  test(`an unknown order and a wrong e-mail take the same time: both at least the ${FLOOR_MS} ms floor, medians within 15 ms`, async () => {
    // Warm up (the shop cache, the query plans), then interleave so that load affects both alike.
    await attempt('#9999', 'jane@example.com')
    await attempt('#1001', 'wrong@example.com')
    const unknown: number[] = []
    const wrongEmail: number[] = []
    for (let round = 0; round < 15; round++) {
      unknown.push((await attempt(`#${7000 + round}`, 'jane@example.com')).ms)
      wrongEmail.push((await attempt('#1001', `wrong${round}@example.com`)).ms)
    }
    expect(Math.min(...unknown, ...wrongEmail)).toBeGreaterThanOrEqual(FLOOR_MS - 1)
    expect(Math.abs(median(unknown) - median(wrongEmail))).toBeLessThan(15)
  })
})

describe('verify limits under a burst (PGlite)', () => {
  let api: TestApi | null = null
  afterEach(async () => {
    await api?.close()
    api = null
  })

  const guess = (order_name: string, email: string, shop: string, address: string) =>
    api!.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      remoteAddress: address,
      payload: { order_name, email, shop, portal_id: NORTH.portal_id },
    })

  test('per order name: 60 guesses at #1001 at once, from 60 addresses, written every way the lookup accepts: 5 answered, 55 refused', async () => {
    api = await startApi('pglite', [SHOP], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 5, verifyFailureFloorMs: 0 },
    })
    const names = ['#1001', '1001', ' #1001 ', '##1001']
    const shops = ['north', 'NORTH', 'North', 'nOrTh']
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        guess(names[index % 4]!, `guess${index}@example.com`, shops[Math.floor(index / 4) % 4]!, `10.1.${index}.1`),
      ),
    )
    const statuses = responses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status === 400)).toHaveLength(5)
    expect(statuses.filter((status) => status === 429)).toHaveLength(55)
    // The limit is the order's, not the clients': the right e-mail from a new address is refused too.
    expect((await guess('#1001', 'jane@example.com', 'north', '10.9.9.9')).statusCode).toBe(429)
    // …and no other order is held back by it.
    expect((await guess('#1005', 'solo@example.com', 'north', '10.9.9.9')).statusCode).toBe(200)
  })

  test('per client: 50 guesses at once from one address, at 50 orders: 8 answered, then 429 for known and unknown orders alike', async () => {
    api = await startApi('pglite', [SHOP], {
      limits: { verifyPerClient: 8, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    })
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        guess(index % 2 ? '#1001' : `#${5000 + index}`, 'guess@example.com', index % 3 ? 'north' : 'NORTH', '10.2.0.1'),
      ),
    )
    const statuses = responses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status === 400)).toHaveLength(8)
    expect(statuses.filter((status) => status === 429)).toHaveLength(42)
    const refused = responses.filter((response) => response.statusCode === 429).map((response) => response.body)
    expect(new Set(refused)).toEqual(
      new Set([
        JSON.stringify({
          error: 'too_many_attempts',
          message: 'Too many attempts. Please wait a minute and try again.',
        }),
      ]),
    )
    // Another client is not held back by it.
    expect((await guess('#1001', 'jane@example.com', 'north', '10.2.0.2')).statusCode).toBe(200)
  })
})
