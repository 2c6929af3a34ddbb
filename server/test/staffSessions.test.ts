import type { LightMyRequestResponse } from 'fastify'
import type { ReturnOrder } from '../../contract/api'
import type { ReturnDetail, ReturnList, ReturnSummary } from '../../contract/staff'
import { hashPassword } from '../src/domain/passwords'
import { STAFF_ACTIONS } from '../src/domain/roles'
import { addStaff, removeStaff, resetStaffPassword } from '../src/storage/staff'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop } from './builders'
import { engines, loadShops, NOW, startApi, submitted, type TestApi, verified } from './harness'

/**
 * A staff session as the console uses it, many calls a minute (docs/back-office.md: sign-in and
 * sessions; docs/decisions/0048-session-cache-pglite.md), and the list's summary of each kind of
 * return as its own page shows it.
 */

const PASSWORD = 'correct horse battery'
const MINUTE = 60_000
const DEMO_HOST = 'demo.localhost'
const ACME_HOST = 'acme.localhost'

const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'tee', variant_id: 'tee-m' }),
    buildLine({ id: 'mug', variant_id: 'mug-default', price: '14.00' }),
  ],
})
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' })],
  return_reasons: [buildReason('changed_mind', { label: 'Changed my mind' })],
  orders: [jane],
})
const ACME = buildShop({ shop: 'acme', orders: [buildOrder({ name: '#1001', email: 'ada@example.com' })] })

describe.each(engines())('staff sessions on %s', (engine) => {
  let api: TestApi
  let clock: Date
  beforeAll(async () => {
    api = await startApi(engine, [], { now: () => clock })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    clock = NOW
    await api.db.exec('DELETE FROM staff; DELETE FROM sign_in_failures; DELETE FROM rate_limits; DELETE FROM shops')
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
  })

  const sessionCookie = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((each) => each.name === 'rebound_staff')
    if (!cookie) throw new Error(`no session cookie: ${response.statusCode} ${response.body}`)
    return `rebound_staff=${cookie.value}`
  }
  const signedIn = async (password = PASSWORD, host = DEMO_HOST) =>
    sessionCookie(
      await api.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: { host, origin: `http://${host}` },
        payload: { email: 'staff@demo.example', password },
      }),
    )
  const get = (url: string, cookie: string, host = DEMO_HOST) =>
    api.app.inject({ method: 'GET', url, headers: { host, cookie } })
  const signOut = (cookie: string) =>
    api.app.inject({
      method: 'DELETE',
      url: '/admin/api/session',
      headers: { host: DEMO_HOST, cookie, origin: `http://${DEMO_HOST}` },
    })
  /** The console's calls of a page or two: the session is in constant use. */
  const busy = async (cookie: string, host = DEMO_HOST) => {
    for (let i = 0; i < 3; i++) {
      const answers = await Promise.all([
        get('/admin/api/session', cookie, host),
        get('/admin/api/returns', cookie, host),
      ])
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200])
    }
  }

  describe('a session in constant use ends at once', () => {
    test('at sign-out', async () => {
      const jar = await signedIn()
      await busy(jar)
      expect((await signOut(jar)).statusCode).toBe(204)
      expect((await get('/admin/api/returns', jar)).statusCode).toBe(401)
      expect((await get('/admin/api/session', jar)).statusCode).toBe(401)
    })

    test('at sign-out while other calls of the session are under way', async () => {
      const jar = await signedIn()
      await busy(jar)
      // Another sign-in writes: the calls below read the session afresh while it is signed out.
      await signedIn()
      const [during, out] = await Promise.all([
        get('/admin/api/returns', jar),
        signOut(jar),
        get('/admin/api/shop', jar),
      ])
      expect([200, 401]).toContain(during.statusCode)
      expect(out.statusCode).toBe(204)
      expect((await get('/admin/api/returns', jar)).statusCode).toBe(401)
    })

    test('when the password is reset (npm run staff -- reset), every session of the account', async () => {
      const first = await signedIn()
      const second = await signedIn()
      await Promise.all([busy(first), busy(second)])
      await resetStaffPassword(api.db, 'staff@demo.example', await hashPassword('a brand new password'))
      expect((await get('/admin/api/returns', first)).statusCode).toBe(401)
      expect((await get('/admin/api/returns', second)).statusCode).toBe(401)
      expect((await get('/admin/api/returns', await signedIn('a brand new password'))).statusCode).toBe(200)
    })

    test('when a shop is taken from the account (npm run staff -- remove), and with its last shop the account', async () => {
      await addStaff(api.db, 'acme', 'staff@demo.example', '', NOW)
      const jar = await signedIn()
      await busy(jar, DEMO_HOST)
      await busy(jar, ACME_HOST)
      await removeStaff(api.db, 'demo', 'staff@demo.example')
      expect((await get('/admin/api/returns', jar, DEMO_HOST)).statusCode).toBe(403)
      expect((await get('/admin/api/session', jar, ACME_HOST)).json()).toEqual({
        email: 'staff@demo.example',
        shop: 'acme',
        shops: ['acme'],
        role: 'owner',
        actions: [...STAFF_ACTIONS],
      })
      await removeStaff(api.db, 'acme', 'staff@demo.example')
      expect((await get('/admin/api/returns', jar, ACME_HOST)).statusCode).toBe(401)
    })

    test('when another process deletes it (a replica signing it out, npm run staff beside the server)', async () => {
      const jar = await signedIn()
      await busy(jar)
      await api.db.query('DELETE FROM staff_sessions')
      expect((await get('/admin/api/returns', jar)).statusCode).toBe(401)
    })
  })

  describe('the idle and age limits hold to the millisecond while the session is in use', () => {
    test('30 minutes after the last time recorded (written at most once a minute)', async () => {
      const jar = await signedIn()
      await busy(jar)
      clock = new Date(NOW.getTime() + 30 * MINUTE)
      await busy(jar)
      // Recorded at 12:30; the calls 30 s later are not written.
      clock = new Date(NOW.getTime() + 30 * MINUTE + 30_000)
      await busy(jar)
      clock = new Date(NOW.getTime() + 60 * MINUTE)
      await busy(jar)
      clock = new Date(NOW.getTime() + 60 * MINUTE + 30_000)
      await busy(jar)
      clock = new Date(NOW.getTime() + 90 * MINUTE + 1)
      expect((await get('/admin/api/returns', jar)).statusCode).toBe(401)
      clock = new Date(NOW.getTime() + 60 * MINUTE + 40_000)
      // Ended for good: an earlier clock does not bring it back.
      expect((await get('/admin/api/returns', jar)).statusCode).toBe(401)
    })

    test('12 hours after sign-in, however busy', async () => {
      const jar = await signedIn()
      for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
        clock = new Date(NOW.getTime() + minutes * MINUTE)
        await busy(jar)
      }
      clock = new Date(NOW.getTime() + 12 * 60 * MINUTE - 30_000)
      await busy(jar)
      clock = new Date(NOW.getTime() + 12 * 60 * MINUTE)
      await busy(jar)
      clock = new Date(NOW.getTime() + 12 * 60 * MINUTE + 1)
      expect((await get('/admin/api/returns', jar)).statusCode).toBe(401)
    })
  })

  describe('the list', () => {
    /**
     * A return of each outcome, made from one the shopper submitted, its stored answer changed
     * as each choice would have it; and one imported without pricing.
     */
    const kinds = async () => {
      const order = await verified(api.app, DEMO, jane)
      const made = await submitted(api.app, order.token, {
        items: [{ line_item_id: order.line_items[0]!.id, quantity: 1, reason_id: 'changed_mind' }],
        refund_method: 'original_payment',
      })
      const [stored] = await api.db.query<{ order_id: string; return_order: ReturnOrder }>(
        'SELECT order_id, return_order FROM returns WHERE id = $1',
        [made.id],
      )
      const base = stored!.return_order
      const item = base.items[0]!
      const money = (amount: string) => ({
        shop_money: { amount, currency_code: 'EUR' },
        presentment_money: { amount, currency_code: 'EUR' },
      })
      const exchanged = { ...item, exchange_variant_id: 'tee-l', exchange_variant_title: 'L' }
      const variants: [string, ReturnOrder | null][] = [
        ['exchange', { ...base, items: [exchanged] }],
        ['mixed', { ...base, items: [exchanged, { ...item, line_item_id: 'mug' }] }],
        ['store credit', { ...base, refund_method: 'store_credit', store_credit_value: money('27.50') }],
        ['store credit without a value', { ...base, refund_method: 'store_credit', store_credit_value: null }],
        [
          'upsell',
          {
            ...base,
            refund_value: money('3.00'),
            new_item: {
              variant_id: 'mug-default',
              product_title: 'Ceramic Mug',
              title: '',
              price: money('14.00'),
              image_src: null,
            },
          },
        ],
        ['imported', null],
      ]
      for (const [i, [, returnOrder]] of variants.entries()) {
        const id = `kind-${i}`
        await api.db.query(
          `INSERT INTO returns (id, order_id, shop_id, number, name, return_order, created_at, state)
           VALUES ($1, $2, 'demo', $3, $4, $5, $6, 'requested')`,
          [
            id,
            stored!.order_id,
            i + 2,
            `#1001-R${i + 2}`,
            returnOrder && JSON.stringify(returnOrder),
            new Date(NOW.getTime() - i),
          ],
        )
        await api.db.query(
          'INSERT INTO return_items (return_id, order_id, line_item_id, quantity) VALUES ($1, $2, $3, $4)',
          [id, stored!.order_id, i === 1 ? 'mug' : 'tee', 1 + i],
        )
      }
      return [made.id!, ...variants.map((_, i) => `kind-${i}`)]
    }

    test('shows each kind of return, its outcome and refund, as the return’s own page does', async () => {
      const ids = await kinds()
      const jar = await signedIn()
      const list = (await get('/admin/api/returns', jar)).json<ReturnList>().returns
      const listed = new Map(list.map((entry) => [entry.id, entry]))
      const pick = ({ outcome, refund, items }: ReturnSummary) => ({ outcome, refund, items })
      expect(ids.map((id) => pick(listed.get(id)!))).toEqual([
        { outcome: 'refund', refund: { amount: '25.00', currency_code: 'EUR' }, items: 1 },
        { outcome: 'exchange', refund: { amount: '25.00', currency_code: 'EUR' }, items: 1 },
        { outcome: 'mixed', refund: { amount: '25.00', currency_code: 'EUR' }, items: 2 },
        { outcome: 'store_credit', refund: { amount: '27.50', currency_code: 'EUR' }, items: 3 },
        { outcome: 'store_credit', refund: { amount: '25.00', currency_code: 'EUR' }, items: 4 },
        { outcome: 'upsell', refund: { amount: '3.00', currency_code: 'EUR' }, items: 5 },
        { outcome: null, refund: null, items: 6 },
      ])
      for (const id of ids) {
        const page = await get(`/admin/api/returns/${id}`, jar)
        if (page.statusCode === 200) expect(page.json<ReturnDetail>().summary).toEqual(listed.get(id))
      }
      expect((await get(`/admin/api/returns/${ids[0]}`, jar)).statusCode).toBe(200)
    })
  })
})
