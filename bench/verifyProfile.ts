/**
 * Where a verify's CPU goes in the replica (docs/benchmarks.md, "Verify as replicas scale"): the
 * compiled server under `node --cpu-prof`, on a PostgreSQL database of its own seeded as
 * bench/verifyReplicas.ts seeds it, loaded by its 50 client addresses with its verifies (limits
 * raised) for `seconds`, then stopped; its profile summarised (bench/cpuProfile.ts) per verify
 * answered, over the load's seconds only (after 3 s of warm-up). Beside it, the CPU a verify took
 * by /proc in the server, in PostgreSQL's backends and in this process (the load generator). Needs BENCH_DATABASE_URL or
 * TEST_DATABASE_URL (scripts/postgres.sh); BENCH_PORTS (from-to) picks the server's port.
 *   npx tsx bench/verifyProfile.ts [seconds, default 15] [profile directory, default a fresh one]
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monotonicUs, printSummary, summarise, type Profile } from './cpuProfile'
import { loadFromAddresses } from './fromAddresses'
import { benchPorts, processCpuMs, startServer, stop } from './server'
import { CLIENTS, nextVerify, withLoadDatabase } from './verifyLoad'

async function main() {
  const seconds = Number(process.argv[2] ?? 15)
  const directory = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'verify-profile-'))
  await withLoadDatabase('rebound_bench_profile', async ({ url, name, admin }) => {
    const port = (await benchPorts(1))[0]!
    process.env.BENCH_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${directory}`
    const server = await startServer(port, {
      DATABASE_URL: url,
      VERIFY_RATE_LIMIT_PER_IP: '100000000',
      VERIFY_RATE_LIMIT_PER_ORDER: '100000000',
    })
    let answered = 0
    let window: { from: number; to: number }
    try {
      await loadFromAddresses([port], CLIENTS, 3, nextVerify) // warm-up: JIT, the pool; not summarised
      const backends = async () => {
        const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
          name,
        ])
        return rows.reduce((sum, { pid }) => sum + processCpuMs(pid), 0)
      }
      const before = { server: processCpuMs(server.pid), own: process.cpuUsage(), backends: await backends() }
      const from = monotonicUs()
      const load = await loadFromAddresses([port], CLIENTS, seconds, nextVerify)
      window = { from, to: monotonicUs() }
      const after = { server: processCpuMs(server.pid), own: process.cpuUsage(before.own), backends: await backends() }
      answered = Object.values(load.statuses).reduce((sum, n) => sum + n, 0)
      const per = (ms: number) => Math.round((ms * 1000) / Math.max(answered, 1))
      console.log(
        `${answered} verifies in ${seconds} s (${load.rps} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms), statuses ${JSON.stringify(load.statuses)}, errors ${load.errors}`,
      )
      console.log(
        `CPU a verify (/proc): the server ${per(after.server - before.server)} µs, PostgreSQL's backends ${per(after.backends - before.backends)} µs, this load generator ${per((after.own.user + after.own.system) / 1000)} µs`,
      )
    } finally {
      await stop(server)
    }
    const file = readdirSync(directory).find((entry) => entry.endsWith('.cpuprofile'))
    if (!file) throw new Error(`no profile in ${directory}`)
    console.log(`Profile: ${join(directory, file)}\n`)
    printSummary(summarise(JSON.parse(readFileSync(join(directory, file), 'utf8')) as Profile, 30, window), answered)
  })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
