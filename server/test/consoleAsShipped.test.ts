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
 * in its search or a day of year 0000 ended the process for every shop.
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
})
