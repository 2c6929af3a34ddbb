import { createTestSchema, engines } from './harness'
import { buildOrder, buildShop, portalOf } from './builders'
import { BURST_SHOP, freePort, importWithCli, killDuringBurst } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'
import { within } from './spawned'

/**
 * The real server on a PostgreSQL server (DATABASE_URL): process.test.ts's kill -9 in a burst of
 * submits (every return answered 201 is there after a restart, and no unit is returned twice), and
 * two replicas with no settings sharing the verify limits. A schema of its own on
 * TEST_DATABASE_URL; only loopback addresses, every wait bounded.
 */

const SLOW = 180_000
/**
 * The verify limits' own shop and order: the burst verifies its order without limits, and the
 * counters live in the database every replica shares, so the limits test must not reuse its name.
 */
const ADA = buildOrder({ name: '#2001', email: 'ada@example.com' })
const LIMITS_SHOP = buildShop({ shop: 'limits', orders: [ADA] })
const BURST = 60

if (engines().includes('postgres'))
  describe('the server process on PostgreSQL', () => {
    let schema: Awaited<ReturnType<typeof createTestSchema>>
    let url: string
    beforeAll(async () => {
      schema = await createTestSchema('process')
      url = schema.url
      // The shop the burst returns from, imported as an operator does: no server loads the demo shops.
      await importWithCli({ DATABASE_URL: url }, [BURST_SHOP, LIMITS_SHOP])
    })
    afterAll(async () => {
      for (const server of started) {
        server.process.killAll()
        await within(10_000, 'a server to end', server.process.exited).catch(() => {})
      }
      await schema.drop()
    })

    const started: ServerProcess[] = []
    /** The real entry point on this schema; `env` adds settings (the replicas test gives none). */
    async function start(env: Record<string, string> = {}) {
      const server = await startServer({ PORT: String(await freePort()), DATABASE_URL: url, ...env })
      started.push(server)
      return server
    }
    // The burst is about durability, not the verify limits: they are raised for it.
    const startUnlimited = () =>
      start({ VERIFY_RATE_LIMIT_PER_IP: '10000', VERIFY_RATE_LIMIT_PER_ORDER: '10000', VERIFY_FAILURE_FLOOR_MS: '0' })
    type Server = ServerProcess

    /** kill -9 of the process running the server, as an OOM kill would. */
    async function killHard(server: Server) {
      process.kill(server.process.child.pid!, 'SIGKILL')
      expect(await within(15_000, 'the killed server to be reaped', server.process.exited)).toEqual({
        code: null,
        signal: 'SIGKILL',
      })
    }

    test(
      'kill -9 in the middle of a burst of submits: every return answered 201 is there after a restart, and each unit is returned exactly once',
      async () => {
        const second = await killDuringBurst({ start: startUnlimited, killHard }, 'pg-burst', BURST)
        expect(await second.stop()).toEqual({ code: 0, signal: null })
      },
      SLOW,
    )

    test(
      'two replicas with no settings count verifies together: the 31st from one client and the 11th at one order name are 429s, whichever replica answers',
      async () => {
        const replicas = [await start(), await start()]
        const guess = (i: number, from: string, order_name: string, email = 'nobody@example.com') =>
          replicas[i % 2]!.callFrom(from, 'POST', '/portal-registration/verify', {
            order_name,
            email,
            ...portalOf(LIMITS_SHOP),
          })
        // One client, thirty names no order has, every other one to the other replica.
        for (let i = 0; i < 30; i++) {
          const answer = await guess(i, '127.0.0.2', `#66${String(i).padStart(3, '0')}`)
          expect(answer.status).toBe(400)
          expect(answer.ms).toBeGreaterThanOrEqual(250)
        }
        expect((await guess(0, '127.0.0.2', '#66999')).status).toBe(429)
        expect((await guess(1, '127.0.0.2', '#66999')).status).toBe(429)
        expect((await guess(1, '127.0.0.3', '#66999')).status).toBe(400)
        // One order name, ten clients, both replicas; then the right e-mail is refused too.
        for (let i = 0; i < 10; i++)
          expect((await guess(i, `127.0.1.${i + 1}`, ADA.name, `guess${i}@example.com`)).status).toBe(400)
        expect((await guess(0, '127.0.1.20', ADA.name, ADA.email)).status).toBe(429)
        expect((await guess(1, '127.0.1.21', ADA.name, ADA.email)).status).toBe(429)
        for (const replica of replicas) expect(await replica.stop()).toEqual({ code: 0, signal: null })
      },
      SLOW,
    )
  })
