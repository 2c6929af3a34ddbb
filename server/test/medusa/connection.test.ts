import type { LightMyRequestResponse } from 'fastify'
import type { ConnectionTest } from '../../../contract/staff'
import { engineFor } from '../../src/services/engines'
import { hashPassword } from '../../src/domain/passwords'
import { addStaff } from '../../src/storage/staff'
import { buildShop } from '../builders'
import { loadShops, NOW, startApi, staffCookie, type TestApi } from '../harness'
import { startMedusa, type Medusa } from './engine'

/**
 * Test connection (docs/back-office.md: Store connection) through the staff route, against a real
 * Medusa 2.21: one engine for the file (it takes some 15 s to start), stopped by the last test.
 */

const running = Boolean(process.env.TEST_DATABASE_URL)
if (!running && process.env.CI) throw new Error('TEST_DATABASE_URL is not set: the Medusa suite needs PostgreSQL')

const PASSWORD = 'correct horse battery'
const HOST = 'demo.localhost'

;(running ? describe : describe.skip)('Test connection, against a real Medusa', () => {
  let medusa: Medusa
  let api: TestApi
  let cookie: string
  /** milliseconds each Test connection took, for docs/decisions/0075-store-connection.md */
  const took: Record<string, number> = {}

  beforeAll(async () => {
    ;[medusa, api] = await Promise.all([startMedusa(), startApi('pglite', [])])
    await loadShops(api.db, [buildShop({ shop: 'demo' })])
    await addStaff(api.db, 'demo', 'ops@demo.example', await hashPassword(PASSWORD), NOW)
    cookie = await staffCookie(api.app, 'ops@demo.example', PASSWORD, HOST)
  }, 30 * 60_000)

  afterAll(async () => {
    process.stderr.write(`Test connection took (ms): ${JSON.stringify(took)}\n`)
    await Promise.all([medusa?.stop(), api?.close()])
  })

  const call = (method: 'PUT' | 'POST', url: string, payload?: object): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method,
      url,
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      ...(payload === undefined ? {} : { payload }),
    })
  const connect = async (change: Record<string, string> = {}) => {
    const response = await call('PUT', '/admin/api/store-connection', {
      engine: 'medusa',
      url: medusa.url,
      api_key: medusa.secretApiKey,
      sales_channel_id: medusa.salesChannelId,
      stock_location_id: medusa.stockLocationId,
      ...change,
    })
    expect(response.statusCode).toBe(200)
  }
  const test = async (name: string) => {
    const started = performance.now()
    const response = await call('POST', '/admin/api/store-connection/test')
    took[name] = Math.round(performance.now() - started)
    expect(response.statusCode).toBe(200)
    expect(response.body).not.toContain(medusa.secretApiKey)
    return response.json<ConnectionTest>()
  }
  const outcomes = (result: ConnectionTest) => result.checks.map((line) => `${line.check} ${line.outcome}`)

  it('a good key, channel and location: everything works', async () => {
    await connect()
    await test('first')
    const result = await test('good')
    expect(outcomes(result)).toEqual(['address ok', 'key ok', 'sales_channel ok', 'stock_location ok'])
    expect(result.ok).toBe(true)
    // The engine client the actions use is the same connection, ready.
    const ready = await engineFor({ db: api.db, secret: Buffer.from('test-secret') }, 'demo')
    expect((await ready!.client.testConnection()).keyAccepted).toBe(true)
  })

  it('a wrong key: the address answers, the key is refused', async () => {
    await connect({ api_key: 'sk_0000000000000000000000000000000000000000000000000000000000000000' })
    const result = await test('wrong key')
    expect(result.ok).toBe(false)
    expect(outcomes(result)).toEqual([
      'address ok',
      'key refused',
      'sales_channel not_checked',
      'stock_location not_checked',
    ])
  })

  it('an unknown sales channel or stock location is named', async () => {
    await connect({ sales_channel_id: 'sc_01NOSUCHCHANNEL000000000000' })
    const channel = await test('unknown channel')
    expect(outcomes(channel)).toEqual(['address ok', 'key ok', 'sales_channel not_found', 'stock_location ok'])
    await connect({ stock_location_id: 'sloc_01NOSUCHLOCATION00000000000' })
    expect(outcomes(await test('unknown location'))).toEqual([
      'address ok',
      'key ok',
      'sales_channel ok',
      'stock_location not_found',
    ])
  })

  // Last: it stops the engine.
  it('a stopped engine is unreachable, said within the timeout', async () => {
    await connect()
    await medusa.kill()
    const result = await test('stopped')
    expect(outcomes(result)).toEqual([
      'address unreachable',
      'key not_checked',
      'sales_channel not_checked',
      'stock_location not_checked',
    ])
    expect(took.stopped).toBeLessThan(5000)
  })
})
