import type { LightMyRequestResponse } from 'fastify'
import type { ReturnRequest, ReturnStatus, UploadedPhoto } from '../../contract/api'
import type { ReturnDetail, ReturnList } from '../../contract/staff'
import { hashPassword } from '../src/domain/passwords'
import { STAFF_ACTIONS } from '../src/domain/roles'
import { signStatus } from '../src/domain/token'
import { addStaff } from '../src/storage/staff'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildShop,
  buildTrackedReturn,
  returnedUnit,
} from './builders'
import { bearer, engines, loadShops, NOW, startApi, submitted, type TestApi, verified } from './harness'
import { photo } from './images'

const PASSWORD = 'correct horse battery'
const ACME_PASSWORD = 'acme staple battery'
const MINUTE = 60_000

/** #1001 with a tee and a mug; #1002 with a tee, a return of it in transit made before the import. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ variant_id: 'tee-m' }), buildLine({ variant_id: 'mug-default', price: '14.00' })],
})
const sam = buildOrder({
  name: '#1002',
  email: 'sam@example.com',
  line_items: [buildLine({ id: 'sam-tee' })],
  tracked_returns: [
    buildTrackedReturn([{ ...returnedUnit('sam-tee'), reason_id: 'changed_mind' }], {
      progress: { in_transit: 'now-1d' },
    }),
  ],
})
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' })],
  return_reasons: [
    buildReason('changed_mind', { label: 'Changed my mind' }),
    buildReason('damaged', { label: 'Arrived damaged', photos_required: 1 }),
    buildReason('not_as_described', {
      label: 'Not as described',
      children: [buildReason('wrong_item', { label: 'Wrong item sent' })],
    }),
  ],
  orders: [jane, sam],
})
/** Another shop, with an order of the same name. */
const ACME = buildShop({ shop: 'acme', orders: [buildOrder({ name: '#1001', email: 'ada@example.com' })] })

const DEMO_HOST = 'demo.localhost'
const ACME_HOST = 'acme.localhost'

describe.each(engines())('the back office on %s', (engine) => {
  let api: TestApi
  let clock: Date
  beforeAll(async () => {
    api = await startApi(engine, [], { now: () => clock })
    // PGlite's start and migrations take a while on a busy machine.
  }, 120_000)
  afterAll(() => api.close())
  beforeEach(async () => {
    clock = NOW
    await api.db.exec(
      'DELETE FROM staff; DELETE FROM sign_in_failures; DELETE FROM rate_limits; DELETE FROM shops; DELETE FROM return_actions',
    )
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'Staff@Demo.example', await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'staff@acme.example', await hashPassword(ACME_PASSWORD), NOW)
  })

  const signIn = (email: string, password: string, { host = DEMO_HOST, ip = '127.0.0.1' } = {}) =>
    api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { host, origin: `http://${host}` },
      remoteAddress: ip,
      payload: { email, password },
    })
  const sessionCookie = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((each) => each.name === 'rebound_staff')
    if (!cookie) throw new Error(`no session cookie: ${response.statusCode} ${response.body}`)
    return `rebound_staff=${cookie.value}`
  }
  const signedIn = async (email = 'staff@demo.example', password = PASSWORD, host = DEMO_HOST) =>
    sessionCookie(await signIn(email, password, { host }))
  const get = (url: string, cookie: string, host = DEMO_HOST) =>
    api.app.inject({ method: 'GET', url, headers: { host, cookie } })
  const post = (url: string, cookie: string, payload: Record<string, unknown>, host = DEMO_HOST) =>
    api.app.inject({ method: 'POST', url, headers: { host, cookie, origin: `http://${host}` }, payload })
  const returnsOf = async (query: string, cookie: string, host = DEMO_HOST) => {
    const response = await get(`/admin/api/returns${query}`, cookie, host)
    expect(response.statusCode).toBe(200)
    return response.json<ReturnList>()
  }
  /** jane returns the mug, damaged, with a photo; answers the return. */
  const janeReturns = async () => {
    const order = await verified(api.app, DEMO, jane)
    const image = await photo()
    const upload = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { ...bearer(order.token), 'content-type': 'image/png' },
      payload: image,
    })
    const photoId = upload.json<UploadedPhoto>().id
    const body: ReturnRequest = {
      items: [{ line_item_id: order.line_items[1]!.id, quantity: 1, reason_id: 'damaged', photo_ids: [photoId] }],
      refund_method: 'original_payment',
    }
    return { made: await submitted(api.app, order.token, body), photoId }
  }

  describe('sign-in', () => {
    test('the right password starts a session in an HttpOnly, SameSite=Strict cookie for /admin; sign-out ends it', async () => {
      const response = await signIn(' STAFF@demo.example ', PASSWORD)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({
        email: 'staff@demo.example',
        shop: 'demo',
        shops: ['demo'],
        role: 'owner',
        actions: [...STAFF_ACTIONS],
      })
      const cookie = response.cookies.find((each) => each.name === 'rebound_staff')!
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' })
      expect(cookie.secure).toBeUndefined()
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
      // Only a hash of the cookie is stored: the table alone signs no one in.
      const rows = await api.db.query<{ id_hash: string }>('SELECT id_hash FROM staff_sessions')
      expect(rows.map((row) => row.id_hash)).not.toContain(cookie.value)

      const jar = `rebound_staff=${cookie.value}`
      expect((await get('/admin/api/session', jar)).json()).toMatchObject({ email: 'staff@demo.example' })
      const out = await api.app.inject({
        method: 'DELETE',
        url: '/admin/api/session',
        headers: { host: DEMO_HOST, cookie: jar, origin: `http://${DEMO_HOST}` },
      })
      expect(out.statusCode).toBe(204)
      expect((await get('/admin/api/session', jar)).statusCode).toBe(401)
    })

    test('behind https the cookie is Secure', async () => {
      const response = await api.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: { host: DEMO_HOST, origin: `https://${DEMO_HOST}`, 'x-forwarded-proto': 'https' },
        payload: { email: 'staff@demo.example', password: PASSWORD },
      })
      // No proxy is trusted by default: the request is http, its https origin is another site's.
      expect(response.statusCode).toBe(403)
      const behind = await startApi(engine, [], { now: () => clock, trustProxy: ['127.0.0.1'] })
      try {
        await addStaff(behind.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
        const secure = await behind.app.inject({
          method: 'POST',
          url: '/admin/api/session',
          headers: { host: DEMO_HOST, origin: `https://${DEMO_HOST}`, 'x-forwarded-proto': 'https' },
          payload: { email: 'staff@demo.example', password: PASSWORD },
        })
        expect(secure.statusCode).toBe(200)
        expect(secure.cookies[0]).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' })
      } finally {
        await behind.close()
      }
    })

    test('a wrong password and an unknown e-mail answer alike: 401, the same body, no cookie', async () => {
      const wrong = await signIn('staff@demo.example', 'not the password')
      const unknown = await signIn('nobody@demo.example', 'not the password')
      for (const response of [wrong, unknown]) {
        expect(response.statusCode).toBe(401)
        expect(response.cookies).toEqual([])
      }
      expect(unknown.json()).toEqual(wrong.json())
      expect(wrong.json()).toEqual({ error: 'invalid_credentials', message: 'The e-mail or password is not right.' })
    })

    test('ten wrong passwords in 15 minutes lock the account for 15 minutes: the right one is refused with a 429 and retry-after', async () => {
      for (let i = 0; i < 10; i++) {
        clock = new Date(NOW.getTime() + i * MINUTE)
        // From ten clients: the lock is the account's, whoever tries.
        expect((await signIn('staff@demo.example', `guess ${i}`, { ip: `127.0.2.${i + 1}` })).statusCode).toBe(401)
      }
      const locked = await signIn('staff@demo.example', PASSWORD, { ip: '127.0.3.1' })
      expect(locked.statusCode).toBe(429)
      expect(locked.json()).toMatchObject({ error: 'locked' })
      expect(Number(locked.headers['retry-after'])).toBe(15 * 60)
      // An unknown e-mail locks alike, so the lock tells nothing about who has an account.
      for (let i = 0; i < 10; i++) await signIn('nobody@demo.example', `guess ${i}`, { ip: `127.0.4.${i + 1}` })
      expect((await signIn('nobody@demo.example', 'any', { ip: '127.0.3.2' })).statusCode).toBe(429)

      clock = new Date(NOW.getTime() + 9 * MINUTE + 15 * MINUTE - 1000)
      expect((await signIn('staff@demo.example', PASSWORD, { ip: '127.0.3.3' })).statusCode).toBe(429)
      clock = new Date(NOW.getTime() + 9 * MINUTE + 15 * MINUTE)
      expect((await signIn('staff@demo.example', PASSWORD, { ip: '127.0.3.4' })).statusCode).toBe(200)
    })

    test('nine wrong passwords, then the right one, then nine more: no lock (a sign-in clears the count)', async () => {
      for (let i = 0; i < 9; i++) await signIn('staff@demo.example', `guess ${i}`, { ip: `127.0.5.${i + 1}` })
      expect((await signIn('staff@demo.example', PASSWORD, { ip: '127.0.5.20' })).statusCode).toBe(200)
      for (let i = 0; i < 9; i++) await signIn('staff@demo.example', `guess ${i}`, { ip: `127.0.6.${i + 1}` })
      expect((await signIn('staff@demo.example', PASSWORD, { ip: '127.0.6.20' })).statusCode).toBe(200)
    })

    test('failures older than 15 minutes do not count towards a lock', async () => {
      for (let i = 0; i < 9; i++) await signIn('staff@demo.example', `guess ${i}`, { ip: `127.0.7.${i + 1}` })
      clock = new Date(NOW.getTime() + 16 * MINUTE)
      expect((await signIn('staff@demo.example', 'guess 9', { ip: '127.0.7.10' })).statusCode).toBe(401)
      expect((await signIn('staff@demo.example', PASSWORD, { ip: '127.0.7.11' })).statusCode).toBe(200)
    })

    test("one client's 31st sign-in within a minute is a 429, across accounts; another client is not held back", async () => {
      for (let i = 0; i < 30; i++)
        expect((await signIn(`person${i}@demo.example`, 'wrong', { ip: '127.0.8.1' })).statusCode).toBe(401)
      const refused = await signIn('staff@demo.example', PASSWORD, { ip: '127.0.8.1' })
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect((await signIn('staff@demo.example', PASSWORD, { ip: '127.0.8.2' })).statusCode).toBe(200)
    })

    test('a session ends after 30 minutes without a request, and 12 hours after sign-in however busy', async () => {
      const jar = await signedIn()
      clock = new Date(NOW.getTime() + 29 * MINUTE)
      expect((await get('/admin/api/session', jar)).statusCode).toBe(200)
      clock = new Date(NOW.getTime() + 58 * MINUTE)
      expect((await get('/admin/api/session', jar)).statusCode).toBe(200)
      clock = new Date(NOW.getTime() + 89 * MINUTE)
      expect((await get('/admin/api/session', jar)).statusCode).toBe(401)

      clock = NOW
      const busy = await signedIn()
      for (let minutes = 25; minutes <= 12 * 60; minutes += 25) {
        clock = new Date(NOW.getTime() + minutes * MINUTE)
        expect((await get('/admin/api/session', busy)).statusCode).toBe(200)
      }
      clock = new Date(NOW.getTime() + 12 * 60 * MINUTE + 1000)
      expect((await get('/admin/api/session', busy)).statusCode).toBe(401)
    })

    test('abandoned sessions and old failure counts do not pile up', async () => {
      await signedIn()
      await signIn('someone@demo.example', 'wrong')
      clock = new Date(NOW.getTime() + 31 * MINUTE)
      // The next sign-in and the next failure clear what is past its time.
      await signedIn()
      await signIn('another@demo.example', 'wrong')
      expect(await api.db.query('SELECT 1 FROM staff_sessions')).toHaveLength(1)
      expect(
        (await api.db.query<{ email: string }>('SELECT email FROM sign_in_failures')).map((row) => row.email),
      ).toEqual(['another@demo.example'])
    })

    test('a forged or unknown cookie is not signed in', async () => {
      for (const cookie of ['rebound_staff=forged', 'rebound_staff=', 'other=1'])
        expect((await get('/admin/api/returns', cookie)).statusCode).toBe(401)
    })
  })

  describe('cross-site requests', () => {
    test('a state-changing call without this origin is refused, signed in or not, before it does anything', async () => {
      const jar = await signedIn()
      const { made } = await janeReturns()
      for (const headers of [
        {},
        { origin: 'http://evil.example' },
        { origin: 'null' },
        { origin: `http://${ACME_HOST}` },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
      ]) {
        const response = await api.app.inject({
          method: 'POST',
          url: `/admin/api/returns/${made.id}/status`,
          headers: { host: DEMO_HOST, cookie: jar, ...headers },
          payload: { state: 'received' },
        })
        expect({ headers, status: response.statusCode }).toEqual({ headers, status: 403 })
        expect(response.json()).toMatchObject({ error: 'cross_site' })
      }
      const forgedSignIn = await api.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: { host: DEMO_HOST, origin: 'http://evil.example' },
        payload: { email: 'staff@demo.example', password: PASSWORD },
      })
      expect(forgedSignIn.statusCode).toBe(403)
      const lines = await api.db.query('SELECT 1 FROM return_item_events WHERE return_id = $1', [made.id])
      expect(lines).toEqual([])
      // A browser that sends no Origin still says where the request came from.
      const sameOrigin = await api.app.inject({
        method: 'POST',
        url: `/admin/api/returns/${made.id}/status`,
        headers: { host: DEMO_HOST, cookie: jar, 'sec-fetch-site': 'same-origin' },
        payload: { state: 'in_transit' },
      })
      expect(sameOrigin.statusCode).toBe(200)
    })
  })

  describe("a shop's staff see only their shop", () => {
    test("acme's staff cannot sign in on demo's host, nor use an acme session there", async () => {
      expect((await signIn('staff@acme.example', ACME_PASSWORD)).statusCode).toBe(403)
      const acme = await signedIn('staff@acme.example', ACME_PASSWORD, ACME_HOST)
      expect((await get('/admin/api/returns', acme, DEMO_HOST)).statusCode).toBe(403)
    })

    test("acme's staff get 404 for demo's return, its photos and its actions, and never list it", async () => {
      const { made, photoId } = await janeReturns()
      const acme = await signedIn('staff@acme.example', ACME_PASSWORD, ACME_HOST)
      expect((await get(`/admin/api/returns/${made.id}`, acme, ACME_HOST)).statusCode).toBe(404)
      expect((await get(`/admin/api/returns/${made.id}/photos/${photoId}`, acme, ACME_HOST)).statusCode).toBe(404)
      const moved = await post(`/admin/api/returns/${made.id}/status`, acme, { state: 'received' }, ACME_HOST)
      expect(moved.statusCode).toBe(404)
      expect((await returnsOf('', acme, ACME_HOST)).returns).toEqual([])
      expect((await returnsOf('?q=%231001', acme, ACME_HOST)).returns).toEqual([])
      // Demo's staff see it.
      const demo = await signedIn()
      expect((await returnsOf('?q=%231001', demo)).returns.map((entry) => entry.id)).toEqual([made.id])
    })

    test('an operator of both shops works on each on its host', async () => {
      await addStaff(api.db, 'acme', 'staff@demo.example', '', NOW)
      const onAcme = await signIn('staff@demo.example', PASSWORD, { host: ACME_HOST })
      expect(onAcme.json()).toEqual({
        email: 'staff@demo.example',
        shop: 'acme',
        shops: ['acme', 'demo'],
        role: 'owner',
        actions: [...STAFF_ACTIONS],
      })
      await janeReturns()
      expect((await returnsOf('', sessionCookie(onAcme), ACME_HOST)).returns).toEqual([])
    })
  })

  describe('returns', () => {
    test('the list is newest first, and finds a return by order name, e-mail or return number', async () => {
      const { made } = await janeReturns()
      const jar = await signedIn()
      const all = await returnsOf('', jar)
      expect(all.returns.map((entry) => entry.order_name)).toEqual(['#1001', '#1002'])
      expect(all.returns[0]).toEqual({
        id: made.id,
        name: '#1001-R1',
        order_name: '#1001',
        email: 'jane@example.com',
        created_at: NOW.toISOString(),
        items: 1,
        outcome: 'refund',
        refund: { amount: '14.00', currency_code: 'EUR' },
        state: 'requested',
        review: null,
      })
      expect(all.returns[1]).toMatchObject({ state: 'in_transit', outcome: 'refund' })
      for (const q of ['#1001', '1001', ' jane@EXAMPLE.com ', '#1001-R1', '1001-r1'])
        expect({ q, found: (await returnsOf(`?q=${encodeURIComponent(q)}`, jar)).returns.map((r) => r.id) }).toEqual({
          q,
          found: [made.id],
        })
      expect((await returnsOf('?q=%231001-R2', jar)).returns).toEqual([])
      expect((await returnsOf('?state=in_transit', jar)).returns.map((r) => r.order_name)).toEqual(['#1002'])
      expect((await returnsOf('?reason=damaged', jar)).returns.map((r) => r.order_name)).toEqual(['#1001'])
      expect((await returnsOf('?from=2026-11-20&to=2026-11-20', jar)).returns.map((r) => r.order_name)).toEqual([
        '#1001',
      ])
      expect((await returnsOf('?to=2026-11-19', jar)).returns.map((r) => r.order_name)).toEqual(['#1002'])
    })

    test('pages follow each other without gaps or repeats', async () => {
      const jar = await signedIn()
      // Twelve returns, one per order.
      const many = buildShop({
        ...DEMO,
        orders: Array.from({ length: 12 }, (_, i) =>
          buildOrder({
            name: `#2${String(i).padStart(3, '0')}`,
            line_items: [buildLine({ id: `l-${i}` })],
            // Several on the same day, at the same moment: the id orders them.
            tracked_returns: [
              buildTrackedReturn([{ ...returnedUnit(`l-${i}`), reason_id: 'changed_mind' }], {
                created_at: `now-${i % 3}d`,
              }),
            ],
          }),
        ),
      })
      await loadShops(api.db, [many])
      const seen: string[] = []
      let after = ''
      for (let page = 0; page < 3; page++) {
        const list = await returnsOf(`?limit=5${after}`, jar)
        seen.push(...list.returns.map((entry) => entry.name))
        after = list.next ? `&after=${list.next}` : ''
        if (page < 2) expect(list.next).not.toBeNull()
        else expect(list.next).toBeNull()
      }
      expect(seen).toHaveLength(12)
      expect(new Set(seen).size).toBe(12)
      for (const bad of ['?after=nonsense', '?limit=0', '?limit=101', '?from=2026-13-45', '?state=lost'])
        expect({ bad, status: (await get(`/admin/api/returns${bad}`, jar)).statusCode }).toEqual({ bad, status: 400 })
    })

    test('a return shows its items, reason, photos and timeline; marking it received moves the shopper’s status page at once', async () => {
      const { made, photoId } = await janeReturns()
      const jar = await signedIn()
      const detail = (await get(`/admin/api/returns/${made.id}`, jar)).json<ReturnDetail>()
      expect(detail.return_order?.items[0]).toMatchObject({ reason_id: 'damaged', title: 'Ceramic Mug' })
      expect(detail.photos).toEqual([
        { id: photoId, line_item_id: jane.line_items[1]!.id, url: `/admin/api/returns/${made.id}/photos/${photoId}` },
      ])
      const image = await get(detail.photos[0]!.url, jar)
      expect(image.statusCode).toBe(200)
      expect(image.headers['content-type']).toBe('image/png')
      expect(image.headers['cache-control']).toBe('no-store')
      expect(detail.timeline).toEqual([
        expect.objectContaining({ kind: 'created', actor: 'shopper', state: 'requested' }),
      ])

      clock = new Date(NOW.getTime() + 20 * MINUTE)
      for (const state of ['in_transit', 'received'] as const) {
        const moved = await post(`/admin/api/returns/${made.id}/status`, jar, {
          state,
          note: state === 'received' ? '  Box dented, mug intact  ' : undefined,
        })
        expect(moved.statusCode).toBe(200)
      }
      const after = (await get(`/admin/api/returns/${made.id}`, jar)).json<ReturnDetail>()
      expect(after.summary.state).toBe('received')
      expect(after.timeline.map(({ kind, state, actor, note }) => ({ kind, state, actor, note }))).toEqual([
        { kind: 'created', state: 'requested', actor: 'shopper', note: null },
        { kind: 'action', state: 'in_transit', actor: 'staff@demo.example', note: null },
        { kind: 'action', state: 'received', actor: 'staff@demo.example', note: 'Box dented, mug intact' },
      ])
      const shopper = await api.app.inject({
        method: 'GET',
        url: `/portal-registration/returns/${made.id}/status?signature=${signStatus(Buffer.from('test-secret'), made.id!)}`,
      })
      expect(shopper.json<ReturnStatus>().items[0]!.state).toBe('received')
      // The rules of the status API hold: never backwards.
      const back = await post(`/admin/api/returns/${made.id}/status`, jar, { state: 'in_transit' })
      expect(back.statusCode).toBe(422)
      expect(back.json()).toMatchObject({ error: 'invalid_transition' })
    })

    test("the shop's reasons for the filter, a sub-reason named with its parent", async () => {
      const jar = await signedIn()
      const shop = await get('/admin/api/shop', jar)
      expect(shop.json()).toEqual({
        shop: 'demo',
        reasons: [
          { id: 'changed_mind', label: 'Changed my mind' },
          { id: 'damaged', label: 'Arrived damaged' },
          { id: 'wrong_item', label: 'Not as described: Wrong item sent' },
        ],
      })
    })

    test('the export is every return the filters match, as CSV, with formulas written as text', async () => {
      const order = await verified(api.app, DEMO, jane)
      // A shopper's comment cannot reach a spreadsheet as a formula; nor can anything else.
      await submitted(api.app, order.token, {
        items: [{ line_item_id: order.line_items[0]!.id, quantity: 1, reason_id: 'changed_mind' }],
        refund_method: 'store_credit',
      })
      // A rejected return reads as rejected, never as requested (decision 0059).
      clock = new Date(NOW.getTime() + MINUTE)
      const rejected = await submitted(api.app, order.token, {
        items: [{ line_item_id: order.line_items[1]!.id, quantity: 1, reason_id: 'changed_mind' }],
        refund_method: 'original_payment',
      })
      await api.db.query("UPDATE returns SET review = 'rejected' WHERE id = $1", [rejected.id])
      const jar = await signedIn()
      const csv = await get('/admin/api/returns.csv', jar)
      expect(csv.statusCode).toBe(200)
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(csv.headers['content-disposition']).toBe('attachment; filename="returns-demo-2026-11-20.csv"')
      expect(csv.headers['cache-control']).toBe('no-store')
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n')
      expect(lines).toEqual([
        'Return,Order,Shopper,Submitted,Items,Outcome,Refund,Currency,State,Review',
        expect.stringMatching(/^#1001-R2,#1001,jane@example.com,.*,1,Refund,14.00,EUR,Rejected,Rejected$/),
        `#1001-R1,#1001,jane@example.com,${NOW.toISOString()},1,Store credit,25.00,EUR,Requested,`,
        expect.stringMatching(/^#1002-R1,#1002,sam@example.com,.*,1,Refund,.*,EUR,In transit,$/),
      ])
      const filtered = await get('/admin/api/returns.csv?state=in_transit', jar)
      expect(filtered.body.trim().split('\n')).toHaveLength(2)
      for (const bad of ['?from=2026-02-31', '?state=lost', '?after=x'])
        expect({ bad, status: (await get(`/admin/api/returns.csv${bad}`, jar)).statusCode }).toEqual({
          bad,
          status: 400,
        })
      expect((await get('/admin/api/returns.csv', '')).statusCode).toBe(401)
      // Another shop's staff export their own shop's returns only.
      const acme = await signedIn('staff@acme.example', ACME_PASSWORD, ACME_HOST)
      expect((await get('/admin/api/returns.csv', acme, ACME_HOST)).body.trim().split('\n')).toHaveLength(1)
    })

    test('an e-mail or order that reads as a formula is exported as text', async () => {
      const formula = buildShop({
        ...DEMO,
        orders: [
          buildOrder({
            name: '=HYPERLINK("http://evil.example")',
            email: 'plus@example.com',
            line_items: [buildLine({ id: 'f-1' })],
            tracked_returns: [buildTrackedReturn([{ ...returnedUnit('f-1'), reason_id: 'changed_mind' }])],
          }),
        ],
      })
      await loadShops(api.db, [formula])
      const csv = await get('/admin/api/returns.csv', await signedIn())
      expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"")-R1","'=HYPERLINK(""http://evil.example"")"`)
    })

    test('insights: reasons, most returned products and the money that moved, for a period', async () => {
      await janeReturns()
      const jar = await signedIn()
      const insights = await get('/admin/api/insights', jar)
      expect(insights.statusCode).toBe(200)
      const eur = (amount: string) => ({ amount, currency_code: 'EUR' })
      expect(insights.json()).toEqual({
        from: '2026-10-22',
        to: '2026-11-20',
        returns: 2,
        reasons: [
          { reason_id: 'changed_mind', label: 'Changed my mind', count: 1, value: eur('25.00') },
          { reason_id: 'damaged', label: 'Arrived damaged', count: 1, value: eur('14.00') },
        ],
        products: [
          { title: 'Ceramic Mug', count: 1, value: eur('14.00') },
          { title: 'Classic Tee', count: 1, value: eur('25.00') },
        ],
        // Asked for, not yet refunded: no money moved.
        outcomes: { exchanges: eur('0.00'), upsells: eur('0.00'), store_credit: eur('0.00'), refunded: eur('0.00') },
      })
      // Only the day of jane's return.
      const today = (await get('/admin/api/insights?from=2026-11-20&to=2026-11-20', jar)).json<{ returns: number }>()
      expect(today.returns).toBe(1)
      for (const bad of ['?from=2026-11-21&to=2026-11-20', '?from=2024-01-01&to=2026-11-20', '?to=2026-02-30', '?x=1'])
        expect({ bad, status: (await get(`/admin/api/insights${bad}`, jar)).statusCode }).toEqual({ bad, status: 400 })
      // Acme's staff see acme's figures: none.
      const acme = await signedIn('staff@acme.example', ACME_PASSWORD, ACME_HOST)
      expect((await get('/admin/api/insights', acme, ACME_HOST)).json()).toMatchObject({ returns: 0, reasons: [] })
    })

    test('without a session nothing is answered: list, return, photo, action', async () => {
      const { made, photoId } = await janeReturns()
      for (const url of [
        '/admin/api/returns',
        `/admin/api/returns/${made.id}`,
        `/admin/api/returns/${made.id}/photos/${photoId}`,
      ])
        expect((await get(url, '')).statusCode).toBe(401)
      expect((await post(`/admin/api/returns/${made.id}/status`, '', { state: 'received' })).statusCode).toBe(401)
    })
  })

  test('a wrong password and an unknown e-mail take the same time (medians within 25%)', async () => {
    const time = async (email: string, i: number) => {
      const started = performance.now()
      const response = await signIn(email, `wrong ${i}`, { ip: `127.1.${i}.1` })
      expect(response.statusCode).toBe(401)
      return performance.now() - started
    }
    const known: number[] = []
    const unknown: number[] = []
    // Interleaved, and under the lock's ten (each e-mail a fresh count), so both are the same work.
    for (let i = 0; i < 18; i++) {
      clock = new Date(NOW.getTime() + i * 16 * MINUTE)
      known.push(await time('staff@demo.example', i))
      unknown.push(await time(`nobody${i}@demo.example`, i))
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const [a, b] = [median(known), median(unknown)]
    expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.25)
    // Both did a hash's work, not an early answer.
    expect(Math.min(a, b)).toBeGreaterThan(5)
  }, 60_000)
})
