/**
 * The console while shoppers submit (issue 29, docs/performance.md): the compiled server as
 * `npm start` runs it, with thousands of returns, on PGlite and (when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a server) on a PostgreSQL database of its own. A staff member's list,
 * its first page and a state filter, is timed idle, then again in the same run while 8 shoppers
 * keep submitting returns (bench/submitters.ts: verify, quote, submit, in their own process). The
 * machine's reference is printed beside (bench/reference.ts): a bare Fastify route's req/s and a fixed CPU loop.
 * Budget: the list's p99 under that load. Settings: none but the verify limit per client address,
 * raised because every shopper here comes from 127.0.0.1.
 * Prints a table, merges the figures into bench/results.json, exits 1 when a budget is missed.
 *   npx tsx bench/consoleUnderLoad.ts [seconds per phase, default 10] [returns, default 5000]
 */
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { machineLoad, root, startServer, stop } from './server'
import { seedHistory, PASSWORD, SUBMITTER_ORDERS } from './consoleSeed'

const seconds = Number(process.argv[2] ?? 10)
const RETURNS = Number(process.argv[3] ?? 5_000)
const SUBMITTERS = 8
const BUDGET = { listP99Ms: 250 }
const PORT = 18_470
const CALLS = [
  ['first page', '/admin/api/returns'],
  ['state filter', '/admin/api/returns?state=received'],
] as const

interface Timing {
  call: string
  requests: number
  p50: number
  p99: number
  errors: number
}

const percentile = (sorted: number[], share: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0)

/** A staff member asking for `path` again as soon as it answers, for `duration` seconds. */
async function staffLoop(cookie: string, [call, path]: (typeof CALLS)[number], duration: number): Promise<Timing> {
  const times: number[] = []
  let errors = 0
  const end = performance.now() + duration * 1000
  while (performance.now() < end) {
    const started = performance.now()
    const response = await fetch(`http://127.0.0.1:${PORT}${path}`, { headers: { cookie } })
    await response.arrayBuffer()
    times.push(performance.now() - started)
    if (!response.ok) errors++
  }
  times.sort((a, b) => a - b)
  return { call, requests: times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99), errors }
}

/** Both calls at once (two staff members), each its own loop. */
const staff = (cookie: string, duration = seconds) =>
  Promise.all(CALLS.map((call) => staffLoop(cookie, call, duration)))

async function signIn(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${PORT}/admin/api/session`, {
    method: 'POST',
    headers: { origin: `http://127.0.0.1:${PORT}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'staff@demo.example', password: PASSWORD }),
  })
  const cookie = response.headers.get('set-cookie')?.split(';')[0]
  if (!response.ok || !cookie) throw new Error(`sign-in: ${response.status} ${await response.text()}`)
  return cookie
}

interface Submitted {
  submits: number
  perSecond: number
  p50: number
  p99: number
  failures: number
  firstFailure: string | null
}

/** bench/submitters.ts in its own process, once every shopper has made a return. */
async function startSubmitters(): Promise<{ child: ChildProcess; done: () => Promise<Submitted> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'submitters.ts'), String(PORT), String(SUBMITTERS), String(SUBMITTER_ORDERS)],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const first = await lines.next()
  if (first.done || first.value !== 'ready') throw new Error(`the submitters did not start: ${String(first.value)}`)
  return {
    child,
    done: async () => {
      child.kill('SIGTERM')
      const last = await lines.next()
      return JSON.parse(String(last.value)) as Submitted
    },
  }
}

interface EngineRun {
  engine: string
  idle: Timing[]
  loaded: Timing[]
  submitted: Submitted
  /** the server process's CPU time over the loaded phase, against its wall time */
  serverCpuShare: number
}

/** CPU seconds the process has used so far (user and system, from /proc on Linux; 0 elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

async function measure(engine: string, env: Record<string, string>): Promise<EngineRun> {
  // As `npm start` runs it: the default log level and limits, but for verify's per-address one.
  const server = await startServer(PORT, {
    ...env,
    LOG_LEVEL: '',
    VERIFY_RATE_LIMIT_PER_IP: '100000000',
    VERIFY_RATE_LIMIT_PER_ORDER: '',
  })
  try {
    const cookie = await signIn()
    await staff(cookie, 2) // warm-up: JIT, query plans, the pool's connections
    const idle = await staff(cookie)
    const submitters = await startSubmitters()
    const [cpuBefore, wallBefore] = [cpuSeconds(server.pid), performance.now()]
    const loaded = await staff(cookie).catch((error: unknown) => {
      submitters.child.kill('SIGKILL')
      throw error
    })
    const serverCpuShare = (cpuSeconds(server.pid) - cpuBefore) / ((performance.now() - wallBefore) / 1000)
    return { engine, idle, loaded, submitted: await submitters.done(), serverCpuShare }
  } finally {
    await stop(server)
  }
}

async function postgresRun(url: string): Promise<EngineRun> {
  const name = 'rebound_bench_console'
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
    const own = new URL(url)
    own.pathname = `/${name}`
    await seedHistory({ databaseUrl: own.toString() }, RETURNS)
    return await measure('PostgreSQL', { DATABASE_URL: own.toString() })
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
    await admin.end()
  }
}

runBenchmark('Console under load', async () => {
  const before = machineLoad()
  if (before.busy) console.warn(`Warning: ${before.note}; the figures below are not a quiet machine's.`)
  const reference = await measureReference()
  const runs: EngineRun[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-console-'))
  try {
    await seedHistory({ dataDir }, RETURNS)
    runs.push(await measure('PGlite', { DATA_DIR: dataDir }))
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (databaseUrl) runs.push(await postgresRun(databaseUrl))
  const after = machineLoad()

  console.log(
    `\nThe console's list with ${RETURNS.toLocaleString('en')} returns, idle and while ${SUBMITTERS} shoppers submit (${seconds} s each)\n`,
  )
  console.log(
    `${'engine'.padEnd(11)} ${'call'.padEnd(13)} ${'idle p50'.padStart(9)} ${'idle p99'.padStart(9)} ${'load p50'.padStart(9)} ${'load p99'.padStart(9)} ${'budget'.padStart(7)}  ok`,
  )
  let held = true
  for (const run of runs) {
    for (const [index, idle] of run.idle.entries()) {
      const loaded = run.loaded[index]!
      const ok = idle.errors + loaded.errors === 0 && loaded.p99 <= BUDGET.listP99Ms
      held &&= ok
      console.log(
        `${run.engine.padEnd(11)} ${idle.call.padEnd(13)} ${String(idle.p50).padStart(9)} ${String(idle.p99).padStart(9)} ${String(loaded.p50).padStart(9)} ${String(loaded.p99).padStart(9)} ${`≤ ${BUDGET.listP99Ms}`.padStart(7)}  ${ok ? 'yes' : 'MISSED'}  (${idle.requests} / ${loaded.requests} requests)`,
      )
    }
    const { submits, perSecond, p50, p99, failures, firstFailure } = run.submitted
    held &&= failures === 0 && submits > 0
    console.log(
      `${run.engine.padEnd(11)} submits: ${submits} (${perSecond}/s), submit p50 ${p50} ms, p99 ${p99} ms, ${failures} failed${firstFailure ? `: ${firstFailure}` : ''}; the server's CPU under load: ${Math.round(run.serverCpuShare * 100)}% of a core`,
    )
  }
  if (!databaseUrl) console.log('No PostgreSQL server named (BENCH_DATABASE_URL): PostgreSQL not measured.')
  console.log('')
  printReference(reference)
  console.log(`Load average: ${before.loadAverage} before, ${after.loadAverage} after, on ${after.cores} cores.`)
  saveResults(
    'consoleUnderLoad',
    {
      returns: RETURNS,
      submitters: SUBMITTERS,
      seconds,
      runs,
      loadAverage: { before: before.loadAverage, after: after.loadAverage, cores: after.cores },
    },
    reference,
  )
  return held
})
