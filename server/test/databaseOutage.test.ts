import type { ReturnOrder } from '../../contract/api'
import { engines } from './harness'
import { startOwnPostgres, type OwnPostgres } from './ownPostgres'
import { BULK, BURST_SHOP, freePort, importWithCli, oneUnit, submit, verify, type Answer } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'
import { within } from './spawned'

/**
 * The PostgreSQL server stopped (`pg_ctl stop -m fast`, as a restart or a failover does) while
 * two replicas of the compiled server take submits, then started again: both processes live
 * through it, answer 503 while it is away, serve again by themselves, and every return answered
 * 201 is there once (docs/deploying.md: the database going away).
 */

const SLOW = 240_000
const CLIENTS = 8

if (engines().includes('postgres'))
  describe('the PostgreSQL server stopped under load', () => {
    let postgres: OwnPostgres
    const started: ServerProcess[] = []
    beforeAll(async () => {
      postgres = await startOwnPostgres()
      await importWithCli({ DATABASE_URL: postgres.url }, [BURST_SHOP])
    }, SLOW)
    afterAll(async () => {
      for (const server of started) {
        server.process.killAll()
        await within(10_000, 'a server to end', server.process.exited).catch(() => {})
      }
      await postgres.destroy()
    })

    const start = async () => {
      const server = await startServer({
        PORT: String(await freePort()),
        DATABASE_URL: postgres.url,
        // The outage is the subject, not the verify limits.
        VERIFY_RATE_LIMIT_PER_IP: '10000',
        VERIFY_RATE_LIMIT_PER_ORDER: '10000',
        VERIFY_FAILURE_FLOOR_MS: '0',
      })
      started.push(server)
      return server
    }
    const alive = (server: ServerProcess) =>
      server.process.child.exitCode === null && server.process.child.signalCode === null

    test(
      'pg_ctl stop -m fast under 8 concurrent submitting clients: both replicas live, answer 503, serve again, and lose or double nothing',
      async () => {
        const replicas = [await start(), await start()]
        const order = await verify(replicas[0]!, BURST_SHOP, BULK)
        const lines = order.line_items.filter((line) => line.quantity === 1).map((line) => line.id)
        const answered = new Map<string, { line: string; answer: Answer<ReturnOrder> }>()
        const statuses = new Map<number, number>()
        let next = 0
        let phase: 'up' | 'down' | 'back' = 'up'
        let keepGoing = true
        let okWhileBack = 0
        const failures: string[] = []
        // Each client returns one unit after another, to either replica, until told to stop; a
        // refused submit is tried again with the same key after a moment, as the portal does.
        const client = async (index: number) => {
          while (keepGoing && next < lines.length) {
            const line = lines[next++]!
            const key = `outage-${line}`
            const replica = replicas[index % 2]!
            for (;;) {
              const answer = await submit(replica, order.token, key, oneUnit(line)).catch(
                (error: Error) => ({ status: 0, body: error.message }) as Answer<never>,
              )
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
              // 200: made by an earlier try whose answer was lost in the stop.
              if (answer.status === 201 || answer.status === 200) {
                answered.set(key, { line, answer })
                if (phase === 'back') okWhileBack++
                break
              }
              // Anything but a 503 is a failure, shown at the end with what the replicas logged.
              if (answer.status !== 503) failures.push(`${line}: ${answer.status} ${JSON.stringify(answer.body)}`)
              if (!keepGoing) break
              await new Promise((resolve) => setTimeout(resolve, 100))
            }
          }
        }
        const clients = Array.from({ length: CLIENTS }, (_, i) => client(i))

        await within(
          60_000,
          'a few submits before the stop',
          waitFor(() => answered.size >= 4),
        )
        phase = 'down'
        await postgres.stop('fast')
        // Both replicas are alive and say so: 503 with retry-after, not a hang and not a crash.
        for (const replica of replicas) {
          const health = await replica.callFrom('127.0.0.1', 'GET', '/health')
          expect({ status: health.status, retry: health.headers['retry-after'] }).toEqual({ status: 503, retry: '5' })
          expect(alive(replica)).toBe(true)
        }
        await postgres.start()
        phase = 'back'
        // A new submit is made on each replica within 30 s, with no restart.
        await within(
          30_000,
          'a submit to succeed again',
          waitFor(() => okWhileBack >= 2),
        )
        keepGoing = false
        await within(60_000, 'the clients to finish', Promise.all(clients))
        for (const replica of replicas) expect(alive(replica)).toBe(true)
        for (const replica of replicas) expect((await replica.call('GET', '/health')).status).toBe(200)
        if (failures.length > 0) throw new Error([...failures, ...replicas.map((replica) => replica.log())].join('\n'))

        // Every acknowledged return is there, once: its key answers it again, and its unit is gone.
        for (const [key, { line, answer }] of answered) {
          const again = await submit(replicas[1]!, order.token, key, oneUnit(line))
          expect(again).toEqual({ status: 200, body: answer.body })
        }
        const after = await verify(replicas[0]!, BURST_SHOP, BULK)
        const returned = after.line_items.filter((line) => line.returnable_quantity === 0).map((line) => line.id)
        const acknowledged = [...answered.values()].map(({ line }) => line)
        expect(returned).toEqual(expect.arrayContaining(acknowledged))
        // No unit twice: a line not acknowledged was returned at most once, by a commit whose
        // answer was lost in the stop (its retry with the same key answers 200, not a second return).
        for (const line of returned.filter((id) => !acknowledged.includes(id))) {
          const again = await submit(replicas[0]!, order.token, `outage-${line}`, oneUnit(line))
          expect(again.status).toBe(200)
        }
        expect(statuses.get(503) ?? 0).toBeGreaterThan(0)
        for (const replica of replicas) expect(await replica.stop()).toEqual({ code: 0, signal: null })
      },
      SLOW,
    )
  })

/** Resolves once `condition` holds, looking again at each turn of the event loop's timers. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50))
}
