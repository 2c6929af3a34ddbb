import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../src/app'
import { openDatabase } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'
import { buildShop } from './builders'
import { bearer, createTestSchema, engines, loadShops } from './harness'
import { freePort } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'
import { childEnv, runCommand, scriptCommand } from './spawned'

/**
 * The staff accounts as an operator makes them: the first `npm start` on a new database prints the
 * demo's sign-in, and `npm run staff` adds, lists, resets and removes accounts (docs/back-office.md).
 */

// A limit that catches a hang, not a speed: one test runs a dozen CLI processes, each a Node start
// and a database open, which took over 180 s in all on two cores busy with other suites.
const SLOW = 480_000
const DEMO_HOST = 'demo.localhost'

let dataDir: string
let server: ServerProcess | undefined
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'rebound-staff-'))
})
afterEach(async () => {
  await server?.stop().catch(() => server?.process.killAll())
  server = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

const start = async () => (server = await startServer({ PORT: String(await freePort()), DATA_DIR: dataDir }))
const staff = (args: string[], extra: Record<string, string> = {}) =>
  runCommand(scriptCommand('staff'), args, childEnv({ DATA_DIR: dataDir, ...extra }))
const signIn = (running: ServerProcess, email: string, password: string, from = '127.0.0.1') =>
  running.callFrom<{ email?: string; error?: string }>(
    from,
    'POST',
    '/admin/api/session',
    { email, password },
    { host: `${DEMO_HOST}:${running.port}`, origin: `http://${DEMO_HOST}:${running.port}` },
  )

test(
  'the first start prints the demo staff sign-in with a generated password that signs in; a later start prints it without the password',
  async () => {
    const first = await start()
    const line = /Staff sign-in: (http:\/\/demo\.localhost:\d+\/admin) {2}(staff@demo\.example) \/ (\S+)/.exec(
      first.log(),
    )
    expect(line).not.toBeNull()
    const [, url, email, password] = line!
    expect(url).toBe(`http://demo.localhost:${first.port}/admin`)
    expect(password!.length).toBeGreaterThanOrEqual(16)
    const answer = await signIn(first, email!, password!)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ email: 'staff@demo.example' })
    expect(String(answer.headers['set-cookie'])).toMatch(
      /rebound_staff=.+; Max-Age=\d+; Path=\/admin; HttpOnly; SameSite=Strict/,
    )
    // The console's page is served at /admin and below, under the portal's CSP.
    await first.stop()

    const again = await start()
    expect(again.log()).toContain('Staff sign-in: ')
    expect(again.log()).toContain('staff@demo.example  (password printed at the first start')
    expect(again.log()).not.toContain(password)
    expect((await signIn(again, email!, password!)).status).toBe(200)
  },
  SLOW,
)

test(
  'npm run staff refuses to run beside a server on the same PGlite directory, and says what to do',
  async () => {
    await start()
    const run = await staff(['list'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('The server is running on')
    expect(run.stderr).toContain('stop the server, then run this again')
  },
  SLOW,
)

test(
  'npm run staff adds, lists, resets and removes accounts; bad input changes nothing and says why',
  async () => {
    // The demo shops come with the first start.
    await (await start()).stop()
    server = undefined

    expect((await staff(['add', 'demo', 'ops@demo.example'], { STAFF_PASSWORD: 'short' })).stderr).toContain(
      'at least 12 characters',
    )
    expect(
      (await staff(['add', 'nowhere', 'ops@demo.example'], { STAFF_PASSWORD: 'long enough password' })).stderr,
    ).toContain('There is no shop nowhere')
    expect((await staff(['add', 'demo', 'not-an-email'], { STAFF_PASSWORD: 'long enough password' })).stderr).toContain(
      'is not an e-mail address',
    )
    const added = await staff(['add', 'demo', 'Ops@Demo.example'], { STAFF_PASSWORD: 'long enough password' })
    expect(added.code).toBe(0)
    expect(added.stdout).toContain("can sign in to demo's back office")
    const both = await staff(['add', 'acme', 'ops@demo.example'])
    expect(both.stdout).toContain('now works for acme too')

    const list = await staff(['list'])
    expect(list.stdout).toContain('ops@demo.example  acme, demo')
    expect(list.stdout).toContain('staff@demo.example  demo')
    expect((await staff(['list', 'acme'])).stdout.trim()).toBe('ops@demo.example  acme, demo')

    const reset = await staff(['reset', 'ops@demo.example'], { STAFF_PASSWORD: 'a brand new password' })
    expect(reset.stdout).toContain('has a new password')
    const running = await start()
    expect((await signIn(running, 'ops@demo.example', 'long enough password')).status).toBe(401)
    expect((await signIn(running, 'ops@demo.example', 'a brand new password')).status).toBe(200)
    await running.stop()
    server = undefined

    expect((await staff(['remove', 'demo', 'ops@demo.example'])).code).toBe(0)
    expect((await staff(['remove', 'acme', 'ops@demo.example'])).code).toBe(0)
    expect((await staff(['list'])).stdout).not.toContain('ops@demo.example')
    expect((await staff(['nonsense'])).code).toBe(2)
  },
  SLOW,
)

test(
  'as shipped, sign-in is limited: ten wrong passwords lock the account (the right one too), a client gets 30 tries a minute, another site cannot post it',
  async () => {
    const running = await start()
    const [, , , password] = /Staff sign-in: (\S+) {2}(\S+) \/ (\S+)/.exec(running.log())!
    for (let i = 0; i < 10; i++)
      expect((await signIn(running, 'staff@demo.example', `guess ${i}`, `127.0.9.${i + 1}`)).status).toBe(401)
    const locked = await signIn(running, 'staff@demo.example', password!, '127.0.9.20')
    expect(locked.status).toBe(429)
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60)

    for (let i = 0; i < 30; i++)
      expect((await signIn(running, `someone${i}@demo.example`, 'wrong', '127.0.10.1')).status).toBe(401)
    const refused = await signIn(running, `someone-else@demo.example`, 'wrong', '127.0.10.1')
    expect(refused.status).toBe(429)
    // A wrong password and an unknown e-mail answer alike, as shipped too.
    // A sign-in posted by another site's page is refused before any password is tried.
    const forged = await running.callFrom(
      '127.0.12.1',
      'POST',
      '/admin/api/session',
      { email: 'staff@demo.example', password: password! },
      { host: `${DEMO_HOST}:${running.port}`, origin: 'http://evil.example' },
    )
    expect(forged.status).toBe(403)
    expect(forged.headers['set-cookie']).toBeUndefined()
    const wrong = await signIn(running, 'staff@acme.example', 'wrong', '127.0.11.1')
    const unknown = await signIn(running, 'nobody@demo.example', 'wrong', '127.0.11.2')
    expect([wrong.status, wrong.body]).toEqual([unknown.status, unknown.body])
  },
  SLOW,
)

if (engines().includes('postgres'))
  test(
    'on PostgreSQL npm run staff works beside a running server, which signs the new account in at once',
    async () => {
      const schema = await createTestSchema('staff')
      const url = schema.url
      try {
        // A new database: the first start loads the demo shops.
        server = await startServer({ PORT: String(await freePort()), DATABASE_URL: url })
        const added = await runCommand(
          scriptCommand('staff'),
          ['add', 'demo', 'ops@demo.example'],
          childEnv({ DATABASE_URL: url, STAFF_PASSWORD: 'long enough password' }),
        )
        expect(added.stderr).toBe('')
        expect(added.code).toBe(0)
        expect((await signIn(server, 'ops@demo.example', 'long enough password')).status).toBe(200)
      } finally {
        await server?.stop().catch(() => server?.process.killAll())
        server = undefined
        await schema.drop()
      }
    },
    SLOW,
  )

test(
  'npm run staff makes, lists and revokes a shop’s Orders API keys; the token is printed once and works until revoked',
  async () => {
    // A database with the demo shop, made here: no server needs to start.
    const prepared = await openDatabase({ dataDir })
    await migrate(prepared)
    await loadShops(prepared, [buildShop({ shop: 'demo' })])
    await prepared.close()

    expect((await staff(['key-add', 'nowhere', 'Sync'])).stderr).toContain('There is no shop nowhere')
    expect((await staff(['key-add', 'demo', '  '])).stderr).toContain('label: must be 1 to 80 characters')
    const added = await staff(['key-add', 'demo', 'Medusa', 'sync'])
    expect(added.code).toBe(0)
    const [, id, token] = /API key (key_[0-9a-f]{20}) "Medusa sync" of demo\. .*\n(rbk_[A-Za-z0-9_-]{43})\n/.exec(
      added.stdout,
    )!
    const listed = await staff(['keys', 'demo'])
    expect(listed.stdout).toContain(`${id}  ${token!.slice(0, 10)}…  "Medusa sync"  made `)
    expect(listed.stdout).toContain('by cli  never used')
    expect(listed.stdout).not.toContain(token!.slice(10))

    const whoami = async () => {
      const db = await openDatabase({ dataDir })
      const app = await buildApp({ db, secret: Buffer.from('cli-test') })
      try {
        return (await app.inject({ method: 'GET', url: '/api/v1/shops/demo', headers: bearer(token!) })).statusCode
      } finally {
        await app.close()
        await db.close()
      }
    }
    expect(await whoami()).toBe(200)
    expect((await staff(['key-revoke', 'demo', id!])).stdout).toContain(`API key ${id} of demo is revoked.`)
    expect((await staff(['keys', 'demo'])).stdout).toMatch(/ {2}revoked \d{4}-/)
    expect(await whoami()).toBe(401)
    const again = await staff(['key-revoke', 'demo', id!])
    expect([again.code, again.stdout.trim()]).toEqual([1, `demo has no live API key ${id}; nothing changed.`])
  },
  SLOW,
)

test(
  'npm run staff connects a store with the key from stdin, shows it without the key, and disconnects it',
  async () => {
    const prepared = await openDatabase({ dataDir })
    await migrate(prepared)
    await loadShops(prepared, [buildShop({ shop: 'demo' })])
    await prepared.close()
    const key = 'sk_cli0123456789abcdef0123456789abcdef'
    // The key comes on stdin, never in the arguments `ps` shows.
    const connect = (args: string[]) =>
      runCommand(
        ['/bin/sh', '-c', 'printf "%s\\n" "$ENGINE_KEY" | "$@"', 'sh', ...scriptCommand('staff')],
        ['connect', 'demo', ...args],
        childEnv({ DATA_DIR: dataDir, ENGINE_KEY: key }),
      )

    const refused = await connect(['medusa', 'http://user:pw@127.0.0.1:9000', '--sales-channel', 'sc_1'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('Not connected: url, stock_location_id are missing or not valid.')
    expect(refused.stderr + refused.stdout).not.toContain(key)

    const set = await connect([
      'medusa',
      'http://127.0.0.1:9000',
      '--sales-channel',
      'sc_1',
      '--stock-location',
      'sloc_1',
    ])
    expect(set.code).toBe(0)
    const shown = await staff(['connection', 'demo'])
    expect(shown.stdout).toContain(
      'medusa http://127.0.0.1:9000\n  sales channel sc_1, stock location sloc_1\n  key set\n',
    )
    expect(shown.stdout).toMatch(/ {2}set \d{4}-\S+ by cli\n {2}last test: never/)
    expect(set.stdout + shown.stdout).not.toContain(key)

    expect((await staff(['disconnect', 'demo'])).stdout).toContain('Shop demo has no store connection now.')
    expect((await staff(['connection', 'demo'])).stdout).toContain('Shop demo has no store connection.')
  },
  SLOW,
)
