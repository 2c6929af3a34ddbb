import { createServer } from 'node:net'
import type { LightMyRequestResponse } from 'fastify'
import type { ConnectionTest, StoreConnectionAnswer, StoreConnectionView } from '../../contract/staff'
import { engineFor } from '../src/services/engines'
import { CONNECTION_TESTS_PER_MINUTE } from '../src/routes/staffStoreConnection'
import { hashPassword } from '../src/domain/passwords'
import { importShop } from '../src/import/importShop'
import { deleteShop } from '../src/storage/shops'
import { addStaff } from '../src/storage/staff'
import { connectionSealingKey, openStoreConnection } from '../src/storage/storeConnections'
import { buildShop } from './builders'
import { engines, loadShops, NOW, startApi, staffCookie, type TestApi } from './harness'

/**
 * The store connection (docs/back-office.md: Store connection, decision 0075): set by staff or the
 * shop file, its key sealed in the table and never answered, tested, removed. Test connection
 * against a real Medusa is server/test/medusa/connection.test.ts.
 */

const PASSWORD = 'correct horse battery'
const SECRET = Buffer.from('test-secret') // startApi's
const KEY = 'sk_0123456789abcdef0123456789abcdef0123456789abcdef'
const OTHER_KEY = 'sk_fedcba9876543210fedcba9876543210'
const DEMO = buildShop({ shop: 'demo' })
const ACME = buildShop({ shop: 'acme' })
const DEMO_HOST = 'demo.localhost'
const ACME_HOST = 'acme.localhost'
const CONNECTION = {
  engine: 'medusa',
  url: 'http://127.0.0.1:9000',
  api_key: KEY,
  sales_channel_id: 'sc_01',
  stock_location_id: 'sloc_01',
}

/** A local port nothing listens on: a server's, closed again. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe.each(engines())('the store connection on %s', (engine) => {
  let api: TestApi
  let cookies: Record<string, string>
  beforeAll(async () => {
    api = await startApi(engine, [])
    await loadShops(api.db, [DEMO, ACME])
    const hash = await hashPassword(PASSWORD)
    await addStaff(api.db, 'demo', 'ops@demo.example', hash, NOW)
    await addStaff(api.db, 'acme', 'ops@acme.example', hash, NOW)
    cookies = {
      [DEMO_HOST]: await staffCookie(api.app, 'ops@demo.example', PASSWORD, DEMO_HOST),
      [ACME_HOST]: await staffCookie(api.app, 'ops@acme.example', PASSWORD, ACME_HOST),
    }
  }, 120_000)
  afterAll(() => api.close())
  beforeEach(() => api.db.exec('DELETE FROM store_connections'))

  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    host = DEMO_HOST,
  ): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method,
      url,
      headers: { host, cookie: cookies[host]!, origin: `http://${host}` },
      ...(payload === undefined ? {} : { payload }),
    })
  const connect = (body: object = CONNECTION) => call('PUT', '/admin/api/store-connection', body)
  const shown = async (host = DEMO_HOST) =>
    (await call('GET', '/admin/api/store-connection', undefined, host)).json<StoreConnectionAnswer>().connection
  const rawRows = () => api.db.query<Record<string, unknown>>('SELECT * FROM store_connections')

  test('staff connect a store: shown without its key, which the table holds only sealed', async () => {
    const set = await connect()
    expect(set.statusCode).toBe(200)
    const expected: StoreConnectionView = {
      engine: 'medusa',
      url: 'http://127.0.0.1:9000',
      api_key_readable: true,
      sales_channel_id: 'sc_01',
      stock_location_id: 'sloc_01',
      region_id: null,
      updated_at: NOW.toISOString(),
      updated_by: 'ops@demo.example',
      last_test: null,
    }
    expect(set.json()).toEqual(expected)
    expect(await shown()).toEqual(expected)
    expect(set.body).not.toContain('sk_')

    // The table: not the key, nor any encoding of it.
    const rows = JSON.stringify(await rawRows())
    for (const form of [KEY, KEY.slice(3, 20), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('hex')])
      expect(rows).not.toContain(form)
    // Two seals of one key differ (a random IV each).
    await connect()
    const [first] = await rawRows()
    await connect()
    const [second] = await rawRows()
    expect(first!.api_key_sealed).not.toEqual(second!.api_key_sealed)

    // The engine client gets it in clear, and only with this server secret.
    const ready = await engineFor({ db: api.db, secret: SECRET }, 'demo')
    expect(ready).toMatchObject({ engine: 'medusa', connection: { url: 'http://127.0.0.1:9000' } })
    expect((await openStoreConnection(api.db, connectionSealingKey(SECRET), 'demo'))?.apiKey).toBe(KEY)
  })

  test('another server secret cannot open the key, nor another shop a key moved to it', async () => {
    await connect()
    const other = Buffer.from('another-secret')
    expect((await openStoreConnection(api.db, connectionSealingKey(other), 'demo'))?.apiKey).toBeNull()
    expect(await engineFor({ db: api.db, secret: other }, 'demo')).toBeNull()

    await connect()
    await call('PUT', '/admin/api/store-connection', { ...CONNECTION, api_key: OTHER_KEY }, ACME_HOST)
    await api.db.query(
      "UPDATE store_connections SET api_key_sealed = (SELECT api_key_sealed FROM store_connections WHERE shop_id = 'demo') WHERE shop_id = 'acme'",
    )
    expect((await openStoreConnection(api.db, connectionSealingKey(SECRET), 'acme'))?.apiKey).toBeNull()
    expect(await shown(ACME_HOST)).toMatchObject({ api_key_readable: false })
    const test = await call('POST', '/admin/api/store-connection/test', undefined, ACME_HOST)
    expect(test.json<ConnectionTest>()).toMatchObject({
      ok: false,
      checks: [
        { check: 'address', outcome: 'not_checked' },
        { check: 'key', outcome: 'unreadable' },
        { check: 'sales_channel', outcome: 'not_checked' },
        { check: 'stock_location', outcome: 'not_checked' },
      ],
    })
  })

  test('a change without a key keeps the key; a first connection needs one; each shop sees its own', async () => {
    const first = await connect({ ...CONNECTION, api_key: undefined })
    expect(first.statusCode).toBe(400)
    expect(first.json()).toMatchObject({ error: 'invalid_request', message: 'api_key: required to connect a store' })

    await connect()
    const changed = await connect({
      ...CONNECTION,
      api_key: undefined,
      url: 'https://shop.internal/',
      region_id: 'reg_01',
    })
    expect(changed.json()).toMatchObject({ url: 'https://shop.internal/', region_id: 'reg_01' })
    expect((await openStoreConnection(api.db, connectionSealingKey(SECRET), 'demo'))?.apiKey).toBe(KEY)
    expect(await shown(ACME_HOST)).toBeNull()
  })

  test.each([
    ['a user and password in the address', { url: 'http://admin:pw@127.0.0.1:9000' }],
    ['an address not http(s)', { url: 'ftp://127.0.0.1/' }],
    ['another engine', { engine: 'shopify' }],
    ['a key with spaces', { api_key: 'sk_secret with spaces' }],
    ['a field of its own', { token: 'x' }],
  ])('refuses %s', async (_, change) => {
    const response = await connect({ ...CONNECTION, ...change })
    expect(response.statusCode).toBe(400)
    expect(response.body).not.toContain(KEY)
    expect(response.body).not.toContain('sk_secret')
    expect(await rawRows()).toEqual([])
  })

  test('Test connection says an address nothing answers is unreachable, and keeps the result until a change', async () => {
    await connect({ ...CONNECTION, url: `http://127.0.0.1:${await closedPort()}` })
    const response = await call('POST', '/admin/api/store-connection/test')
    expect(response.statusCode).toBe(200)
    const test = response.json<ConnectionTest>()
    expect(test).toEqual({
      ok: false,
      checks: [
        { check: 'address', outcome: 'unreachable' },
        { check: 'key', outcome: 'not_checked' },
        { check: 'sales_channel', outcome: 'not_checked' },
        { check: 'stock_location', outcome: 'not_checked' },
      ],
      at: NOW.toISOString(),
    })
    expect(response.body).not.toContain(KEY)
    expect((await shown())?.last_test).toEqual(test)
    await connect()
    expect((await shown())?.last_test).toBeNull()
  })

  test('Remove connection removes it; without one, test and remove are 404', async () => {
    await connect()
    expect((await call('DELETE', '/admin/api/store-connection')).statusCode).toBe(204)
    expect(await shown()).toBeNull()
    expect(await engineFor({ db: api.db, secret: SECRET }, 'demo')).toBeNull()
    expect((await call('DELETE', '/admin/api/store-connection')).statusCode).toBe(404)
    expect((await call('POST', '/admin/api/store-connection/test')).statusCode).toBe(404)
  })

  test('Test connection is limited per shop: the shop’s engine is spared a flood, other shops are not held', async () => {
    await call(
      'PUT',
      '/admin/api/store-connection',
      { ...CONNECTION, url: `http://127.0.0.1:${await closedPort()}` },
      ACME_HOST,
    )
    const answers: LightMyRequestResponse[] = []
    for (let attempt = 0; attempt <= CONNECTION_TESTS_PER_MINUTE; attempt++)
      answers.push(await call('POST', '/admin/api/store-connection/test', undefined, ACME_HOST))
    const refused = answers.filter((answer) => answer.statusCode === 429)
    // Earlier tests of this file tested acme's connection too, within the same minute.
    expect(refused.length).toBeGreaterThanOrEqual(1)
    expect(answers.length - refused.length).toBeLessThanOrEqual(CONNECTION_TESTS_PER_MINUTE)
    expect(answers.filter((answer) => answer.statusCode === 200).length).toBe(answers.length - refused.length)
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0)
    // Demo’s staff test their own shop's connection meanwhile.
    await connect({ ...CONNECTION, url: `http://127.0.0.1:${await closedPort()}` })
    expect((await call('POST', '/admin/api/store-connection/test')).statusCode).toBe(200)
  })

  test('the shop file sets it (its key sealed); a file without it keeps it; deleting the shop deletes it', async () => {
    const withCommerce = { ...buildShop({ shop: 'filed' }), commerce: { ...CONNECTION, url: 'http://10.0.0.5:9000' } }
    const imported = await importShop(api.db, withCommerce, NOW, undefined, { secret: SECRET })
    expect(imported.ok).toBe(true)
    const opened = await openStoreConnection(api.db, connectionSealingKey(SECRET), 'filed')
    expect(opened).toMatchObject({ url: 'http://10.0.0.5:9000', updated_by: 'shop file', apiKey: KEY })
    expect(JSON.stringify(await rawRows())).not.toContain(KEY)

    expect((await importShop(api.db, buildShop({ shop: 'filed' }), NOW, undefined, { secret: SECRET })).ok).toBe(true)
    expect((await openStoreConnection(api.db, connectionSealingKey(SECRET), 'filed'))?.apiKey).toBe(KEY)

    await api.db.transaction((tx) => deleteShop(tx, 'filed'))
    expect(await rawRows()).toEqual([])
  })

  test('a shop file names what is wrong in its commerce section', async () => {
    const file = {
      ...buildShop({ shop: 'filed' }),
      commerce: { ...CONNECTION, url: 'https://user:pw@shop.example', stock_location_id: '' },
    }
    const result = await importShop(api.db, file, NOW, undefined, { secret: SECRET })
    expect(result.ok).toBe(false)
    const errors = result.ok ? [] : result.errors
    expect(errors).toEqual(
      expect.arrayContaining([
        'commerce.url: must be an http(s) URL, without a user or password in it',
        expect.stringMatching(/^commerce\.stock_location_id: /),
      ]),
    )
    expect(errors.join('\n')).not.toContain(KEY)
  })
})
