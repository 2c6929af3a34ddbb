/**
 * Verify as replicas scale, on PostgreSQL (docs/benchmarks.md): the compiled server, 1 and then 2
 * replicas on one PostgreSQL database of its own, loaded by 50 clients each from its own loopback
 * address (bench/fromAddresses.ts), as real traffic comes: every request another shopper's order
 * (#S1…#S5000 of bench/consoleSeed.ts), so the rate limits' counters are one row per address and
 * per order, as they are in production. The limits are raised for the load (it would be refused
 * after 30 a minute), and checked exact afterwards on the same replicas restarted with the shipped
 * limits: 40 verifies at once from one address, spread over the replicas, make exactly 30 answers
 * and 10 refusals; 15 at once at one order from 15 addresses, exactly 10 and 5.
 *
 * In the same run, a bare Fastify route (bench/bareFastify.ts) takes the same load from the same
 * addresses just before each set; the budget is relative to it: verify ≥ 25% of its req/s, p99 ≤
 * 20 ms. The machine's reference (bench/reference.ts) is printed beside. Needs BENCH_DATABASE_URL
 * or TEST_DATABASE_URL (scripts/postgres.sh); exits 1 when a budget is missed or it cannot run.
 *   npx tsx bench/verifyReplicas.ts [seconds per run, default 10]
 */
import pg from 'pg'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { seedHistory } from './consoleSeed'
import { clientAddress, loadFromAddresses, send, type Load } from './fromAddresses'
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import { benchPorts, machineLoad, processCpuMs, root, startServer, stop } from './server'
import { bareCall, CLIENTS, nextVerify, verify } from './verifyLoad'

const seconds = Number(process.argv[2] ?? 10)
const BUDGET = { shareOfBare: 0.25, p99Ms: 20 }
/** The shipped limits (server/src/settings.ts), which the exactness check runs with. */
const SHIPPED = { perClient: 30, perOrder: 10 }

/** bench/bareFastify.ts in a process of its own, once it answers. */
async function startBare(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'bareFastify.ts'), String(port)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the bare Fastify server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child
    } catch (error) {
      if (Date.now() > deadline) throw error
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

interface Exactness {
  /** 40 at once from one address: answered (200) and refused (429) */
  perClient: { answered: number; refused: number; other: number }
  /** 15 at once at one order from 15 addresses */
  perOrder: { answered: number; refused: number; other: number }
  exact: boolean
}

function tally(statuses: number[]) {
  const answered = statuses.filter((status) => status === 200).length
  const refused = statuses.filter((status) => status === 429).length
  return { answered, refused, other: statuses.length - answered - refused }
}

/**
 * The shipped limits across the replicas: one address, 40 verifies at once (each at an order of
 * its own, spread over the replicas), and one order, 15 at once from 15 addresses. `slot` keeps
 * each set's addresses and orders apart from the others' and the load's.
 */
async function checkExact(ports: number[], slot: number): Promise<Exactness> {
  const fromOne = clientAddress(100 + slot)
  const perClient = tally(
    await Promise.all(
      Array.from({ length: SHIPPED.perClient + 10 }, (_, i) =>
        send(ports[i % ports.length]!, verify(40_000 + slot * 100 + i), { localAddress: fromOne }).then(
          (answer) => answer.status,
        ),
      ),
    ),
  )
  const order = 45_000 + slot
  const perOrder = tally(
    await Promise.all(
      Array.from({ length: SHIPPED.perOrder + 5 }, (_, i) =>
        send(ports[i % ports.length]!, verify(order), { localAddress: clientAddress(200 + slot * 20 + i) }).then(
          (answer) => answer.status,
        ),
      ),
    ),
  )
  const exact =
    perClient.answered === SHIPPED.perClient &&
    perClient.refused === 10 &&
    perOrder.answered === SHIPPED.perOrder &&
    perOrder.refused === 5
  return { perClient, perOrder, exact }
}

interface SetResult {
  replicas: number
  bare: Load
  verify: Load
  /** the bench database's transactions committed during the verify load, per answer: its round trips */
  commitsPerVerify: number
  /** CPU µs a verify of the load took in the replicas and in the PostgreSQL backends (0: not read) */
  cpuPerVerify: { replicas: number; postgres: number }
  /** CPU µs a call of the bare load took in the bare server */
  cpuPerBare: number
  exactness: Exactness
}

/**
 * CPU (ms) used so far by the replicas and by the PostgreSQL backends serving `database`, when the
 * server runs on this machine (loopback): what each verify costs, whatever else loads the machine.
 */
async function cpuNow(admin: pg.Client, database: string, servers: ChildProcess[]) {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])
  return {
    replicas: servers.reduce((sum, server) => sum + processCpuMs(server.pid), 0),
    backends: new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)])),
  }
}

/** Transactions committed in `database` so far (each statement outside a transaction is one). */
async function commits(admin: pg.Client, database: string): Promise<number> {
  // A fresh snapshot of the statistics, not the one this transaction already read.
  await admin.query('SELECT pg_stat_clear_snapshot()')
  const { rows } = await admin.query<{ commits: string }>(
    'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = $1',
    [database],
  )
  return Number(rows[0]?.commits ?? 0)
}

async function startReplicas(ports: number[], databaseUrl: string, env: Record<string, string>) {
  const servers: ChildProcess[] = []
  try {
    for (const port of ports) servers.push(await startServer(port, { DATABASE_URL: databaseUrl, ...env }))
    return servers
  } catch (error) {
    await Promise.all(servers.map(stop))
    throw error
  }
}

async function measureSet(
  replicas: number,
  databaseUrl: string,
  bareServer: { port: number; pid: number | undefined },
  admin: pg.Client,
): Promise<SetResult> {
  const barePort = bareServer.port
  // After the bare route's: the ports of a run stay apart.
  const ports = await benchPorts(replicas, barePort + 1)
  const database = new URL(databaseUrl).pathname.slice(1)
  let servers = await startReplicas(ports, databaseUrl, {
    VERIFY_RATE_LIMIT_PER_IP: '100000000',
    VERIFY_RATE_LIMIT_PER_ORDER: '100000000',
  })
  let verifyLoad: Load
  let bare: Load
  let before: number
  let warmUp: Load
  let cpuPerVerify: SetResult['cpuPerVerify']
  let cpuPerBare: number
  try {
    before = await commits(admin, database)
    warmUp = await loadFromAddresses(ports, CLIENTS, Math.min(seconds, 3), nextVerify) // JIT, pools
    // The bare route just before, from the same addresses: both meet the machine in the same state.
    const bareCpu = processCpuMs(bareServer.pid)
    bare = await loadFromAddresses([barePort], CLIENTS, seconds, bareCall)
    cpuPerBare = Math.round(((processCpuMs(bareServer.pid) - bareCpu) * 1000) / Math.max(bare.rps * seconds, 1))
    const cpuBefore = await cpuNow(admin, database, servers)
    verifyLoad = await loadFromAddresses(ports, CLIENTS, seconds, nextVerify)
    const cpuAfter = await cpuNow(admin, database, servers)
    const verifies = Math.max(verifyLoad.rps * seconds, 1)
    let backends = 0
    for (const [pid, ms] of cpuAfter.backends) backends += ms - (cpuBefore.backends.get(pid) ?? 0)
    cpuPerVerify = {
      replicas: Math.round(((cpuAfter.replicas - cpuBefore.replicas) * 1000) / verifies),
      postgres: Math.round((backends * 1000) / verifies),
    }
  } finally {
    await Promise.all(servers.map(stop))
  }
  // A backend reports its counts by the time its connection closes: once the replicas stopped, every
  // commit of the warm-up and the load is in (and the replicas' few at start, a rounding error).
  const answered = [warmUp, verifyLoad].reduce(
    (sum, load) => sum + Object.values(load.statuses).reduce((n, count) => n + count, 0),
    0,
  )
  // Their backends exit a moment after: read until the count stays put.
  let after = await commits(admin, database)
  for (let previous = -1; after !== previous;) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    ;[previous, after] = [after, await commits(admin, database)]
  }
  const commitsPerVerify = Math.round(((after - before) / Math.max(answered, 1)) * 100) / 100
  servers = await startReplicas(ports, databaseUrl, {
    VERIFY_RATE_LIMIT_PER_IP: String(SHIPPED.perClient),
    VERIFY_RATE_LIMIT_PER_ORDER: String(SHIPPED.perOrder),
  })
  try {
    return {
      replicas,
      bare,
      verify: verifyLoad,
      commitsPerVerify,
      cpuPerVerify,
      cpuPerBare,
      exactness: await checkExact(ports, replicas),
    }
  } finally {
    await Promise.all(servers.map(stop))
  }
}

const percent = (share: number) => `${Math.round(share * 100)}%`

runBenchmark('Verify as replicas scale', async () => {
  const before = machineLoad()
  if (before.busy) console.warn(`Warning: ${before.note}; the figures below are not a quiet machine's.`)
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!databaseUrl) {
    console.log('No PostgreSQL server named (BENCH_DATABASE_URL or TEST_DATABASE_URL): not measured.')
    return false
  }
  const reference = await measureReference()
  // Named by this process, so that another run on the same server (another worktree's) cannot drop it.
  const name = `rebound_bench_verify_${process.pid}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  const sets: SetResult[] = []
  const barePort = (await benchPorts(1))[0]!
  const bare = await startBare(barePort)
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
    const own = new URL(databaseUrl)
    own.pathname = `/${name}`
    await seedHistory({ databaseUrl: own.toString() }, 0)
    await loadFromAddresses([barePort], CLIENTS, Math.min(seconds, 3), bareCall) // warm-up: JIT
    for (const replicas of [1, 2])
      sets.push(await measureSet(replicas, own.toString(), { port: barePort, pid: bare.pid }, admin))
  } finally {
    await stop(bare)
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
    await admin.end()
  }
  const after = machineLoad()

  console.log(
    `\nVerify on PostgreSQL from ${CLIENTS} client addresses (one connection each), ${seconds} s per run, every request another order\n`,
  )
  console.log(
    `${'replicas'.padEnd(9)} ${'call'.padEnd(7)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non-200'.padStart(8)} ${'of bare'.padStart(8)}  limits exact (30 of 40 from one address / 10 of 15 at one order)`,
  )
  let held = true
  for (const set of sets) {
    const non200 = (load: Load) =>
      load.errors + Object.entries(load.statuses).reduce((sum, [status, n]) => sum + (status === '200' ? 0 : n), 0)
    const share = set.bare.rps > 0 ? set.verify.rps / set.bare.rps : 0
    const { perClient, perOrder, exact } = set.exactness
    const ok = share >= BUDGET.shareOfBare && set.verify.p99 <= BUDGET.p99Ms && non200(set.verify) === 0 && exact
    held &&= ok
    for (const [call, load] of [
      ['bare', set.bare],
      ['verify', set.verify],
    ] as const)
      console.log(
        `${String(set.replicas).padEnd(9)} ${call.padEnd(7)} ${String(load.rps).padStart(8)} ${String(load.p50).padStart(7)} ${String(load.p99).padStart(7)} ${String(non200(load)).padStart(8)} ${(call === 'bare' ? '100%' : percent(share)).padStart(8)}  ${call === 'bare' ? `CPU a call: ${set.cpuPerBare} µs in the bare server, ${load.generatorCpuUs} µs in the load generator` : `${exact ? 'yes' : 'NO'} (${perClient.answered}+${perClient.refused} refused / ${perOrder.answered}+${perOrder.refused} refused)  ${ok ? 'holds' : 'MISSED'}, ${set.commitsPerVerify} commits a verify, CPU a verify: ${set.cpuPerVerify.replicas} µs in the replicas, ${set.cpuPerVerify.postgres} µs in PostgreSQL, ${load.generatorCpuUs} µs in the load generator`}`,
      )
  }
  console.log(
    `\nBudget per set: verify ≥ ${percent(BUDGET.shareOfBare)} of the bare route's req/s, p99 ≤ ${BUDGET.p99Ms} ms, every answer 200, the limits exact.`,
  )
  console.log(`Load average: ${before.loadAverage} before, ${after.loadAverage} after, on ${before.cores} cores.`)
  printReference(reference)
  saveResults(
    'verifyReplicas',
    {
      clients: CLIENTS,
      seconds,
      loadAverage: { before: before.loadAverage, after: after.loadAverage, cores: before.cores },
      sets: sets.map((set) => ({
        ...set,
        ofBare: Math.round((set.verify.rps / Math.max(set.bare.rps, 1)) * 1000) / 1000,
      })),
    },
    reference,
  )
  return held
})
