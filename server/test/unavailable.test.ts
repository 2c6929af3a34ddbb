import { get } from 'node:http'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { buildApp } from '../src/app'
import { hashPassword } from '../src/domain/passwords'
import { openPostgres } from '../src/storage/database'
import { addStaff } from '../src/storage/staff'
import { buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { engines, loadShops, NOW, openTestDatabase, staffCookie, startApi, submitted, verified } from './harness'
import { anyString } from './matchers'

/** A TCP relay to the PostgreSQL server that the test can cut and restore, as a network would. */
function relay(target: URL): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  let open = true
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy()
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {})
    }
    client.pipe(upstream).pipe(client)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        cut() {
          open = false
          for (const socket of sockets) socket.destroy()
        },
        restore() {
          open = true
        },
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  )
}

/**
 * A migrated schema of its own on the test server (`schemaDb`, reached directly), and a pool of 2
 * to it through a relay the test can cut (`db`): the app's view of a database that goes away.
 */
async function relayedDatabase() {
  const schemaDb = await openTestDatabase('postgres')
  const [{ schema }] = (await schemaDb.query<{ schema: string }>('SELECT current_schema() AS schema')) as [
    { schema: string },
  ]
  const target = new URL(process.env.TEST_DATABASE_URL!)
  const link = await relay(target)
  const url = new URL(target)
  url.host = `127.0.0.1:${link.port}`
  url.searchParams.set('options', `-c search_path=${schema}`)
  return { schemaDb, link, db: await openPostgres(url.toString(), 2) }
}

describe.each(engines())('health on %s', (engine) => {
  test('GET /health answers 200 with the engine while the database answers', async () => {
    const api = await startApi(engine, [])
    try {
      const response = await api.app.inject({ method: 'GET', url: '/health' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ status: 'ok', engine, photos: { preparing: 0, waiting: 0 } })
    } finally {
      await api.close()
    }
  })
})

// Only a server can go away; engines() makes the PostgreSQL server mandatory in CI.
if (engines().includes('postgres'))
  describe('the PostgreSQL server going away', () => {
    test('the API answers 503 within a few seconds while it is away, and recovers by itself when it is back', async () => {
      // A migrated schema to point the app at, reached through the relay.
      const { schemaDb, link, db } = await relayedDatabase()
      const app = await buildApp({ db, secret: Buffer.from('s') })
      try {
        expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)

        link.cut()
        const started = performance.now()
        const down = await app.inject({ method: 'GET', url: '/portal-registration/config/north' })
        expect(down.statusCode).toBe(503)
        expect(down.json()).toEqual({ error: 'unavailable', message: anyString() })
        expect(down.headers['retry-after']).toBe('5')
        expect(performance.now() - started).toBeLessThan(3_000)
        expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503)

        link.restore()
        // No restart: the pool makes new connections on the next requests.
        let status = 0
        for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
          status = (await app.inject({ method: 'GET', url: '/health' })).statusCode
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
        }
        expect(status).toBe(200)
      } finally {
        await app.close()
        await db.close()
        await link.close()
        await schemaDb.close()
      }
    })
    test('the database lost in the middle of an export ends that answer, and the API serves on', async () => {
      const { schemaDb, link, db } = await relayedDatabase()
      const jane = buildOrder({ name: '#1001', email: 'jane@example.com' })
      const shop = buildShop({ shop: 'north', orders: [jane] })
      await loadShops(schemaDb, [shop])
      const app = await buildApp({ db, secret: Buffer.from('s'), now: () => NOW })
      try {
        await submitted(app, (await verified(app, shop, jane)).token, buildReturn([returnItem(jane.line_items[0]!.id)]))
        // Eleven pages of the export (a thousand a page): the one return, copied.
        await schemaDb.query(
          `INSERT INTO returns
           SELECT (jsonb_populate_record(NULL::returns, to_jsonb(r) || jsonb_build_object(
             'id', r.id || '-' || g, 'number', r.number + g, 'idempotency_key', NULL))).*
           FROM returns r, generate_series(1, 10000) g`,
        )
        await addStaff(schemaDb, 'north', 'staff@north.example', await hashPassword('a long staff password'), NOW)
        const cookie = await staffCookie(app, 'staff@north.example', 'a long staff password', 'north.localhost')
        await app.listen({ port: 0, host: '127.0.0.1' })
        const { port } = app.server.address() as { port: number }
        const exported = (onFirstChunk: () => void) =>
          new Promise<{ complete: boolean; lines: number }>((resolve) => {
            let text = ''
            const request = get(
              { host: '127.0.0.1', port, path: '/admin/api/returns.csv', headers: { host: 'north.localhost', cookie } },
              (response) => {
                response.setEncoding('utf8')
                response.once('data', onFirstChunk)
                response.on('data', (chunk: string) => (text += chunk))
                const done = (complete: boolean) => resolve({ complete, lines: text.split('\n').length - 1 })
                response.on('end', () => done(response.complete))
                response.on('aborted', () => done(false))
                response.on('error', () => done(false))
              },
            )
            request.on('error', () => resolve({ complete: false, lines: text.split('\n').length - 1 }))
          })

        // Cut while the first page is on its way: a later page fails, and the answer ends short.
        const cutShort = await exported(() => link.cut())
        expect(cutShort.complete).toBe(false)
        expect(cutShort.lines).toBeLessThan(10_002)
        expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503)

        link.restore()
        let status = 0
        for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
          status = (await app.inject({ method: 'GET', url: '/health' })).statusCode
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
        }
        expect(status).toBe(200)
        // The same export, whole: a header row and every return.
        expect(await exported(() => {})).toEqual({ complete: true, lines: 10_002 })
      } finally {
        await app.close()
        await db.close()
        await link.close()
        await schemaDb.close()
      }
    }, 120_000)
  })
