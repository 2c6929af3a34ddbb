import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { LightMyRequestResponse } from 'fastify'
import type { InvalidReturn, VerifiedOrder } from '../../contract/api'
import type { ShopPolicy } from '../../contract/policy'
import type { StaffPolicy } from '../../contract/staff'
import { hashPassword } from '../src/domain/passwords'
import { openPostgres } from '../src/storage/database'
import { addStaff } from '../src/storage/staff'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildReturn,
  buildShop,
  portalOf,
  returnItem,
} from './builders'
import {
  bearer,
  engines,
  loadShops,
  NOW,
  staffCookie,
  startApi,
  submitted,
  verified,
  verify,
  type TestApi,
} from './harness'

/**
 * The shop's return policy (docs/lifecycle.md): edited whole in the back office, kept over an
 * import without one, and followed by verify and submit at once: final sale and windows by tag,
 * blocked shoppers and the limit of returns.
 */

const PASSWORD = 'correct horse battery'
const ADMIN_TOKEN = 'admin-token-for-tests'
const DAY_MS = 86_400_000
const NOT_AVAILABLE = {
  error: 'return_not_available',
  message: 'Returns for this order cannot be made online. Please contact the shop.',
}

const CATALOGUE = [
  buildProduct({ id: 'tee', title: 'Classic Tee', tags: ['tops', 'cotton'] }),
  buildProduct({ id: 'swim', title: 'Swim Shorts', tags: ['swimwear'] }),
  buildProduct({ id: 'dress', title: 'Summer Dress', tags: ['sale', 'dresses'] }),
  buildProduct({ id: 'coat', title: 'Wool Coat', tags: ['outerwear'] }),
]
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'tee-line', variant_id: 'tee-m' }),
    buildLine({ id: 'swim-line', variant_id: 'swim-m' }),
    buildLine({ id: 'dress-line', variant_id: 'dress-m' }),
  ],
})
const janeAgain = buildOrder({
  name: '#1002',
  email: 'Jane@Example.com',
  line_items: [buildLine({ id: 'again-line' })],
})
const sam = buildOrder({ name: '#1004', email: 'sam@example.com', line_items: [buildLine({ id: 'sam-line' })] })
// Fulfilled 40 days ago: past the shop's 30 days, inside the coats' 60.
const oldCoat = buildOrder({
  name: '#1003',
  email: 'coat@example.com',
  processed_at: 'now-42d',
  fulfilled_at: 'now-40d',
  line_items: [buildLine({ id: 'old-tee', variant_id: 'tee-m' }), buildLine({ id: 'old-coat', variant_id: 'coat-m' })],
})
const DEMO = buildShop({
  shop: 'demo',
  catalogue: CATALOGUE,
  return_reasons: [buildReason('changed_mind'), buildReason('damaged', { photos_required: 1 })],
  orders: [jane, janeAgain, oldCoat, sam],
})
const ACME = buildShop({ shop: 'acme', currency_code: 'USD', catalogue: [buildProduct({ tags: ['acme-only'] })] })
const RULES: ShopPolicy = {
  final_sale: [{ tag: 'swimwear', label: 'Swimwear' }],
  windows: [
    { tag: 'sale', days: 3, label: 'Sale items' },
    { tag: 'outerwear', days: 60, label: 'Coats' },
  ],
}

describe.each(engines())('the return policy on %s', (engine) => {
  let api: TestApi
  let clock: Date
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [], { now: () => clock, adminToken: ADMIN_TOKEN })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    clock = NOW
    await api.db.exec('DELETE FROM staff; DELETE FROM shops')
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'staff@acme.example', await hashPassword(PASSWORD), NOW)
    cookie = await signIn('staff@demo.example', 'demo.localhost')
    // The shops as imported: nothing cached from the test before.
    await importShop(DEMO)
  })

  const signIn = (email: string, host: string) => staffCookie(api.app, email, PASSWORD, host)
  const call = (
    method: 'GET' | 'PUT',
    payload?: unknown,
    { as = cookie, host = 'demo.localhost', origin }: { as?: string; host?: string; origin?: string } = {},
  ) =>
    api.app.inject({
      method,
      url: '/admin/api/policy',
      headers: { host, cookie: as, origin: origin ?? `http://${host}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  const json = <T>(response: LightMyRequestResponse) => {
    if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`)
    return response.json<T>()
  }
  const save = async (policy: ShopPolicy) => json<StaffPolicy>(await call('PUT', policy))
  const importShop = async (file: object) => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: bearer(ADMIN_TOKEN),
      payload: file,
    })
    expect(response.statusCode).toBe(201)
  }
  const verifyAs = (order: { name: string; email: string }) =>
    verify(api.app, { order_name: order.name, email: order.email, ...portalOf(DEMO) })
  const lines = (order: VerifiedOrder) =>
    order.line_items.map((line) => [line.id, line.returnable_quantity, line.ineligible_reason, line.ineligible_rule])

  describe('in the back office', () => {
    test('staff read the shop’s policy with its catalogue’s tags sorted, its window and currency', async () => {
      expect(json<StaffPolicy>(await call('GET'))).toEqual({
        policy: {},
        tags: ['cotton', 'dresses', 'outerwear', 'sale', 'swimwear', 'tops'],
        return_window_days: 30,
        currency_code: 'EUR',
      })
    })

    test('a policy saved is answered, read back, and another shop’s stays its own', async () => {
      const policy: ShopPolicy = {
        ...RULES,
        review: { over_amount: '200.00', photo_reasons: ['damaged'] },
        deductions: { opened: 10 },
      }
      expect((await save(policy)).policy).toEqual(policy)
      expect(json<StaffPolicy>(await call('GET')).policy).toEqual(policy)
      const acme = await signIn('staff@acme.example', 'acme.localhost')
      expect(json<StaffPolicy>(await call('GET', undefined, { as: acme, host: 'acme.localhost' }))).toEqual({
        policy: {},
        tags: ['acme-only'],
        return_window_days: 30,
        currency_code: 'USD',
      })
    })

    test.each<[string, 'GET' | 'PUT']>([
      ['reading', 'GET'],
      ['saving', 'PUT'],
    ])('%s it needs a signed-in member of staff (401)', async (_name, method) => {
      const response = await call(method, method === 'PUT' ? RULES : undefined, { as: '' })
      expect([response.statusCode, response.json<{ error: string }>().error]).toEqual([401, 'not_signed_in'])
    })

    test('saving from another site’s page is refused (403), and nothing changes', async () => {
      const response = await call('PUT', RULES, { origin: 'https://evil.example' })
      expect([response.statusCode, response.json<{ error: string }>().error]).toEqual([403, 'cross_site'])
      expect(json<StaffPolicy>(await call('GET')).policy).toEqual({})
    })

    test.each<[string, unknown, string]>([
      ['an unknown field', { window: [] }, 'window'],
      ['a negative window', { windows: [{ tag: 'sale', days: -1, label: 'Sale' }] }, 'windows[0].days'],
      ['a tag with a comma', { final_sale: [{ tag: 'a,b', label: 'A' }] }, 'final_sale[0].tag'],
      ['an amount with a comma', { review: { over_amount: '200,00' } }, 'review.over_amount'],
      ['a limit of 0 returns', { limit: { returns: 0, days: 30 } }, 'limit.returns'],
      ['a deduction over 100 %', { deductions: { damaged: 101 } }, 'deductions.damaged'],
      [
        'more decimals than the currency has',
        { review: { over_amount: '200.001' } },
        'review.over_amount: must have at most 2 decimal places in EUR',
      ],
      [
        'a photo reason that is not the shop’s',
        { review: { photo_reasons: ['changed_mind', 'bored'] } },
        'review.photo_reasons[1]: "bored" is not the id of one of the shop\'s return reasons',
      ],
      [
        'a second rule for a tag',
        {
          windows: [
            { tag: 'sale', days: 3, label: 'Sale' },
            { tag: 'sale', days: 9, label: 'Sale again' },
          ],
        },
        'windows[1].tag: "sale" has a rule already (windows[0]); only the first applies',
      ],
      [
        'a blocked e-mail that is none',
        { blocked: { emails: ['jane'] } },
        'blocked.emails[0]: must be an e-mail address',
      ],
      [
        'a blocked order name that is only "#"',
        { blocked: { order_names: ['#'] } },
        'blocked.order_names[0]: must be an order name',
      ],
    ])('a body with %s is refused (400), naming the field', async (_name, body, field) => {
      const response = await call('PUT', body)
      expect(response.statusCode).toBe(400)
      const answer = response.json<{ error: string; message: string }>()
      expect(answer.error).toBe('invalid_request')
      expect(answer.message).toContain(field)
      expect(json<StaffPolicy>(await call('GET')).policy).toEqual({})
    })
  })

  describe('in the shop file', () => {
    test('a file without a policy keeps the saved one; a file with one replaces it', async () => {
      await save(RULES)
      await importShop(DEMO)
      expect(json<StaffPolicy>(await call('GET')).policy).toEqual(RULES)
      await importShop({ ...DEMO, policy: { limit: { returns: 5, days: 30 } } })
      expect(json<StaffPolicy>(await call('GET')).policy).toEqual({ limit: { returns: 5, days: 30 } })
      await importShop({ ...DEMO, policy: {} })
      expect(json<StaffPolicy>(await call('GET')).policy).toEqual({})
    })
  })

  describe('verify follows it', () => {
    test('with no policy every line is as the shop’s window makes it, with no rule named', async () => {
      const order = await verified(api.app, DEMO, jane)
      expect(lines(order)).toEqual([
        ['tee-line', 1, null, undefined],
        ['swim-line', 1, null, undefined],
        ['dress-line', 1, null, undefined],
      ])
      expect(Object.keys(order.exchange_data!.options)).toEqual(['tee-m', 'swim-m', 'dress-m'])
    })

    test('a policy saved is in the next verify: final sale and a closed window by tag, with the rules’ labels', async () => {
      await verified(api.app, DEMO, jane)
      await save(RULES)
      const order = await verified(api.app, DEMO, jane)
      // jane was fulfilled 5 days ago: the sale items' 3 days have passed, the shop's 30 have not.
      expect(lines(order)).toEqual([
        ['tee-line', 1, null, undefined],
        ['swim-line', 0, 'final_sale', 'Swimwear'],
        ['dress-line', 0, 'return_window_closed', 'Sale items'],
      ])
      // What cannot be returned is offered no exchange.
      expect(Object.keys(order.exchange_data!.options)).toEqual(['tee-m'])
    })

    test('GET /portal-registration/order answers the same as verify', async () => {
      const { token } = await verified(api.app, DEMO, jane)
      await save(RULES)
      const response = await api.app.inject({
        method: 'GET',
        url: '/portal-registration/order',
        headers: bearer(token),
      })
      expect(lines(json<VerifiedOrder>(response))).toEqual(lines(await verified(api.app, DEMO, jane)))
    })

    test('a longer window by tag keeps an order open past the shop’s, until its last line’s window ends', async () => {
      expect(await (await verifyAs(oldCoat)).json()).toEqual({ error: 'order_too_old' })
      await save(RULES)
      expect(lines(await verified(api.app, DEMO, oldCoat))).toEqual([
        ['old-tee', 0, 'return_window_closed', undefined],
        ['old-coat', 1, null, undefined],
      ])
      // The coats' 60 days end 20 days after NOW.
      clock = new Date(NOW.getTime() + 20 * DAY_MS)
      expect((await verifyAs(oldCoat)).statusCode).toBe(200)
      clock = new Date(NOW.getTime() + 20 * DAY_MS + 1)
      expect((await verifyAs(oldCoat)).json()).toEqual({ error: 'order_too_old' })
    })

    test('a line’s window by tag is judged at every verify, however the answer is kept', async () => {
      await save({ windows: [{ tag: 'sale', days: 10, label: 'Sale items' }] })
      // Fulfilled 5 days ago: the sale items' window ends 5 days after NOW.
      expect(lines(await verified(api.app, DEMO, jane))[2]).toEqual(['dress-line', 1, null, undefined])
      clock = new Date(NOW.getTime() + 5 * DAY_MS)
      expect(lines(await verified(api.app, DEMO, jane))[2]).toEqual(['dress-line', 1, null, undefined])
      clock = new Date(NOW.getTime() + 5 * DAY_MS + 1)
      expect(lines(await verified(api.app, DEMO, jane))[2]).toEqual([
        'dress-line',
        0,
        'return_window_closed',
        'Sale items',
      ])
    })

    test.each<[string, ShopPolicy]>([
      ['by e-mail, written in another case', { blocked: { emails: ['JANE@example.com '] } }],
      ['by order name, without "#"', { blocked: { order_names: ['1001'] } }],
    ])('a blocked shopper (%s) is told only that returns are not available online', async (_name, policy) => {
      await verified(api.app, DEMO, jane)
      await save(policy)
      const response = await verifyAs(jane)
      expect([response.statusCode, response.json()]).toEqual([400, NOT_AVAILABLE])
      // Another shopper verifies as before; a wrong e-mail for the order learns nothing of the block.
      expect((await verifyAs(sam)).statusCode).toBe(200)
      expect((await verifyAs({ name: '#1001', email: 'guess@example.com' })).json()).toEqual({ error: 'invalid_order' })
    })

    test('a token’s order read again is refused to a shopper blocked since', async () => {
      const { token } = await verified(api.app, DEMO, jane)
      await save({ blocked: { emails: ['jane@example.com'] } })
      const response = await api.app.inject({
        method: 'GET',
        url: '/portal-registration/order',
        headers: bearer(token),
      })
      expect([response.statusCode, response.json()]).toEqual([409, NOT_AVAILABLE])
    })

    test('at the limit, the shopper’s next verify is refused on any of their orders, a new return counted at once', async () => {
      await save({ limit: { returns: 1, days: 7 } })
      const first = await verified(api.app, DEMO, jane)
      // Kept (on PGlite) for the other order: the return below must still reach it.
      await verified(api.app, DEMO, janeAgain)
      await submitted(api.app, first.token, buildReturn([returnItem('tee-line')]))
      for (const order of [jane, janeAgain]) expect((await verifyAs(order)).json()).toEqual(NOT_AVAILABLE)
      // Another shopper is not limited by jane's returns.
      expect((await verifyAs(sam)).statusCode).toBe(200)
      // The return leaves the period 7 days after it was made.
      clock = new Date(NOW.getTime() + 7 * DAY_MS)
      expect((await verifyAs(janeAgain)).json()).toEqual(NOT_AVAILABLE)
      clock = new Date(NOW.getTime() + 7 * DAY_MS + 1)
      expect((await verifyAs(janeAgain)).statusCode).toBe(200)
    })

    // PGlite has one connection, so its transactions never overlap; PostgreSQL's do.
    if (engine === 'postgres')
      test('two submits at once on two of the shopper’s orders make one return at a limit of one', async () => {
        await save({ limit: { returns: 1, days: 7 } })
        const [first, second] = [await verified(api.app, DEMO, jane), await verified(api.app, DEMO, janeAgain)]
        const submit = (token: string, line: string) =>
          api.app.inject({
            method: 'POST',
            url: '/portal-registration/returns',
            headers: { ...bearer(token), 'idempotency-key': randomUUID() },
            payload: buildReturn([returnItem(line)]),
          })
        // New returns wait until both submits have counted the shopper's returns (or wait to): without
        // the shopper's lock both would count none and both would be made. The wait is held from
        // connections of the test's own, beside the API's pool.
        const [{ schema }] = (await api.db.query<{ schema: string }>('SELECT current_schema() AS schema')) as [
          { schema: string },
        ]
        const side = new URL(process.env.TEST_DATABASE_URL!)
        side.searchParams.set('options', `-c search_path=${schema}`)
        const beside = await openPostgres(side.toString(), 2)
        const { made } = await beside
          .transaction(async (tx) => {
            await tx.query('LOCK TABLE returns IN SHARE MODE')
            const made = Promise.all([submit(first.token, 'tee-line'), submit(second.token, 'again-line')])
            const waiting = async () => {
              const [row] = await beside.query<{ count: number }>(
                `SELECT count(*)::int AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock'
                    AND pid IN (SELECT pid FROM pg_locks WHERE relation = 'returns'::regclass)`,
              )
              return row!.count
            }
            for (let tries = 0; (await waiting()) < 2; tries += 1) {
              if (tries > 200) throw new Error('the submits never reached the returns table')
              await sleep(10)
            }
            // Not awaited here: the submits go on once this transaction has ended.
            return { made }
          })
          .finally(() => beside.close())
        const answers = await made
        expect(answers.map((each) => each.statusCode).sort()).toEqual([201, 403])
        expect(answers.find((each) => each.statusCode === 403)!.json()).toEqual(NOT_AVAILABLE)
      })

    test('a crafted quote of a line a rule makes final sale is refused', async () => {
      const { token } = await verified(api.app, DEMO, jane)
      await save(RULES)
      const response = await api.app.inject({
        method: 'POST',
        url: '/portal-registration/returns/quote',
        headers: bearer(token),
        payload: buildReturn([returnItem('swim-line')]),
      })
      expect(response.statusCode).toBe(422)
      expect(response.json<InvalidReturn>().problems).toEqual([
        expect.objectContaining({ field: 'items[0].line_item_id', problem: 'not_returnable' }),
      ])
    })
  })
})

describe('a refused verify takes the same time as any failure (PGlite)', () => {
  test('blocked or unknown, at least the floor', async () => {
    const api = await startApi('pglite', [{ ...DEMO, policy: { blocked: { emails: ['jane@example.com'] } } }], {
      limits: { verifyPerClient: 100, verifyPerOrder: 100, verifyFailureFloorMs: 120 },
    })
    try {
      // The first request of a new server compiles its route: not a failure's time.
      expect((await verify(api.app, { order_name: sam.name, email: sam.email, ...portalOf(DEMO) })).statusCode).toBe(
        200,
      )
      for (const [order_name, email, answer] of [
        ['#1001', 'jane@example.com', NOT_AVAILABLE],
        ['#9999', 'nobody@example.com', { error: 'invalid_order' }],
      ] as const) {
        const started = performance.now()
        const response = await verify(api.app, { order_name, email, ...portalOf(DEMO) })
        const took = performance.now() - started
        expect(response.json()).toEqual(answer)
        expect(took).toBeGreaterThanOrEqual(115)
        expect(took).toBeLessThan(1000)
      }
    } finally {
      await api.close()
    }
  })
})
