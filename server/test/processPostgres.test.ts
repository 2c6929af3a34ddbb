import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { openPostgres } from '../src/storage/database'
import { engines } from './harness'
import { freePort, killDuringBurst, type Answer } from './processApi'
import { childEnv, spawnTsx, within, type Spawned } from './spawned'

/**
 * process.test.ts's kill -9 in a burst of submits, on a PostgreSQL server (DATABASE_URL): every
 * return answered 201 is there after a restart, and no unit is returned twice. A schema of its own
 * on TEST_DATABASE_URL; only 127.0.0.1, every wait bounded.
 */

const SLOW = 180_000
const BURST = 60

/** The processes whose parent is `pid` (Linux /proc): tsx runs the script in a child of its own. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid
      } catch {
        return false
      }
    })
    .map(Number)
}

if (engines().includes('postgres')) describe('the server process on PostgreSQL', () => {
  const schema = `process_${randomBytes(6).toString('hex')}`
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.searchParams.set('options', `-c search_path=${schema}`)
  const started: Spawned[] = []

  beforeAll(async () => {
    const admin = await openPostgres(process.env.TEST_DATABASE_URL!, 1)
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.close()
  })
  afterAll(async () => {
    for (const server of started) {
      server.killAll()
      await within(10_000, 'a server to end', server.exited).catch(() => {})
    }
    const admin = await openPostgres(process.env.TEST_DATABASE_URL!, 1)
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.close()
  })

  async function start() {
    const port = await freePort()
    const spawned = spawnTsx(
      'server/src/server.ts',
      [],
      childEnv({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url.toString(), VERIFY_RATE_LIMIT_PER_IP: '10000', VERIFY_RATE_LIMIT_PER_ORDER: '10000', VERIFY_FAILURE_FLOOR_MS: '0' }),
    )
    started.push(spawned)
    const log = () => spawned.stdout() + spawned.stderr()
    const call = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      })
      return { status: response.status, body: (await response.json()) as T }
    }
    const deadline = Date.now() + 90_000
    for (;;) {
      if (spawned.child.exitCode !== null || spawned.child.signalCode !== null) throw new Error(`the server exited while starting:\n${log()}`)
      if (Date.now() > deadline) throw new Error(`the server did not answer /health within 90 s:\n${log()}`)
      if ((await call('GET', '/health').catch(() => null))?.status === 200) return { spawned, call, log }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  type Server = Awaited<ReturnType<typeof start>>

  /** kill -9 of the process running server.ts, as an OOM kill would. */
  async function killHard(server: Server) {
    const [script] = childrenOf(server.spawned.child.pid!)
    expect(script).toEqual(expect.any(Number))
    process.kill(script!, 'SIGKILL')
    await within(15_000, 'tsx to end after its child was killed', server.spawned.exited)
  }

  test(
    'kill -9 in the middle of a burst of submits: every return answered 201 is there after a restart, and each unit is returned exactly once',
    async () => {
      const second = await killDuringBurst({ start, killHard }, 'pg-burst', BURST)
      second.spawned.child.kill('SIGTERM')
      expect(await within(20_000, 'the server to stop on SIGTERM', second.spawned.exited)).toEqual({ code: 0, signal: null })
    },
    SLOW,
  )
})
