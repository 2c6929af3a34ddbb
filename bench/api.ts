/**
 * API load (issue "Benchmarks and budgets", item 4): a short autocannon run on loopback against
 * GET config and POST verify, on PGlite and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names
 * one, a PostgreSQL server with 1 and 2 API replicas. The rate limit is relaxed for the run.
 * Prints a table, merges the figures into bench/results.json, exits 1 when a budget is missed.
 *   npx tsx bench/api.ts [seconds per run, default 10]
 */
import { runBenchmark, saveResults } from './results'
import autocannon from 'autocannon'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, stop } from './server'

const seconds = Number(process.argv[2] ?? 10)
const BUDGET = { verifyP99Ms: 25, verifyRps: 1000 }
const CONNECTIONS = 50

interface Row {
  engine: string
  replicas: number
  call: string
  rps: number
  p50: number
  p99: number
  errors: number
}

const verifyBody = JSON.stringify({
  order_name: '#1001',
  email: 'jane@example.com',
  shop: 'demo',
  portal_id: 'portal-demo',
})

/** One load of `seconds` against the replicas' ports in turn (as a round-robin balancer would). */
async function load(ports: number[], call: 'config' | 'verify'): Promise<Omit<Row, 'engine' | 'replicas'>> {
  const requests = ports.map((port) =>
    call === 'config'
      ? { method: 'GET' as const, path: `http://127.0.0.1:${port}/portal-registration/config/demo` }
      : {
          method: 'POST' as const,
          path: `http://127.0.0.1:${port}/portal-registration/verify`,
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
        duration: seconds,
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
    const rows: Row[] = []
    for (const call of ['config', 'verify'] as const) rows.push({ engine, replicas, ...(await load(ports, call)) })
    return rows
  } finally {
    await Promise.all(servers.map(stop))
  }
}

async function main(): Promise<boolean> {
  const rows: Row[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-'))
  try {
    rows.push(...(await run('PGlite', 1, () => ({ DATA_DIR: dataDir }))))
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (databaseUrl) {
    for (const replicas of [1, 2])
      rows.push(...(await run('PostgreSQL', replicas, () => ({ DATABASE_URL: databaseUrl }))))
  }

  console.log(`\nAPI on loopback: ${CONNECTIONS} connections, ${seconds} s per run, rate limit relaxed\n`)
  console.log(
    `${'engine'.padEnd(11)} ${'replicas'.padStart(8)} ${'call'.padEnd(7)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)}`,
  )
  for (const row of rows) {
    console.log(
      `${row.engine.padEnd(11)} ${String(row.replicas).padStart(8)} ${row.call.padEnd(7)} ${String(row.rps).padStart(8)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.errors).padStart(7)}`,
    )
  }
  const verify = rows.find((row) => row.engine === 'PGlite' && row.call === 'verify')!
  const ok = verify.p99 <= BUDGET.verifyP99Ms && verify.rps >= BUDGET.verifyRps && verify.errors === 0
  console.log(
    `\nBudget on PGlite: verify p99 ≤ ${BUDGET.verifyP99Ms} ms at ≥ ${BUDGET.verifyRps} req/s: ${ok ? 'holds' : 'MISSED'} (p99 ${verify.p99} ms, ${verify.rps} req/s)`,
  )
  if (!databaseUrl) console.log('No PostgreSQL server named (BENCH_DATABASE_URL): replica scaling not measured.')

  saveResults('api', { connections: CONNECTIONS, seconds, rows })
  return ok
}

runBenchmark('API', main)
