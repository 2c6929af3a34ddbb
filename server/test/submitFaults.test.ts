import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import type { ReturnOrder, ReturnRequest } from '../../contract/api'
import { buildApp } from '../src/app'
import type { Database, Queryable } from '../src/storage/database'
import { buildLine, buildOrder, buildProduct, buildReturn, buildShop, returnItem } from './builders'
import { NOW, bearer, engines, loadShops, openTestDatabase, verified } from './harness'

/**
 * A submit interrupted at each point between receiving and answering, in-process so that each
 * fault lands exactly where it is meant to (the kill -9 of a real process is process.test.ts):
 * whatever the shopper saw, the retry with the same key ends with exactly one return, and shows it.
 */

/** #1001 with a tee and a mug; the mug is what the submits return. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'li-1001-001' }), buildLine({ id: 'li-1001-002', variant_id: 'mug-default' })],
})
const SHOP = buildShop({
  shop: 'north',
  catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [] })],
  orders: [jane],
})

interface Faults {
  /** transactions to fail after their work, before COMMIT (a crash before the return is durable) */
  crashBeforeCommit: number
  /** delay of the INSERT of a return, in ms, for the next submits (a slow database) */
  slowInsertMs: number
}

/** The database with faults injected into its transactions. */
function faulty(db: Database, faults: Faults): Database {
  return {
    ...db,
    transaction: (work) =>
      db.transaction(async (tx) => {
        const slowed: Queryable = {
          exec: (sql) => tx.exec(sql),
          query: async (sql, params) => {
            if (faults.slowInsertMs > 0 && sql.startsWith('INSERT INTO returns')) await sleep(faults.slowInsertMs)
            return tx.query(sql, params)
          },
        }
        const result = await work(slowed)
        if (faults.crashBeforeCommit > 0) {
          faults.crashBeforeCommit--
          throw new Error('injected: the process died before COMMIT')
        }
        return result
      }),
  }
}

describe.each(engines())('submit faults on %s', (engine) => {
  let db: Database
  let app: FastifyInstance
  let faults: Faults
  /** answers to lose after they are made (a crash after COMMIT, before the answer left) */
  let loseAnswers: number
  let token: string
  beforeAll(async () => {
    db = await openTestDatabase(engine)
  })
  afterAll(() => db.close())
  beforeEach(async () => {
    await loadShops(db, [SHOP])
    faults = { crashBeforeCommit: 0, slowInsertMs: 0 }
    loseAnswers = 0
    app = await buildApp({ db: faulty(db, faults), secret: Buffer.from('test-secret'), now: () => NOW })
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.method === 'POST' && request.url === '/portal-registration/returns' && loseAnswers > 0) {
        loseAnswers--
        throw new Error('injected: the answer was lost')
      }
      return payload
    })
    token = (await verified(app, SHOP, jane)).token
  })
  afterEach(() => app.close())

  const request: ReturnRequest = buildReturn([returnItem('li-1001-002')], { refund_method: 'store_credit' })
  const submit = (key: string) =>
    app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': key },
      payload: request,
    })
  const returnsOf1001 = async () =>
    db.query<{ id: string; name: string }>(
      "SELECT r.id, r.name FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.name = '#1001'",
    )

  /** The shopper's view after the retry: the mug is returned, and the return's instructions open. */
  async function expectVisible(created: ReturnOrder) {
    const again = await verified(app, SHOP, jane)
    expect(again.line_items.find((line) => line.id === 'li-1001-002')).toMatchObject({
      returnable_quantity: 0,
      ineligible_reason: 'already_returned',
    })
    const instructions = await app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/instructions`,
      headers: bearer(token),
    })
    expect(instructions.json()).toMatchObject({ return_id: created.id, return_name: '#1001-R1' })
  }

  test('a crash before COMMIT: the shopper sees a 500, nothing was kept, and the retry makes the one return', async () => {
    faults.crashBeforeCommit = 1
    const first = await submit('faults-0001-before')
    expect(first.statusCode).toBe(500)
    expect(first.json()).toEqual({ error: 'internal', message: 'Something went wrong on our side.' })
    expect(await returnsOf1001()).toEqual([])

    const retry = await submit('faults-0001-before')
    expect(retry.statusCode).toBe(201)
    expect(await returnsOf1001()).toEqual([{ id: retry.json<ReturnOrder>().id, name: '#1001-R1' }])
    await expectVisible(retry.json())
  })

  test('a crash after COMMIT, before the answer: the shopper sees a 500, and the retry answers 200 with the return already made', async () => {
    loseAnswers = 1
    const first = await submit('faults-0002-after')
    expect(first.statusCode).toBe(500)
    const [stored] = await returnsOf1001()
    expect(stored).toMatchObject({ name: '#1001-R1' })

    const retry = await submit('faults-0002-after')
    expect(retry.statusCode).toBe(200)
    expect(retry.json<ReturnOrder>()).toMatchObject({ id: stored!.id, name: '#1001-R1', status: 'requested' })
    expect(await returnsOf1001()).toHaveLength(1)
    await expectVisible(retry.json())
  })

  test('a timeout: the shopper gives up on a slow submit and retries while it is still running; both end on one return', async () => {
    faults.slowInsertMs = 600
    const slow = submit('faults-0003-slow')
    // The portal's timeout, shortened: the first answer has not come, so it sends the same key again.
    await sleep(150)
    faults.slowInsertMs = 0
    const retry = await submit('faults-0003-slow')
    const first = await slow
    expect([first.statusCode, retry.statusCode].sort()).toEqual([200, 201])
    expect(retry.json<ReturnOrder>().id).toBe(first.json<ReturnOrder>().id)
    expect(await returnsOf1001()).toHaveLength(1)
    await expectVisible(retry.json())
  })

  test('ten submits at once with one key, the first crashing before COMMIT: exactly one return, every answer after the crash carries it', async () => {
    faults.crashBeforeCommit = 1
    const answers = await Promise.all(Array.from({ length: 10 }, () => submit('faults-0004-burst')))
    const statuses = answers.map((answer) => answer.statusCode).sort()
    expect(statuses.filter((status) => status === 500)).toHaveLength(1)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 200)).toHaveLength(8)
    const ids = new Set(
      answers.filter((answer) => answer.statusCode < 300).map((answer) => answer.json<ReturnOrder>().id),
    )
    expect(ids.size).toBe(1)
    expect((await returnsOf1001()).map((row) => row.id)).toEqual([...ids])
  })
})
