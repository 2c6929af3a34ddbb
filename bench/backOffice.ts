/**
 * The back office's list at 100,000 returns (docs/back-office.md) or a
 * million: the demo shop with generated returns in PGlite or (`postgres`, with BENCH_DATABASE_URL
 * or TEST_DATABASE_URL naming a server) a PostgreSQL database of its own, the compiled server as
 * shipped, a staff
 * session, and a short autocannon run on loopback for each kind of page staff ask for: the first
 * page, a page 50,000 returns deep (by its cursor), a search by e-mail, by order name, a state
 * filter, a reason filter, the CSV export of one shopper's returns, one return, the insights of
 * the last 30 days (some 43,000 of the returns) and of 365 days, the review queue (1% waiting) and
 * receiving by a typed number or a scanned code (docs/lifecycle.md), the search by part of a word,
 * the views and the sorts (decision 0084). Budgets: a page of the list and
 * one return answer within 50 ms at p99, a search within 100 ms at p99, the insights within 100
 * ms at p50.
 * Prints a table, merges the figures into bench/results.json, exits 1 when a budget is missed.
 *   npx tsx bench/backOffice.ts [seconds per call, default 5] [returns, default 100000] [pglite|postgres]
 * On PostgreSQL, BENCH_KEEP_DATABASE=<name> keeps the generated database under that name and
 * reuses it when it already holds as many returns (a million take a quarter of an hour to
 * generate), to run the bench again or EXPLAIN its statements; 0 seconds generates and stops.
 */
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import autocannon from 'autocannon'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { qrCodeValue } from '../server/src/domain/label'
import { hashPassword } from '../server/src/domain/passwords'
import { seedDemoShops } from '../server/src/import/demoShops'
import pg from 'pg'
import { openDatabase, type Database, type Queryable } from '../server/src/storage/database'
import { migrate } from '../server/src/storage/migrations'
import { addStaff } from '../server/src/storage/staff'
import { dropOffCodeSql } from '../server/src/storage/inspections'
import { encodeCursor } from '../server/src/storage/staffReturns'
import { REASONS, returnOrder } from './generatedReturns'
import { machineLoad, startServer, stop } from './server'

const seconds = Number(process.argv[2] ?? 5)
const RETURNS = Number(process.argv[3] ?? 100_000)
const ENGINE = process.argv[4] === 'postgres' ? 'PostgreSQL' : 'PGlite'
const BUDGET = { pageP99Ms: 50, searchP99Ms: 100, returnP99Ms: 50, insightsP50Ms: 100 }
const CONNECTIONS = 10
const PASSWORD = 'bench-staff-password'

/** How long each step of the generation took, ms. */
const generation: Record<string, number> = {}
async function timed<T>(step: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await run()
  } finally {
    generation[step] = Math.round(performance.now() - started)
  }
}

/**
 * Runs `load` in one transaction; on PostgreSQL as its manual's "Populating a Database" advises:
 * the tables' secondary indexes dropped first and built again after (one sort each rather than a
 * million insertions in key order), and, for a superuser, the foreign keys' row-by-row checks off
 * for the transaction (session_replication_role; the rows are consistent by construction).
 */
async function bulkLoad(db: Database, tables: string[], load: (tx: Queryable) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    // Triggers off (migration 19's search text is written once after the load, below): PGlite's
    // one user is a superuser.
    if (db.engine !== 'postgres') {
      await tx.query('SET LOCAL session_replication_role = replica')
      return load(tx)
    }
    const [role] = await tx.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')
    if (role?.rolsuper) await tx.query('SET LOCAL session_replication_role = replica')
    await tx.query("SET LOCAL maintenance_work_mem = '256MB'")
    const indexes = await tx.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition
         FROM pg_indexes i JOIN pg_class x ON x.relname = i.indexname AND x.relnamespace = current_schema()::regnamespace
        WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.oid)`,
      [tables],
    )
    for (const { name } of indexes) await tx.query(`DROP INDEX "${name}"`)
    await load(tx)
    await timed('indexes', async () => {
      for (const { definition } of indexes) await tx.query(definition)
    })
  })
}

/**
 * The demo shops, and `count` orders of one tee each with a return of it, one a minute back from
 * now, in four states and four reasons, by 20,000 shoppers (five returns each). Each table is one
 * INSERT … SELECT over generate_series: the rows are made by the database server itself, with no
 * round trip per row (faster than COPY, which would send them).
 */
async function generate(where: {
  dataDir?: string
  databaseUrl?: string
}): Promise<{ deepCursor: string; returnId: string }> {
  const db = await openDatabase(where)
  try {
    await migrate(db)
    await seedDemoShops(db)
    await addStaff(db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), new Date())
    await bulkLoad(db, ['orders', 'returns', 'return_items', 'insight_parts'], async (tx) => {
      await timed('orders', () =>
        tx.query(
          `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, fulfilled_at, line_items, shipping_address)
       SELECT 'bench-o-' || g, 'demo', '#B' || g, 'B' || g, 'shopper' || (g % 20000) || '@example.com',
              now() - interval '20 days', now() - interval '18 days',
              jsonb_build_array(jsonb_build_object('id', 'bench-l-' || g, 'variant_id', 'tee-m', 'quantity', 1,
                                                   'price', '25.00', 'tax_rate', '0.19')),
              jsonb_build_object('name', (ARRAY['Jane', 'Jérôme', 'Ana', 'Björn', 'Li'])[1 + g % 5] || ' Shopper' || (g % 20000))
         FROM generate_series(1, $1::int) AS g`,
          [RETURNS],
        ),
      )
      // One return in a hundred waits for review (docs/lifecycle.md); each has its drop-off code, as
      // insertReturn and migration 11 give them.
      await timed('returns', () =>
        tx.query(
          `INSERT INTO returns (id, order_id, shop_id, number, name, return_order, created_at, state,
                            review, review_flags, review_answer_by, drop_off_code)
       SELECT 'bench-r-' || g, 'bench-o-' || g, 'demo', 1, '#B' || g || '-R1',
              (ARRAY[$2::jsonb, $3::jsonb, $4::jsonb, $5::jsonb])[1 + g % 4],
              now() - make_interval(mins => g),
              (ARRAY['requested', 'in_transit', 'received', 'refunded'])[1 + (g / 7) % 4],
              CASE WHEN g % 100 = 0 THEN 'pending' END,
              CASE WHEN g % 100 = 0 THEN $6::jsonb END,
              CASE WHEN g % 100 = 0 THEN to_char(now() + interval '2 days', 'YYYY-MM-DD') END,
              ${dropOffCodeSql("'bench-r-' || g")}
         FROM generate_series(1, $1::int) AS g`,
          [
            RETURNS,
            ...REASONS.map((reason) => JSON.stringify(returnOrder(reason))),
            JSON.stringify([{ rule: 'over_amount', message: 'Worth €250.00, over the €200.00 that needs review' }]),
          ],
        ),
      )
      await timed('return items', () =>
        tx.query(
          `INSERT INTO return_items (return_id, order_id, line_item_id, quantity)
       SELECT 'bench-r-' || g, 'bench-o-' || g, 'bench-l-' || g, 1 FROM generate_series(1, $1::int) AS g`,
          [RETURNS],
        ),
      )
      // Each return's search text written once, as migration 19's triggers would have (decision 0084).
      await timed('search text', () => tx.query('UPDATE returns SET search_text = return_search_text(id)'))
      // The insights' tallies recomputed from the rows, as migration 22's triggers would have kept
      // them (decision 0087).
      await timed('insight tallies', () =>
        tx.exec(`DELETE FROM insight_parts; DELETE FROM insight_days;
          INSERT INTO insight_parts SELECT p.* FROM returns r, return_insight_parts(r.id) p;
          INSERT INTO insight_days (shop_id, day, kind, key, label, count, value)
          SELECT shop_id, day, kind, key, label, SUM(count), SUM(value) FROM insight_parts
           GROUP BY shop_id, day, kind, key, label`),
      )
      // The views' tallies likewise, as migration 26's triggers would have kept them (decision 0100).
      await timed('view tallies', () =>
        tx.exec(`DELETE FROM return_view_tallies;
          INSERT INTO return_view_tallies (shop_id, state, review, n)
          SELECT shop_id, state, COALESCE(review, ''), count(*) FROM returns GROUP BY 1, 2, 3`),
      )
    })
    // The load rewrote every row (its search text): vacuumed, the server's first reads need not
    // set the rows' hint bits, and the planner knows the tables.
    await timed('vacuum analyze', () => db.exec('VACUUM ANALYZE'))
    return await deepAndOne(db)
  } finally {
    await db.close()
  }
}

/** A budget: the p99 (or the p50) within this many ms. */
type Budget = number | { p50: number } | null
/** A call: its name, its path, its budget, and how many connections ask at once. */
type Call = [string, string, Budget, number?]

interface Row {
  call: string
  rps: number
  p50: number
  p99: number
  errors: number
  budget: Budget
}

const withinBudget = (row: Row) =>
  row.budget === null || (typeof row.budget === 'number' ? row.p99 <= row.budget : row.p50 <= row.budget.p50)
const budgetText = (budget: Budget) =>
  budget === null ? '—' : typeof budget === 'number' ? `p99 ≤ ${budget}` : `p50 ≤ ${budget.p50}`

/** YYYY-MM-DD of `days` days before today (UTC), the insights' `from` for a period of days+1. */
const daysBack = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)

/**
 * The list's searches. Searching and sorting the list at a million returns has pages of its own
 * (docs/back-office.md): add them here, and they are measured with the list's budget.
 */
/** A return every size generates: its order's name is #B<n>, its number #B<n>-R1. */
const SOME = Math.min(54_321, RETURNS)

const SEARCH_CALLS: Call[] = [
  ['list: search by e-mail', '/admin/api/returns?q=shopper777%40example.com', BUDGET.searchP99Ms],
  ['list: search by order name', `/admin/api/returns?q=B${SOME}`, BUDGET.searchP99Ms],
  // The search by part of a word (decision 0084): trigram index, folded text.
  ['search: part of an e-mail', '/admin/api/returns?q=shopper777', BUDGET.searchP99Ms],
  ["search: a shopper's name, accents off", '/admin/api/returns?q=bjorn', BUDGET.searchP99Ms],
  ['search: a product title', '/admin/api/returns?q=tee', BUDGET.searchP99Ms],
  ['search: part of an order number', `/admin/api/returns?q=B${String(SOME).slice(0, -1)}`, BUDGET.searchP99Ms],
  ['search: two words', '/admin/api/returns?q=jane%20shopper1234', BUDGET.searchP99Ms],
  ['search: nothing matches', '/admin/api/returns?q=zqxjw', BUDGET.searchP99Ms],
  ['search, by amount', '/admin/api/returns?q=shopper777&sort=amount_desc', BUDGET.searchP99Ms],
  ['view: to refund', '/admin/api/returns?view=to_refund', BUDGET.pageP99Ms],
  ['view: to receive, oldest first', '/admin/api/returns?view=to_receive&sort=oldest', BUDGET.pageP99Ms],
  ['sort: by amount', '/admin/api/returns?sort=amount_desc', BUDGET.pageP99Ms],
]

/**
 * A PostgreSQL database of its own for the run, dropped after it; or, named by
 * BENCH_KEEP_DATABASE, kept, and reused (`generated`) when it holds the run's number of returns.
 */
async function postgresDatabase(url: string): Promise<{ url: string; generated: boolean; drop: () => Promise<void> }> {
  const kept = process.env.BENCH_KEEP_DATABASE
  if (kept !== undefined && !/^[a-z_][a-z0-9_]*$/.test(kept)) throw new Error('BENCH_KEEP_DATABASE: a lower-case name')
  // Named by this process, so that another run on the same server (another worktree's) cannot drop it.
  const name = kept ?? `rebound_bench_office_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  const own = new URL(url)
  own.pathname = `/${name}`
  const generated = kept !== undefined && (await returnsIn(admin, name, own.toString())) === RETURNS
  if (!generated) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
  }
  return {
    url: own.toString(),
    generated,
    drop: async () => {
      if (kept === undefined) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
      await admin.end()
    },
  }
}

/** How many returns the kept database `name` holds, null when it is missing or not the bench's. */
async function returnsIn(admin: pg.Client, name: string, url: string): Promise<number | null> {
  const [exists] = (
    await admin.query<{ found: number }>('SELECT 1 AS found FROM pg_database WHERE datname = $1', [name])
  ).rows
  if (!exists) return null
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    const { rows } = await db.query<{ count: string }>("SELECT count(*) FROM returns WHERE id LIKE 'bench-r-%'")
    return Number(rows[0]!.count)
  } catch {
    return null
  } finally {
    await db.end()
  }
}

/** The deep page's cursor and the return measured, of a database generated before. */
async function generatedBefore(databaseUrl: string): Promise<{ deepCursor: string; returnId: string }> {
  const db = await openDatabase({ databaseUrl })
  try {
    // The server migrates it on start: a migration newer than the database is measured too.
    return await deepAndOne(db)
  } finally {
    await db.close()
  }
}

async function deepAndOne(db: Database): Promise<{ deepCursor: string; returnId: string }> {
  const [deep] = await db.query<{ id: string; created_at: Date }>(
    'SELECT id, created_at FROM returns WHERE shop_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1',
    ['demo', Math.floor(RETURNS / 2)],
  )
  return {
    deepCursor: encodeCursor({ at: new Date(deep!.created_at).toISOString(), id: deep!.id }),
    returnId: `bench-r-${Math.min(12_345, RETURNS)}`,
  }
}

async function signIn(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/admin/api/session`, {
    method: 'POST',
    // An address for a host: the console works on the staff member's first shop, demo.
    headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'staff@demo.example', password: PASSWORD }),
  })
  const cookie = response.headers.get('set-cookie')?.split(';')[0]
  if (!response.ok || !cookie) throw new Error(`sign-in: ${response.status} ${await response.text()}`)
  return cookie
}

async function load(port: number, cookie: string, [call, path, budget, connections = CONNECTIONS]: Call): Promise<Row> {
  // A second of the same call first: the server's first answers compile its serialiser and plan
  // its queries, which a shop's server has done long before.
  await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers: { cookie }, connections, duration: 1 })
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { cookie },
    connections,
    duration: seconds,
  })
  return {
    call: connections === CONNECTIONS ? call : `${call} (${connections} connection${connections > 1 ? 's' : ''})`,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    budget,
  }
}

runBenchmark('Back office at scale', async () => {
  const load1 = machineLoad()
  if (load1.busy) console.warn(`Warning: ${load1.note}; the figures below are not a quiet machine's.`)
  const reference = await measureReference()
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-office-'))
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (ENGINE === 'PostgreSQL' && !databaseUrl) throw new Error('postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL')
  const own = ENGINE === 'PostgreSQL' ? await postgresDatabase(databaseUrl!) : null
  let server: ChildProcess | null = null
  try {
    const where = own ? { databaseUrl: own.url } : { dataDir }
    const started = performance.now()
    const { deepCursor, returnId } = own?.generated ? await generatedBefore(own.url) : await generate(where)
    const generatedMs = Math.round(performance.now() - started)
    console.log(
      own?.generated
        ? `${RETURNS.toLocaleString('en')} returns of the kept database ${process.env.BENCH_KEEP_DATABASE}`
        : `${RETURNS.toLocaleString('en')} returns generated on ${ENGINE} in ${(generatedMs / 1000).toFixed(1)} s (${Object.entries(
            generation,
          )
            .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
            .join(', ')})`,
    )
    if (seconds === 0) return true
    const port = 18_480
    server = await startServer(port, own ? { DATABASE_URL: own.url } : { DATA_DIR: dataDir })
    const cookie = await signIn(port)
    const calls: Call[] = [
      ['list: first page', '/admin/api/returns', BUDGET.pageP99Ms],
      // Every view's count, under no search (decision 0089): the shop's every return, read once.
      ['view counts: every view at once', '/admin/api/return-counts', null],
      ['view counts: under a search', '/admin/api/return-counts?q=tee', null],
      [
        `list: a page ${Math.floor(RETURNS / 2).toLocaleString('en')} deep`,
        `/admin/api/returns?after=${deepCursor}`,
        BUDGET.pageP99Ms,
      ],
      ...SEARCH_CALLS,
      ['list: state filter', '/admin/api/returns?state=received', BUDGET.pageP99Ms],
      ['list: reason filter', '/admin/api/returns?reason=damaged', BUDGET.pageP99Ms],
      ['list: state and reason', '/admin/api/returns?state=refunded&reason=wrong_item', BUDGET.pageP99Ms],
      ['one return', `/admin/api/returns/${returnId}`, BUDGET.returnP99Ms],
      // The queue is its own screen, not a page of the list: measured, without the list's budget.
      ['review queue: the 25 oldest waiting', '/admin/api/reviews', null],
      ['list: waiting for review', '/admin/api/returns?review=pending', BUDGET.pageP99Ms],
      ['receive: a typed return number', `/admin/api/receive?code=%23B${SOME}-R1`, BUDGET.pageP99Ms],
      [
        'receive: a scanned drop-off code',
        `/admin/api/receive?code=${qrCodeValue(`bench-r-${SOME}`)}`,
        BUDGET.pageP99Ms,
      ],
      ["CSV of one shopper's returns", '/admin/api/returns.csv?q=shopper777%40example.com', null],
      // A report, read by one person at a time: one connection.
      ['insights: the last 30 days', '/admin/api/insights', { p50: BUDGET.insightsP50Ms }, 1],
      ['insights: the last 365 days', `/admin/api/insights?from=${daysBack(364)}`, { p50: BUDGET.insightsP50Ms }, 1],
    ]
    // A server just started answers its first seconds of calls at about half speed, while V8
    // still optimises its code and PGlite's WebAssembly; a shop's server did that long before.
    // Every call once for a second, then each measured after its own second.
    for (const [, path, , connections = CONNECTIONS] of calls)
      await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers: { cookie }, connections, duration: 1 })
    const rows: Row[] = []
    for (const call of calls) rows.push(await load(port, cookie, call))

    let held = true
    console.log(
      `\nThe back office with ${RETURNS.toLocaleString('en')} returns (${ENGINE}, ${CONNECTIONS} connections, ${seconds} s each)\n`,
    )
    console.log(
      `${'call'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'budget'.padStart(10)}  ok`,
    )
    for (const row of rows) {
      const ok = row.errors === 0 && row.rps > 0 && withinBudget(row)
      held &&= ok
      console.log(
        `${row.call.padEnd(44)} ${String(row.rps).padStart(8)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${budgetText(row.budget).padStart(10)}  ${ok ? 'yes' : row.errors ? `${row.errors} errors` : row.rps === 0 ? 'NO ANSWER' : 'MISSED'}`,
      )
    }
    // The load before and after: other work on the machine inflates p99 first.
    const load2 = machineLoad()
    console.log(`\nLoad average: ${load1.loadAverage} before, ${load2.loadAverage} after, on ${load2.cores} cores.`)
    printReference(reference)
    saveResults(
      ENGINE === 'PGlite' && RETURNS === 100_000 ? 'backOffice' : `backOffice-${ENGINE}-${RETURNS}`,
      {
        engine: ENGINE,
        returns: RETURNS,
        // A kept database's generation was another run's.
        ...(own?.generated ? { keptDatabase: process.env.BENCH_KEEP_DATABASE } : { generatedMs, generation }),
        connections: CONNECTIONS,
        seconds,
        rows,
        machine: load1.note,
        loadAfter: load2.loadAverage,
      },
      reference,
    )
    return held
  } finally {
    if (server) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
    await own?.drop()
  }
})
