import { hashPassword } from '../src/domain/passwords'
import { addStaff } from '../src/storage/staff'
import { buildShop } from './builders'
import { createTestSchema, engines, loadShops, NOW, startApi, type TestApi } from './harness'
import { freePort, importWithCli } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'
import { childEnv, runCommand, scriptCommand, within } from './spawned'

/**
 * The sign-in lock holds under a burst (docs/back-office.md: throttling): a hundred wrong
 * passwords sent at once get at most ten passwords checked, the rest `locked`, on both engines
 * and across two replicas of the real server. Four client addresses, so the per-client limit
 * (30 a minute) is not what stops them.
 */

const PASSWORD = 'correct horse battery'
const EMAIL = 'staff@lock.example'
const SHOP = buildShop({ shop: 'lock' })
const HOST = 'lock.localhost'
const BURST = 100

/** How many answers of each kind: 401 invalid_credentials, 429 locked, anything else by status. */
function tally(answers: { status: number; error: unknown }[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { status, error } of answers) {
    const kind = `${status} ${String(error)}`
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}

describe.each(engines())('the sign-in lock on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine, [])
    // PGlite's start and migrations take a while on a busy machine.
  }, 120_000)
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM sign_in_failures; DELETE FROM rate_limits; DELETE FROM shops')
    await loadShops(api.db, [SHOP])
    await addStaff(api.db, 'lock', EMAIL, await hashPassword(PASSWORD), NOW)
  })

  const signIn = (email: string, password: string, ip: string) =>
    api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { host: HOST, origin: `http://${HOST}` },
      remoteAddress: ip,
      payload: { email, password },
    })

  // Each test from addresses of its own: PGlite's per-client counts are kept in memory.
  test.each([
    ['a known account', EMAIL, 1],
    ['an unknown e-mail', 'nobody@lock.example', 2],
  ])(
    '%s: a hundred wrong passwords at once get ten checked (401) and ninety refused as locked (429); then the right one is locked out too',
    async (_name, email, net) => {
      const answers = await Promise.all(
        Array.from({ length: BURST }, async (_, i) => {
          const response = await signIn(email, `guess ${i}`, `127.0.${net}.${(i % 4) + 1}`)
          return { status: response.statusCode, error: response.json<{ error: string }>().error }
        }),
      )
      expect(tally(answers)).toEqual({ '401 invalid_credentials': 10, '429 locked': BURST - 10 })
      const after = await signIn(email, PASSWORD, `127.0.${net}.9`)
      expect(after.statusCode).toBe(429)
      expect(Number(after.headers['retry-after'])).toBe(15 * 60)
    },
    60_000,
  )

  test('the right password among nine wrong ones sent at once signs in: ten tries fit the window', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const response = await signIn(EMAIL, i === 5 ? PASSWORD : `guess ${i}`, '127.0.3.1')
        return response.statusCode
      }),
    )
    expect(answers.filter((status) => status === 200)).toHaveLength(1)
    expect(answers.filter((status) => status === 401)).toHaveLength(9)
  })
})

if (engines().includes('postgres'))
  describe('the sign-in lock of two replicas with no settings on PostgreSQL', () => {
    let schema: Awaited<ReturnType<typeof createTestSchema>>
    const started: ServerProcess[] = []
    beforeAll(async () => {
      schema = await createTestSchema('lockout')
      await importWithCli({ DATABASE_URL: schema.url }, [SHOP])
      // The account as an operator makes it (npm run staff).
      const run = await runCommand(
        scriptCommand('staff'),
        ['add', 'lock', EMAIL],
        childEnv({ DATABASE_URL: schema.url, STAFF_PASSWORD: PASSWORD }),
      )
      if (run.code !== 0) throw new Error(`npm run staff exited ${run.code}:\n${run.stdout}${run.stderr}`)
    }, 120_000)
    afterAll(async () => {
      for (const server of started) {
        server.process.killAll()
        await within(10_000, 'a server to end', server.process.exited).catch(() => {})
      }
      await schema.drop()
    })

    test('a hundred wrong passwords at once from four addresses, shared by both replicas: ten checked, ninety locked', async () => {
      for (let i = 0; i < 2; i++)
        started.push(await startServer({ PORT: String(await freePort()), DATABASE_URL: schema.url }))
      const [one, two] = started as [ServerProcess, ServerProcess]
      const attempt = (i: number, password: string, from: string) => {
        const server = i % 2 === 0 ? one : two
        const host = `${HOST}:${server.port}`
        return server.callFrom<{ error?: string }>(
          from,
          'POST',
          '/admin/api/session',
          { email: EMAIL, password },
          { host, origin: `http://${host}` },
        )
      }
      const answers = await Promise.all(
        Array.from({ length: BURST }, async (_, i) => {
          const answer = await attempt(i, `guess ${i}`, `127.0.0.${(i % 4) + 1}`)
          return { status: answer.status, error: answer.body.error }
        }),
      )
      expect(tally(answers)).toEqual({ '401 invalid_credentials': 10, '429 locked': BURST - 10 })
      for (const i of [0, 1]) expect((await attempt(i, PASSWORD, '127.0.0.9')).status).toBe(429)
      for (const server of started) expect(await server.stop()).toEqual({ code: 0, signal: null })
    }, 180_000)
  })
