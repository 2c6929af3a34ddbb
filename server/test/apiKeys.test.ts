import { createHash } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { ApiKeyList, CreatedApiKey } from '../../contract/staff'
import { buildApp } from '../src/app'
import { hashPassword } from '../src/domain/passwords'
import { addStaff } from '../src/storage/staff'
import { buildShop } from './builders'
import { bearer, engines, loadShops, NOW, startApi, staffCookie, type TestApi } from './harness'

/**
 * The Orders API's keys (docs/api.md: Orders API, decision 0074): made and revoked by staff, each
 * for one shop, kept as a hash, refused at once when revoked, never written to the log.
 */

const PASSWORD = 'correct horse battery'
const DEMO = buildShop({ shop: 'demo' })
const ACME = buildShop({ shop: 'acme', currency_code: 'USD' })
const DEMO_HOST = 'demo.localhost'
const ACME_HOST = 'acme.localhost'
const MINUTE = 60_000

/** Waits until `read` gives `expected` (a write not awaited by the call lands shortly after it). */
async function until<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const deadline = Date.now() + 10_000
  let value = await read()
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    value = await read()
  }
  return value
}

describe.each(engines())('Orders API keys on %s', (engine) => {
  let api: TestApi
  let clock = NOW
  let cookies: Record<string, string>
  beforeAll(async () => {
    api = await startApi(engine, [], { now: () => clock, limits: { apiKeyFailuresPerClient: 5 } })
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
  beforeEach(async () => {
    clock = NOW
    await api.db.exec('DELETE FROM api_keys; DELETE FROM rate_limits')
  })

  const staffCall = (
    host: string,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method,
      url,
      headers: { host, cookie: cookies[host]!, origin: `http://${host}` },
      ...(payload === undefined ? {} : { payload }),
    })
  const makeKey = async (host: string, label: string) => {
    const response = await staffCall(host, 'POST', '/admin/api/api-keys', { label })
    expect(response.statusCode).toBe(201)
    return response.json<CreatedApiKey>()
  }
  const keysOf = async (host: string) => (await staffCall(host, 'GET', '/admin/api/api-keys')).json<ApiKeyList>().keys
  const whoami = (shop: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    api.app.inject({ method: 'GET', url: `/api/v1/shops/${shop}`, headers, remoteAddress })

  test('a key is made by staff, answers the whoami, is listed without its token, and once revoked is refused at once', async () => {
    const created = await makeKey(DEMO_HOST, '  Medusa sync ')
    expect(created).toMatchObject({ label: 'Medusa sync', created_by: 'ops@demo.example', revoked_at: null })
    expect(created.token).toMatch(/^rbk_[A-Za-z0-9_-]{43}$/)
    expect(created.token.startsWith(created.prefix)).toBe(true)
    expect(created.prefix).toHaveLength(10)

    const answer = await whoami('demo', bearer(created.token))
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toEqual({ shop: 'demo', currency_code: 'EUR', key_label: 'Medusa sync' })
    expect(answer.headers['cache-control']).toBe('no-store')
    // The scheme's name in any case (RFC 9110).
    expect((await whoami('demo', { authorization: `bearer ${created.token}` })).statusCode).toBe(200)

    // The use is noted beside the call, not awaited by it.
    await until(async () => (await keysOf(DEMO_HOST))[0]!.last_used_at, NOW.toISOString())
    const listed = await keysOf(DEMO_HOST)
    expect(listed).toEqual([
      {
        id: created.id,
        label: 'Medusa sync',
        prefix: created.prefix,
        created_at: NOW.toISOString(),
        created_by: 'ops@demo.example',
        last_used_at: NOW.toISOString(),
        revoked_at: null,
      },
    ])
    expect(JSON.stringify(listed)).not.toContain(created.token)
    // Another shop's staff see none of it, and cannot revoke it.
    expect(await keysOf(ACME_HOST)).toEqual([])
    expect((await staffCall(ACME_HOST, 'DELETE', `/admin/api/api-keys/${created.id}`)).statusCode).toBe(404)
    expect((await whoami('demo', bearer(created.token))).statusCode).toBe(200)

    clock = new Date(NOW.getTime() + MINUTE)
    const revoked = await staffCall(DEMO_HOST, 'DELETE', `/admin/api/api-keys/${created.id}`)
    expect(revoked.statusCode).toBe(204)
    const refused = await whoami('demo', bearer(created.token))
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({
      error: 'invalid_api_key',
      message: 'This call needs a valid API key of the shop: Authorization: Bearer rbk_…',
    })
    expect((await keysOf(DEMO_HOST))[0]!.revoked_at).toBe(clock.toISOString())
    expect((await staffCall(DEMO_HOST, 'DELETE', `/admin/api/api-keys/${created.id}`)).statusCode).toBe(404)
  })

  test('a key of one shop is refused on another shop’s path, with a 403 that names neither', async () => {
    const demo = await makeKey(DEMO_HOST, 'Demo sync')
    const acme = await makeKey(ACME_HOST, 'Acme sync')
    const wrong = await whoami('acme', bearer(demo.token))
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json()).toEqual({ error: 'wrong_shop', message: 'This API key is not a key of the shop in the path.' })
    // The same for a shop that does not exist: the answer tells nothing of other shops.
    expect((await whoami('nowhere', bearer(demo.token))).json()).toEqual(wrong.json())
    expect((await whoami('acme', bearer(acme.token))).json()).toMatchObject({ shop: 'acme', currency_code: 'USD' })
  })

  test('a key missing, malformed, unknown or of another kind is one 401, which never echoes it', async () => {
    const real = await makeKey(DEMO_HOST, 'Real')
    const unknown = `rbk_${'A'.repeat(43)}`
    const tries: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: unknown },
      { authorization: `Bearer ${unknown}` },
      { authorization: `Bearer ${real.token}x` },
      { authorization: `Bearer ${real.token.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`x:${real.token}`).toString('base64')}` },
      { authorization: 'Bearer not-a-key' },
    ]
    for (const [index, headers] of tries.entries()) {
      const response = await whoami('demo', headers, `127.0.1.${index}`)
      expect([index, response.statusCode]).toEqual([index, 401])
      expect(response.json()).toMatchObject({ error: 'invalid_api_key' })
      expect(response.body).not.toContain('AAAAAAAA')
      expect(response.body).not.toContain(real.token.slice(4, 20))
    }
  })

  test('the table keeps the token’s SHA-256 and its first characters, never the token', async () => {
    const created = await makeKey(DEMO_HOST, 'Stored')
    const rows = await api.db.query<Record<string, unknown>>('SELECT * FROM api_keys')
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(created.token.slice(10))
    expect(rows[0]).toMatchObject({
      token_sha256: createHash('sha256').update(created.token).digest('hex'),
      prefix: created.token.slice(0, 10),
      shop_id: 'demo',
    })
  })

  test('a key’s use is noted at most once a minute', async () => {
    const created = await makeKey(DEMO_HOST, 'Busy')
    const lastUsed = async () => (await keysOf(DEMO_HOST))[0]!.last_used_at
    expect(await lastUsed()).toBeNull()
    await whoami('demo', bearer(created.token))
    // The note is not awaited by the call: it lands shortly after.
    expect(await until(lastUsed, NOW.toISOString())).toBe(NOW.toISOString())
    clock = new Date(NOW.getTime() + 30_000)
    await whoami('demo', bearer(created.token))
    const later = new Date(NOW.getTime() + 61_000)
    expect(await lastUsed()).toBe(NOW.toISOString())
    clock = later
    await whoami('demo', bearer(created.token))
    expect(await until(lastUsed, later.toISOString())).toBe(later.toISOString())
  })

  test('wrong keys are limited per client: past the limit every call of the client waits, a right key’s too', async () => {
    const created = await makeKey(DEMO_HOST, 'Limited')
    const guess = (n: number) => `rbk_${String(n).padStart(43, 'G')}`
    for (let i = 0; i < 5; i++) expect((await whoami('demo', bearer(guess(i)), '127.0.2.1')).statusCode).toBe(401)
    const over = await whoami('demo', bearer(guess(5)), '127.0.2.1')
    expect(over.statusCode).toBe(429)
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
    expect((await whoami('demo', bearer(created.token), '127.0.2.1')).statusCode).toBe(429)
    // Another client is not held up, and right keys are never counted.
    for (let i = 0; i < 8; i++) expect((await whoami('demo', bearer(created.token), '127.0.2.2')).statusCode).toBe(200)
  })

  test('a label must say something', async () => {
    for (const label of ['', '   ', 'x'.repeat(81)])
      expect((await staffCall(DEMO_HOST, 'POST', '/admin/api/api-keys', { label })).statusCode).toBe(400)
    expect(await keysOf(DEMO_HOST)).toEqual([])
  })

  test('the keys’ staff calls need a session of the shop, and a page of the console’s origin', async () => {
    const anonymous = await api.app.inject({
      method: 'POST',
      url: '/admin/api/api-keys',
      headers: { host: DEMO_HOST, origin: `http://${DEMO_HOST}` },
      payload: { label: 'x' },
    })
    expect(anonymous.statusCode).toBe(401)
    const forged = await api.app.inject({
      method: 'POST',
      url: '/admin/api/api-keys',
      headers: { host: DEMO_HOST, cookie: cookies[DEMO_HOST]!, origin: 'http://evil.example' },
      payload: { label: 'x' },
    })
    expect(forged.statusCode).toBe(403)
    expect(await keysOf(DEMO_HOST)).toEqual([])
  })
})

describe.each(engines())('the request log with Orders API keys on %s', (engine) => {
  let api: TestApi
  let app: FastifyInstance
  const lines: string[] = []
  beforeAll(async () => {
    api = await startApi(engine, [DEMO])
    app = await buildApp({
      db: api.db,
      secret: Buffer.from('test-secret'),
      now: () => NOW,
      logger: { level: 'trace', stream: { write: (line) => void lines.push(line) } },
    })
  }, 120_000)
  afterAll(async () => {
    await app.close()
    await api.close()
  })

  test('no line of the log holds a key, used, wrong, revoked or in the address', async () => {
    const hash = await hashPassword(PASSWORD)
    await addStaff(api.db, 'demo', 'ops@demo.example', hash, NOW)
    const cookie = await staffCookie(app, 'ops@demo.example', PASSWORD, DEMO_HOST)
    const made = await app.inject({
      method: 'POST',
      url: '/admin/api/api-keys',
      headers: { host: DEMO_HOST, cookie, origin: `http://${DEMO_HOST}` },
      payload: { label: 'Logged?' },
    })
    const { token, id } = made.json<CreatedApiKey>()
    const calls = [
      { url: '/api/v1/shops/demo', headers: bearer(token) },
      { url: '/api/v1/shops/acme', headers: bearer(token) },
      { url: `/api/v1/shops/demo?key=${token}`, headers: { authorization: `Bearer ${token}x` } },
      { url: '/api/v1/shops/demo', headers: { authorization: token } },
    ]
    for (const call of calls) await app.inject({ method: 'GET', ...call })
    await app.inject({
      method: 'DELETE',
      url: `/admin/api/api-keys/${id}`,
      headers: { host: DEMO_HOST, cookie, origin: `http://${DEMO_HOST}` },
    })
    await app.inject({ method: 'GET', url: '/api/v1/shops/demo', headers: bearer(token) })

    const log = lines.join('')
    // The calls are logged (their address, their status), their keys are not.
    expect(log).toContain('/api/v1/shops/demo')
    expect(log).toContain('"statusCode":401')
    expect(log).not.toContain(token.slice(4))
    expect(log.toLowerCase()).not.toContain('authorization')
  })
})
