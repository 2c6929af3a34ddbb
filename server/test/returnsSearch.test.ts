/**
 * Finding and working through returns in the back office's list (docs/back-office.md, "Finding
 * returns", "Views", "Sorting"; decision 0084): the search by part of a word, the views, the
 * orders and their pages, the export of a selection and a selection moved one return at a time.
 */
import { RETURN_VIEWS } from '../../contract/constants'
import type { ReturnCounts, ReturnList } from '../../contract/staff'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildShop,
  buildTrackedReturn,
  returnedUnit,
} from './builders'
import { counted, engines, loadShops, startApi, type TestApi, demoStaffCookie } from './harness'
import { dropOffCodeSql } from '../src/storage/inspections'
import { countReturnViews, listReturns } from '../src/storage/staffReturns'

const HOST = 'demo.localhost'
const ADDRESS = { line1: 'Hauptstraße 1', city: 'Hamburg', postal_code: '20095', country_code: 'DE' }

const tracked = (line: string, progress: Record<string, string> = {}, created_at = 'now-3d') =>
  buildTrackedReturn([{ ...returnedUnit(line), reason_id: 'changed_mind' }], { progress, created_at })

/** Five returns of demo: requested, received, refunded, in transit; and one of acme's. */
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [
    buildProduct(),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' }),
    buildProduct({ id: 'sale', title: 'Socks 100% wool_blend', sizes: [], price: '9.00' }),
  ],
  return_reasons: [buildReason('changed_mind')],
  orders: [
    buildOrder({
      name: '#1001',
      email: 'jane@example.com',
      shipping_address: { ...ADDRESS, name: 'Jérôme Dupont' },
      line_items: [buildLine({ id: 'jane-tee' })],
      tracked_returns: [tracked('jane-tee', {}, 'now-1d')],
    }),
    buildOrder({
      name: '#1002',
      email: 'sam@example.com',
      shipping_address: { ...ADDRESS, name: 'Sam Smith' },
      line_items: [buildLine({ id: 'sam-mug', variant_id: 'mug-default', price: '14.00' })],
      tracked_returns: [tracked('sam-mug', { in_transit: 'now-2d', received: 'now-1d' }, 'now-2d')],
    }),
    buildOrder({
      name: '#2100',
      email: 'ann@example.com',
      line_items: [buildLine({ id: 'ann-socks', variant_id: 'sale-default', price: '9.00' })],
      tracked_returns: [
        tracked('ann-socks', { in_transit: 'now-2d', received: 'now-2d', refunded: 'now-1d' }, 'now-4d'),
      ],
    }),
    buildOrder({
      name: '#10015',
      email: 'bob_x@example.com',
      line_items: [buildLine({ id: 'bob-tee', price: '30.00' })],
      tracked_returns: [tracked('bob-tee', { in_transit: 'now-1d' }, 'now-5d')],
    }),
  ],
})
const ACME = buildShop({
  shop: 'acme',
  orders: [
    buildOrder({
      name: '#1001',
      email: 'jane.acme@example.com',
      line_items: [buildLine({ id: 'acme-tee' })],
      tracked_returns: [tracked('acme-tee')],
    }),
  ],
})

describe.each(engines())('finding returns on %s', (engine) => {
  let api: TestApi
  let jar: string
  beforeAll(async () => {
    api = await startApi(engine, [DEMO, ACME])
    jar = await demoStaffCookie(api)
  }, 120_000)
  afterAll(() => api.close())

  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: HOST, cookie: jar } })
  const list = async (query: string) => {
    const response = await get(`/admin/api/returns?${query}`)
    expect(response.statusCode).toBe(200)
    return response.json<ReturnList>()
  }
  const found = async (q: string, more = '') =>
    (await list(`q=${encodeURIComponent(q)}${more}`)).returns.map((entry) => entry.name)

  test('a part of an e-mail, a name, a title, a drop-off code or a number finds the return', async () => {
    expect(await found('jan')).toEqual(['#1001-R1'])
    // A whole e-mail is that shopper's, as verify reads it.
    expect(await found(' JANE@Example.com ')).toEqual(['#1001-R1'])
    expect(await found('ane@example.com')).toEqual([])
    expect(await found('EXAMPLE.COM')).toEqual(['#1001-R1', '#1002-R1', '#2100-R1', '#10015-R1'])
    // The shopper's name as the order keeps it, case and accents aside.
    expect(await found('jerome')).toEqual(['#1001-R1'])
    expect(await found('DUPÔNT')).toEqual(['#1001-R1'])
    // A returned item's title.
    expect(await found('mug')).toEqual(['#1002-R1'])
    expect(await found('classic tee')).toEqual(['#1001-R1', '#10015-R1'])
    // Every word must be found.
    expect(await found('tee jane')).toEqual(['#1001-R1'])
    // Digits are the start of a number, with or without #: 100 is #1001, #1002 and #10015, not #2100.
    expect(await found('100')).toEqual(['#1001-R1', '#1002-R1', '#10015-R1'])
    expect(await found('#100')).toEqual(['#1001-R1', '#1002-R1', '#10015-R1'])
    expect(await found('1001')).toEqual(['#1001-R1', '#10015-R1'])
    expect(await found('#1001-R1')).toEqual(['#1001-R1'])
    expect(await found('1001-r1')).toEqual(['#1001-R1'])
    expect(await found('2100')).toEqual(['#2100-R1'])
    const [code] = await api.db.query<{ drop_off_code: string }>(
      "SELECT drop_off_code FROM returns WHERE name = '#1002-R1' AND shop_id = 'demo'",
    )
    expect(await found(code!.drop_off_code.slice(3, 8).toLowerCase())).toEqual(['#1002-R1'])
  })

  test('% and _ are themselves, nothing found is an empty page, another shop is never found', async () => {
    expect(await found('100%')).toEqual(['#2100-R1'])
    expect(await found('%')).toEqual(['#2100-R1'])
    expect(await found('_')).toEqual(['#2100-R1', '#10015-R1'])
    expect(await found('b_x')).toEqual(['#10015-R1'])
    expect(await found('\\')).toEqual([])
    expect(await list('q=nobody-at-all')).toEqual({ returns: [], next: null })
    // acme's #1001 and jane.acme@ are acme's: demo's staff never see them.
    expect(await found('acme')).toEqual([])
    expect(await found("'; DROP TABLE returns; --")).toEqual([])
    // Longer than the contract takes: refused before any query.
    expect((await get(`/admin/api/returns?q=${'a'.repeat(255)}`)).statusCode).toBe(400)
  })

  test('the search text follows the order: a changed e-mail is found, the old one no longer', async () => {
    await api.db.query("UPDATE orders SET email_key = 'samuel@example.org' WHERE shop_id = 'demo' AND name = '#1002'")
    try {
      expect(await found('samuel')).toEqual(['#1002-R1'])
      expect(await found('sam@')).toEqual([])
    } finally {
      await api.db.query("UPDATE orders SET email_key = 'sam@example.com' WHERE shop_id = 'demo' AND name = '#1002'")
    }
  })

  test('each view is its filter of state and review', async () => {
    const names = async (view: string) => (await list(`view=${view}`)).returns.map((entry) => entry.name)
    expect(await names('all')).toEqual(['#1001-R1', '#1002-R1', '#2100-R1', '#10015-R1'])
    expect(await names('to_receive')).toEqual(['#1001-R1', '#10015-R1'])
    expect(await names('to_refund')).toEqual(['#1002-R1'])
    expect(await names('done')).toEqual(['#2100-R1'])
    expect(await names('needs_review')).toEqual([])
    await api.db.query("UPDATE returns SET review = 'pending' WHERE shop_id = 'demo' AND name = '#1001-R1'")
    await api.db.query("UPDATE returns SET review = 'rejected' WHERE shop_id = 'demo' AND name = '#10015-R1'")
    try {
      expect(await names('needs_review')).toEqual(['#1001-R1'])
      expect(await names('to_receive')).toEqual([])
      expect(await names('done')).toEqual(['#2100-R1', '#10015-R1'])
      // A view and a search together.
      expect(await found('example', '&view=done')).toEqual(['#2100-R1', '#10015-R1'])
    } finally {
      await api.db.query("UPDATE returns SET review = NULL WHERE shop_id = 'demo'")
    }
    expect((await get('/admin/api/returns?view=later')).statusCode).toBe(400)
  })

  test('each view’s count is its list’s length, under any search and filters, counted at once', async () => {
    const counts = async (query: string) => {
      const response = await get(`/admin/api/return-counts?${query}`)
      expect(response.statusCode).toBe(200)
      return response.json<ReturnCounts>()
    }
    const lengths = async (query: string): Promise<Record<string, number>> => {
      const pairs = await Promise.all(
        RETURN_VIEWS.map(async (view) => [view, (await list(`limit=100&view=${view}&${query}`)).returns.length]),
      )
      return Object.fromEntries(pairs) as Record<string, number>
    }
    expect(await counts('')).toEqual({ all: 4, needs_review: 0, to_receive: 2, to_refund: 1, done: 1 })
    await api.db.query("UPDATE returns SET review = 'pending' WHERE shop_id = 'demo' AND name = '#1001-R1'")
    await api.db.query("UPDATE returns SET review = 'rejected' WHERE shop_id = 'demo' AND name = '#10015-R1'")
    try {
      for (const query of ['', 'q=example', 'q=tee', 'q=jane%40example.com', 'state=in_transit', 'review=pending'])
        expect([query, await counts(query)]).toEqual([query, await lengths(query)])
      expect(await counts('q=tee')).toEqual({ all: 2, needs_review: 1, to_receive: 0, to_refund: 0, done: 1 })
    } finally {
      await api.db.query("UPDATE returns SET review = NULL WHERE shop_id = 'demo'")
    }
    // The counts take no view (each view is counted), nor what the list does not take.
    expect((await get('/admin/api/return-counts?view=done')).statusCode).toBe(400)
    expect((await get('/admin/api/return-counts?from=2026-02-31')).statusCode).toBe(400)
  })

  test('by date and by amount, both ways, a page at a time without a return twice or left out', async () => {
    const pages = async (query: string) => {
      const seen: string[] = []
      let after: string | null = null
      do {
        const page: ReturnList = await list(`${query}&limit=1${after ? `&after=${after}` : ''}`)
        seen.push(...page.returns.map((entry) => `${entry.name} ${entry.refund?.amount ?? '-'}`))
        after = page.next
      } while (after)
      return seen
    }
    expect(await pages('sort=newest')).toEqual(['#1001-R1 25.00', '#1002-R1 14.00', '#2100-R1 9.00', '#10015-R1 30.00'])
    expect(await pages('sort=oldest')).toEqual(['#10015-R1 30.00', '#2100-R1 9.00', '#1002-R1 14.00', '#1001-R1 25.00'])
    expect(await pages('sort=amount_desc')).toEqual([
      '#10015-R1 30.00',
      '#1001-R1 25.00',
      '#1002-R1 14.00',
      '#2100-R1 9.00',
    ])
    expect(await pages('sort=amount_asc')).toEqual([
      '#2100-R1 9.00',
      '#1002-R1 14.00',
      '#1001-R1 25.00',
      '#10015-R1 30.00',
    ])
    expect(await pages('sort=amount_desc&q=example&view=to_receive')).toEqual(['#10015-R1 30.00', '#1001-R1 25.00'])
    expect((await get('/admin/api/returns?sort=cheapest')).statusCode).toBe(400)
  })

  test('the export of a selection holds those returns of the shop only', async () => {
    const ids = (await list('')).returns.slice(0, 2).map((entry) => entry.id)
    const [acme] = await api.db.query<{ id: string }>("SELECT id FROM returns WHERE shop_id = 'acme'")
    const response = await get(`/admin/api/returns.csv?ids=${[...ids, acme!.id].join(',')}`)
    expect(response.statusCode).toBe(200)
    const rows = response.body.trim().split('\n').slice(1)
    expect(rows.map((row) => row.split(',')[0])).toEqual(['#1001-R1', '#1002-R1'])
    expect((await get('/admin/api/returns.csv?ids=a,,b')).statusCode).toBe(400)
  })

  test('a selection moved one return at a time: each is moved or refused by the same rules', async () => {
    const all = (await list('')).returns
    const results = []
    for (const entry of all) {
      const response = await api.app.inject({
        method: 'POST',
        url: `/admin/api/returns/${entry.id}/status`,
        headers: { host: HOST, cookie: jar, origin: `http://${HOST}` },
        payload: { state: 'received' },
      })
      results.push([entry.name, response.statusCode])
    }
    // #1002 is received already and #2100 refunded: refused, the others received.
    expect(results).toEqual([
      ['#1001-R1', 200],
      ['#1002-R1', 422],
      ['#2100-R1', 422],
      ['#10015-R1', 200],
    ])
    await loadShops(api.db, [DEMO])
  })

  test('among many returns, a search asks the index for its words’ rarer parts and finds the same returns', async () => {
    // 300 shoppers' returns: `shopper`'s trigrams are in nearly every return's text, once counted.
    await api.db.query(
      `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, line_items)
       SELECT 'many-o-' || g, 'demo', '#M' || g, 'M' || g, 'shopper' || g || '@example.com', now(), '[]'::jsonb
         FROM generate_series(1, 300) AS g`,
    )
    await api.db.query(
      `INSERT INTO returns (id, order_id, shop_id, number, name, created_at, state, drop_off_code)
       SELECT 'many-r-' || g, 'many-o-' || g, 'demo', 1, '#M' || g || '-R1', now() - interval '10 days' - make_interval(mins => g),
              'requested', ${dropOffCodeSql("'many-r-' || g")}
         FROM generate_series(1, 300) AS g`,
    )
    await api.db.exec('ANALYZE returns')
    try {
      // The storage read through a database of its own: the statistics are read afresh, and its statements seen.
      const { db, statements } = counted(api.db)
      const names = async (q: string) =>
        (await listReturns(db, 'demo', { q }, 25, null)).returns.map((entry) => entry.name)
      expect(await names('shopper123')).toEqual(['#M123-R1'])
      expect(statements.some((sql) => sql.includes('strpos('))).toBe(true)
      const twelve = ['#M12-R1', ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((digit) => `#M12${digit}-R1`)]
      expect(await names('SHOPPER12')).toEqual(twelve)
      expect(await names('shopper12 example')).toEqual(twelve)
      expect(await names('shopper12 m129')).toEqual(['#M129-R1'])
      // The same answers as the whole words' patterns give (the route's, or before the statistics).
      for (const q of ['shopper123', 'SHOPPER12', 'shopper12 example', 'shopper12 m129', 'shopper', 'jane'])
        expect(await names(q)).toEqual(await found(q, '&limit=25'))
      expect(await countReturnViews(db, 'demo', { q: 'shopper12' })).toMatchObject({ all: 11, to_receive: 11 })
    } finally {
      await api.db.query("DELETE FROM orders WHERE id LIKE 'many-o-%'")
    }
  })
})
