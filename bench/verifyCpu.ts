/**
 * The CPU a verify costs the Portal API's own code (docs/decisions/0097-verify-cpu-per-request.md),
 * without the network's share: the app built as server.ts builds it, on a PostgreSQL database of
 * its own seeded as bench/verifyReplicas.ts seeds it, compiled (server/dist), called through `inject` (no sockets, no HTTP
 * parser), 50 at a time, each another shopper's order, the limits raised. This process's CPU
 * (user and system, so the pg driver and its socket too) a verify, per round of 5,000, and the
 * median of the rounds, and the fixed CPU loop of bench/reference.ts beside. The request log at
 * `warn` as the other benchmarks run the server (BENCH_LOG_LEVEL: another level, or `none`). A CPU count, not a
 * clock: other load on the machine moves it far less.
 * Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (scripts/postgres.sh).
 *   npx tsx bench/verifyCpu.ts [rounds, default 5]
 */
import { join } from 'node:path'
import type { Database } from '../server/src/storage/database'
import { cpuLoop } from './reference'
import { buildServer, root } from './server'
import { CLIENTS, nextVerify, withLoadDatabase } from './verifyLoad'

const ROUND = 5_000

/** What is used here of the compiled server (server/dist), which the benchmarks measure as it ships. */
interface Compiled {
  buildApp: (options: {
    db: Database
    secret: Buffer
    limits: Record<string, number>
    logger?: { level: string; stream: { write(line: string): void } }
  }) => Promise<{
    inject(options: object): Promise<{ statusCode: number; body: string }>
    close(): Promise<void>
  }>
  openPostgres: (url: string) => Promise<Database>
}

async function compiled(): Promise<Compiled> {
  buildServer()
  const dist = join(root, 'server/dist/server/src')
  const [{ buildApp }, { openPostgres }] = (await Promise.all([
    import(join(dist, 'app.js')),
    import(join(dist, 'storage/database.js')),
  ])) as [Pick<Compiled, 'buildApp'>, Pick<Compiled, 'openPostgres'>]
  return { buildApp, openPostgres }
}

async function main() {
  const rounds = Number(process.argv[2] ?? 5)
  const level = process.env.BENCH_LOG_LEVEL ?? 'warn'
  await withLoadDatabase('rebound_bench_cpu', async ({ url }) => {
    const { buildApp, openPostgres } = await compiled()
    const db = await openPostgres(url)
    const app = await buildApp({
      db,
      secret: Buffer.from('bench-secret'),
      limits: { verifyPerClient: 100_000_000, verifyPerOrder: 100_000_000 },
      // The request log as the benchmarks' servers keep it (warn), or BENCH_LOG_LEVEL's; its lines dropped.
      ...(level === 'none' ? {} : { logger: { level, stream: { write: () => {} } } }),
    })
    try {
      let n = 0
      // One call as client c of the load sends it, from its address.
      const call = (client: number) => {
        const { path, body } = nextVerify(client, n++)
        return app.inject({
          method: 'POST',
          url: path,
          remoteAddress: `127.0.0.${2 + client}`,
          headers: { 'content-type': 'application/json' },
          payload: body,
        })
      }
      const round = async () => {
        const before = process.cpuUsage()
        for (let done = 0; done < ROUND; done += CLIENTS) {
          const answers = await Promise.all(Array.from({ length: CLIENTS }, (_, client) => call(client)))
          const failed = answers.find((answer) => answer.statusCode !== 200)
          if (failed) throw new Error(`a verify answered ${failed.statusCode}: ${failed.body}`)
        }
        const cpu = process.cpuUsage(before)
        return Math.round((cpu.user + cpu.system) / ROUND)
      }
      await round() // warm-up: JIT, the pool, the prepared statement
      const figures: number[] = []
      for (let i = 0; i < rounds; i++) figures.push(await round())
      const median = [...figures].sort((a, b) => a - b)[Math.floor(figures.length / 2)]
      console.log(
        `CPU a verify (this process, ${ROUND} a round, ${CLIENTS} at a time, log level ${level}): ${figures.join(', ')} µs; median ${median} µs`,
      )
      console.log(`Reference (same run): a fixed CPU loop ${cpuLoop()} ms (bench/reference.ts).`)
    } finally {
      await app.close()
      await db.close()
    }
  })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
