import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestSchema, engines, type Engine } from './harness'
import { stringMatching } from './matchers'
import { freePort } from './processApi'
import { signInPrintedStaff, startServer, type ServerProcess } from './serverProcess'

/**
 * The console's hostile queries against the product as a shop starts it (`npm start` with no
 * settings but a port and its storage, the demo shops and the printed staff sign-in): a query the
 * database cannot take is a 400, and the process goes on serving. Before, an export with U+0000
 * in its search or a day of year 0000 ended the process for every shop. And the sign-in's and the
 * invite link's per-client limits, which an app built with test options could not prove.
 */

const SLOW = 120_000
const HOST = 'demo.localhost'

describe.each(engines())('the console as shipped, on %s', (engine: Engine) => {
  let server: ServerProcess
  let cleanUp: () => Promise<void>
  let cookie: string
  beforeAll(async () => {
    let storage: Record<string, string>
    if (engine === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'rebound-console-shipped-'))
      storage = { DATA_DIR: dataDir }
      cleanUp = () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true }))
    } else {
      const schema = await createTestSchema('console_shipped')
      storage = { DATABASE_URL: schema.url }
      cleanUp = () => schema.drop()
    }
    server = await startServer({ PORT: String(await freePort()), ...storage })
    cookie = await signInPrintedStaff(server, HOST)
  }, SLOW)
  afterAll(async () => {
    await server?.stop().catch(() => server.process.killAll())
    await cleanUp?.()
  })

  const get = (path: string) => server.callFrom('127.0.0.1', 'GET', path, undefined, { host: HOST, cookie })

  test.each([
    ['/admin/api/returns.csv?q=a%00b', 'q'],
    ['/admin/api/returns.csv?from=0000-01-01', 'from'],
    ['/admin/api/returns?q=%00', 'q'],
    ['/admin/api/returns?after=WyIwMDAwLTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJyXzEiXQ', 'after'],
    ['/admin/api/emails?return_id=a%00b', 'return_id'],
  ])(
    'GET %s: a 400 naming %s, and the process serves on',
    async (path, name) => {
      const answer = await get(path)
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: { error: 'invalid_request', message: stringMatching(new RegExp(`^${name}: \\S`)) },
      })
      expect(server.process.child.exitCode).toBeNull()
      expect((await get('/health')).status).toBe(200)
      // The demo shop's export still comes whole: a header row and its returns.
      const csv = await get('/admin/api/returns.csv')
      expect(csv.status).toBe(200)
      expect(String(csv.body).split('\n').length).toBeGreaterThan(2)
    },
    SLOW,
  )

  // The limits of docs/settings.md hold as a shop runs the server: a guesser of passwords or of
  // invite links gets 30 tries a minute from one address, and other clients are not slowed. Each
  // try names another account, so the lockout of one account (ten failures) is not what answers.
  test.each([
    ['/admin/api/session', (i: number) => ({ email: `nobody${i}@example.com`, password: 'not the password' })],
    ['/admin/api/invite', (i: number) => ({ token: `not-a-real-invite-token-${i}`, password: 'a long password' })],
  ])(
    "POST %s: one client's 31st within a minute is a 429, and another client is still answered",
    async (path, body) => {
      let tried = 0
      const post = (from: string) =>
        server.callFrom<{ error: string }>(from, 'POST', path, body(tried++), {
          host: HOST,
          origin: `http://${HOST}`,
        })
      const client = path.endsWith('session') ? '127.0.6.1' : '127.0.6.2'
      const tries = []
      for (let i = 0; i < 30; i++) tries.push((await post(client)).status)
      expect(tries.filter((status) => status === 429)).toEqual([])
      expect(new Set(tries).size).toBe(1)
      expect(tries[0]).toBeGreaterThanOrEqual(400)
      expect((await post(client)).status).toBe(429)
      expect((await post('127.0.6.3')).status).toBe(tries[0])
    },
    SLOW,
  )
})
