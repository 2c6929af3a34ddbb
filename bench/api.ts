/**
 * API load (issue "Benchmarks and budgets", item 4; issue 18): a short autocannon run on loopback
 * against GET config and POST verify, on PGlite and, when BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL) names one, a PostgreSQL server with 1 and 2 API replicas. In the same run, a
 * bare Fastify route (bench/bareFastify.ts, its own process) takes the same load before each set,
 * so verify is judged against what Fastify alone makes of this machine at that moment. The rate
 * limit is relaxed for the run. Prints a table, merges the figures into bench/results.json, exits 1
 * when a budget is missed.
 *   npx tsx bench/api.ts [seconds per run, default 10]
 */
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { machineLoad, root, startServer, stop } from './server'

const seconds = Number(process.argv[2] ?? 10)
/** On PGlite: verify makes at least this share of the bare route's requests per second, within this p99. */
const BUDGET = { verifyShareOfBare: 0.25, verifyP99Ms: 15 }
const CONNECTIONS = 50
const BARE_PORT = 18_490

type Call = 'bare' | 'config' | 'verify'

interface Row {
  engine: string
  replicas: number
  call: Call
  rps: number
  p50: number
  p99: number
  errors: number
  /** req/s against the bare route's of the same set (1 for the bare route itself) */
  ofBare: number
}

const verifyBody = JSON.stringify({
  order_name: '#1001',
  email: 'jane@example.com',
  shop: 'demo',
  portal_id: 'portal-demo',
})

/** One load of `duration` seconds against the ports in turn (as a round-robin balancer would). */
async function load(
  ports: number[],
  call: Call,
  duration = seconds,
): Promise<Omit<Row, 'engine' | 'replicas' | 'ofBare'>> {
  const requests = ports.map((port) =>
    call === 'config'
      ? { method: 'GET' as const, path: `http://127.0.0.1:${port}/portal-registration/config/demo` }
      : {
          method: 'POST' as const,
          path: `http://127.0.0.1:${port}${call === 'bare' ? '/bare' : '/portal-registration/verify'}`,
          headers: { 'content-type': 'application/json' },
          body: verifyBody,
        },
  )
  const results = await Promise.all(
    requests.map((request) =>
      autocannon({
        url: request.path,
        method: request.method,
        headers: 'headers' in request ? request.headers : undefined,
        body: 'body' in request ? request.body : undefined,
        connections: Math.ceil(CONNECTIONS / ports.length),
        duration,
      }),
    ),
  )
  const rps = results.reduce((total, result) => total + result.requests.average, 0)
  return {
    call,
    rps: Math.round(rps),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((total, result) => total + result.errors + result.non2xx, 0),
  }
}

/** bench/bareFastify.ts in a process of its own (node with tsx's loader), once it answers. */
async function startBare(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'bareFastify.ts'), String(BARE_PORT)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the bare Fastify server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`http://127.0.0.1:${BARE_PORT}/health`)).ok) {
        await load([BARE_PORT], 'bare', Math.min(seconds, 3)) // warm-up: JIT
        return child
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  child.kill('SIGKILL')
  throw new Error('the bare Fastify server did not start')
}

async function run(engine: string, replicas: number, env: (index: number) => Record<string, string>): Promise<Row[]> {
  const ports = Array.from({ length: replicas }, (_, index) => 18_400 + index)
  const servers: ChildProcess[] = []
  try {
    for (const [index, port] of ports.entries())
      servers.push(
        await startServer(port, {
          VERIFY_RATE_LIMIT_PER_IP: '100000000',
          VERIFY_RATE_LIMIT_PER_ORDER: '100000000',
          ...env(index),
        }),
      )
    await load(ports, 'verify') // warm-up: JIT, caches, connection pools
    // The bare route just before, so that both meet the machine in the same state.
    const bare = await load([BARE_PORT], 'bare')
    const rows: Row[] = [{ engine, replicas, ...bare, ofBare: 1 }]
    for (const call of ['config', 'verify'] as const) {
      const figures = await load(ports, call)
      rows.push({ engine, replicas, ...figures, ofBare: bare.rps > 0 ? figures.rps / bare.rps : 0 })
    }
    return rows
  } finally {
    await Promise.all(servers.map(stop))
  }
}

const percent = (share: number) => `${Math.round(share * 100)}%`

async function main(): Promise<boolean> {
  const before = machineLoad()
  console.log(before.note)
  const reference = await measureReference()
  const rows: Row[] = []
  const bare = await startBare()
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-'))
    try {
      rows.push(...(await run('PGlite', 1, () => ({ DATA_DIR: dataDir }))))
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
    if (databaseUrl) {
      for (const replicas of [1, 2])
        rows.push(...(await run('PostgreSQL', replicas, () => ({ DATABASE_URL: databaseUrl }))))
    }
  } finally {
    await stop(bare)
  }
  const after = machineLoad()

  console.log(`\nAPI on loopback: ${CONNECTIONS} connections, ${seconds} s per run, rate limit relaxed\n`)
  console.log(
    `${'engine'.padEnd(11)} ${'replicas'.padStart(8)} ${'call'.padEnd(7)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'of bare'.padStart(8)}`,
  )
  for (const row of rows) {
    console.log(
      `${row.engine.padEnd(11)} ${String(row.replicas).padStart(8)} ${row.call.padEnd(7)} ${String(row.rps).padStart(8)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.errors).padStart(7)} ${percent(row.ofBare).padStart(8)}`,
    )
  }
  const verify = rows.find((row) => row.engine === 'PGlite' && row.call === 'verify')!
  const ok = verify.ofBare >= BUDGET.verifyShareOfBare && verify.p99 <= BUDGET.verifyP99Ms && verify.errors === 0
  console.log(
    `\nBudget on PGlite: verify ≥ ${percent(BUDGET.verifyShareOfBare)} of the bare route's req/s, p99 ≤ ${BUDGET.verifyP99Ms} ms, no errors: ${ok ? 'holds' : 'MISSED'} (${percent(verify.ofBare)}, p99 ${verify.p99} ms, ${verify.errors} errors)`,
  )
  if (!databaseUrl) console.log('No PostgreSQL server named (BENCH_DATABASE_URL): replica scaling not measured.')
  // The load generator, the bare route and the API share this machine's cores with whatever else
  // runs. Judged by the load before the run: the run itself keeps both cores busy.
  if (before.busy) console.log(`\nWARNING: ${before.note}`)
  else console.log(`\n${before.note}`)
  console.log(`Load average after the run (its own load included): ${after.loadAverage}.`)
  printReference(reference)

  saveResults(
    'api',
    {
      connections: CONNECTIONS,
      seconds,
      loadAverage: { before: before.loadAverage, after: after.loadAverage, cores: before.cores, busy: before.busy },
      rows: rows.map((row) => ({ ...row, ofBare: Math.round(row.ofBare * 1000) / 1000 })),
    },
    reference,
  )
  return ok
}

runBenchmark('API', main)
