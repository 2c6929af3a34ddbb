import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { ReturnOrder, ReturnRequest, VerifiedOrder } from '../../src/api/contract'
import { openPostgres } from '../src/storage/database'
import { engines } from './harness'
import { childEnv, spawnTsx, within, type Spawned } from './spawned'

/**
 * process.test.ts's kill -9 in a burst of submits, on a PostgreSQL server (DATABASE_URL): every
 * return answered 201 is there after a restart, and no unit is returned twice. A schema of its own
 * on TEST_DATABASE_URL; only 127.0.0.1, every wait bounded.
 */

const SLOW = 180_000
const BURST = 60

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

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

interface Answer<T> {
  status: number
  body: T
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

  async function verify(server: Server, order_name: string, email: string) {
    const answer = await server.call<VerifiedOrder>('POST', '/portal-registration/verify', { order_name, email, shop: 'demo', portal_id: 'portal-demo' })
    if (answer.status !== 200) throw new Error(`verify ${order_name}: ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }

  const oneUnit = (lineItemId: string): ReturnRequest => ({ items: [{ line_item_id: lineItemId, quantity: 1, reason_id: 'changed_mind' }], refund_method: 'original_payment' })
  const submit = (server: Server, token: string, key: string, request: ReturnRequest) =>
    server.call<ReturnOrder>('POST', '/portal-registration/returns', request, { authorization: `Bearer ${token}`, 'idempotency-key': key })

  test(
    'kill -9 in the middle of a burst of submits: every return answered 201 is there after a restart, and each unit is returned exactly once',
    async () => {
      const first = await start()
      const order = await verify(first, '#1006', 'bulk@example.com')
      const lines = order.line_items.filter((line) => line.quantity === 1 && line.returnable_quantity === 1).slice(0, BURST)
      expect(lines).toHaveLength(BURST)
      const submits = lines.map((line, i) => ({ key: `pg-burst-${String(i).padStart(4, '0')}`, request: oneUnit(line.id) }))

      const answered = new Map<string, Answer<ReturnOrder>>()
      let killing: Promise<void> | null = null
      const fired = submits.map(async ({ key, request }) => {
        const answer = await submit(first, order.token, key, request).catch(() => null)
        if (answer === null) return
        expect(answer.status).toBe(201)
        answered.set(key, answer)
        if (answered.size === 3) killing ??= killHard(first)
      })
      await within(60_000, 'the burst to settle', Promise.all(fired))
      expect(killing).not.toBeNull()
      await killing
      expect(answered.size).toBeGreaterThanOrEqual(3)
      expect(answered.size).toBeLessThan(BURST)

      const second = await start()
      for (const { key, request } of submits) {
        const retried = await submit(second, order.token, key, request)
        const before = answered.get(key)
        if (before) expect(retried).toEqual({ status: 200, body: before.body })
        else expect([200, 201]).toContain(retried.status)
      }
      const after = await verify(second, '#1006', 'bulk@example.com')
      for (const line of lines) expect(after.line_items.find((item) => item.id === line.id)).toMatchObject({ returnable_quantity: 0, ineligible_reason: 'already_returned' })
      const others = after.line_items.filter((item) => !lines.some((line) => line.id === item.id))
      expect(others.every((item) => item.returnable_quantity === item.quantity)).toBe(true)
      second.spawned.child.kill('SIGTERM')
      expect(await within(20_000, 'the server to stop on SIGTERM', second.spawned.exited)).toEqual({ code: 0, signal: null })
    },
    SLOW,
  )
})
