import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPostgres } from '../src/storage/database'
import { createTestSchema, engines, type Engine } from './harness'
import { freePort } from './processApi'
import { signInPrintedStaff, startServer, type ServerProcess } from './serverProcess'

/**
 * The two secrets a shop hands Rebound, on the product as a shop starts it (`npm start` with no
 * settings but a port and its storage): the store connection's key (sealed, decision 0075) and
 * an Orders API key (hashed, decision 0074). Neither reaches the process's output, whatever
 * calls carry it, nor the database as written; and the sealed key opens again after a restart
 * with no settings, under the secret the first start kept in storage.
 */

const SLOW = 180_000
const HOST = 'demo.localhost'
// Unique enough that finding it anywhere can only be a leak.
const CONNECTION_KEY = `sk_leakcanary${Date.now().toString(36)}connection`

/** Every file under `dir`, read whole. */
function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path)]
  })
}

describe.each(engines())('secrets as shipped, on %s', (engine: Engine) => {
  let storage: Record<string, string>
  let stored: () => Promise<Buffer[]>
  let cleanUp: () => Promise<void>
  let server: ServerProcess
  let cookie: string
  let apiKey: string
  /** an engine address that refuses connections: the port of a server started and closed */
  let deadEngine: string

  beforeAll(async () => {
    if (engine === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'rebound-secrets-shipped-'))
      storage = { DATA_DIR: dataDir }
      stored = () => Promise.resolve(filesUnder(dataDir))
      cleanUp = () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true }))
    } else {
      const schema = await createTestSchema('secrets_shipped')
      storage = { DATABASE_URL: schema.url }
      stored = async () => {
        const db = await openPostgres(schema.url, 1)
        try {
          const tables = await db.query<{ table_name: string }>(
            `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
          )
          const rows: Buffer[] = []
          for (const { table_name } of tables)
            for (const row of await db.query<{ text: string }>(`SELECT t::text AS text FROM "${table_name}" t`))
              rows.push(Buffer.from(row.text))
          return rows
        } finally {
          await db.close()
        }
      }
      cleanUp = () => schema.drop()
    }
    deadEngine = `http://127.0.0.1:${await freePort()}`
    server = await startServer({ PORT: String(await freePort()), ...storage })
    cookie = await signInPrintedStaff(server, HOST)
  }, SLOW)
  afterAll(async () => {
    await server?.stop().catch(() => server.process.killAll())
    await cleanUp?.()
  })

  const staff = (method: string, path: string, body?: unknown) =>
    server.callFrom('127.0.0.1', method, path, body, { host: HOST, origin: `http://${HOST}`, cookie })

  test(
    'neither key reaches the output or the stored data, and the connection key opens again after a restart',
    async () => {
      const saved = await staff('PUT', '/admin/api/store-connection', {
        engine: 'medusa',
        url: deadEngine,
        api_key: CONNECTION_KEY,
        sales_channel_id: 'sc_01',
        stock_location_id: 'sloc_01',
      })
      expect(saved.status).toBe(200)
      expect(JSON.stringify(saved.body)).not.toContain(CONNECTION_KEY)
      const tested = await staff('POST', '/admin/api/store-connection/test')
      expect(tested.status).toBe(200)

      const made = await staff('POST', '/admin/api/api-keys', { label: 'Sync' })
      expect(made.status).toBe(201)
      apiKey = (made.body as { token: string }).token
      expect(apiKey).toMatch(/^rbk_/)
      // The key at work, refused with a wrong shop, and a near miss of it.
      const call = (token: string, shop = 'demo') =>
        server.callFrom('127.0.0.1', 'DELETE', `/api/v1/shops/${shop}/orders/%23no-such-order`, undefined, {
          authorization: `Bearer ${token}`,
        })
      expect((await call(apiKey)).status).toBe(404)
      expect((await call(apiKey, 'acme')).status).toBe(403)
      expect((await call(`${apiKey.slice(0, -1)}x`)).status).toBe(401)

      // Nothing the process wrote holds either key; its output is there to read (a request line).
      const output = server.log()
      expect(output).toContain('Rebound is running')
      expect(output).not.toContain(CONNECTION_KEY)
      expect(output).not.toContain(apiKey)
      expect(output).not.toContain(apiKey.slice(4))

      // Stopped, so that every write is on disk: the data holds the connection's address (the
      // search finds what is there) and neither key.
      await server.stop()
      const data = Buffer.concat(await stored())
      expect(data.includes(deadEngine)).toBe(true)
      expect(data.includes(CONNECTION_KEY)).toBe(false)
      expect(data.includes(apiKey)).toBe(false)

      // Started again with no settings: the key opens under the secret kept in storage, so the
      // test reaches for the engine's address (refused: nothing listens) instead of saying the
      // key must be entered again.
      server = await startServer({ PORT: String(await freePort()), ...storage })
      const again = await staff('POST', '/admin/api/store-connection/test')
      expect(again.status).toBe(200)
      expect(again.body).toMatchObject({
        ok: false,
        checks: [
          { check: 'address', outcome: 'unreachable' },
          { check: 'key', outcome: 'not_checked' },
          { check: 'sales_channel', outcome: 'not_checked' },
          { check: 'stock_location', outcome: 'not_checked' },
        ],
      })
      expect(server.log()).not.toContain(CONNECTION_KEY)
    },
    SLOW,
  )
})
