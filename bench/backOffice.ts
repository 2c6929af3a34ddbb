/**
 * The back office's list at 100,000 returns (issue "The back office", docs/back-office.md): the
 * demo shop with 100,000 generated returns in PGlite, the compiled server as shipped, a staff
 * session, and a short autocannon run on loopback for each kind of page staff ask for: the first
 * page, a page 50,000 returns deep (by its cursor), a search by e-mail, by order name, a state
 * filter, a reason filter, the CSV export of one shopper's returns, one return, the insights of
 * the last 30 days (some 43,000 of the returns), the review queue (1,000 waiting) and receiving by a
 * typed number or a scanned code (docs/lifecycle.md), and the search by part of a word (decision
 * 0084). Budget: a page of the list answers within 50 ms at p99.
 * Prints a table, merges the figures into bench/results.json, exits 1 when a budget is missed.
 *   npx tsx bench/backOffice.ts [seconds per call, default 5] [returns, default 100000] [pglite|postgres]
 * On postgres, the server of TEST_DATABASE_URL (scripts/postgres.sh) in a database of its own.
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
import { openPglite, openPostgres, type Database } from '../server/src/storage/database'
import { migrate } from '../server/src/storage/migrations'
import { addStaff } from '../server/src/storage/staff'
import { dropOffCodeSql } from '../server/src/storage/inspections'
import { encodeCursor } from '../server/src/storage/staffReturns'
import { REASONS, returnOrder } from './generatedReturns'
import { machineLoad, startServer, stop } from './server'

const seconds = Number(process.argv[2] ?? 5)
const RETURNS = Number(process.argv[3] ?? 100_000)
const ENGINE = process.argv[4] === 'postgres' ? 'postgres' : 'pglite'
const BUDGET = { pageP99Ms: 50 }
const CONNECTIONS = 10
const PASSWORD = 'bench-staff-password'

/**
 * The demo shops, and `count` orders of one tee each with a return of it, one a minute back from
 * now, in four states and four reasons, by 20,000 shoppers (five returns each).
 */
async function generate(open: () => Promise<Database>): Promise<{ deepCursor: string; returnId: string }> {
  const db = await open()
  try {
    await migrate(db)
    await seedDemoShops(db)
    await addStaff(db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), new Date())
    // Loaded with triggers off (a superuser's session_replication_role), then each return's search
    // text written once, as migration 19's triggers would have (decision 0084).
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica')
      await tx.query(
        `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, fulfilled_at, line_items, shipping_address)
         SELECT 'bench-o-' || g, 'demo', '#B' || g, 'B' || g, 'shopper' || (g % 20000) || '@example.com',
                now() - interval '20 days', now() - interval '18 days',
                jsonb_build_array(jsonb_build_object('id', 'bench-l-' || g, 'variant_id', 'tee-m', 'quantity', 1,
                                                     'price', '25.00', 'tax_rate', '0.19')),
                jsonb_build_object('name', (ARRAY['Jane', 'Jérôme', 'Ana', 'Björn', 'Li'])[1 + g % 5] || ' Shopper' || (g % 20000))
           FROM generate_series(1, $1::int) AS g`,
        [RETURNS],
      )
      // One return in a hundred waits for review (docs/lifecycle.md); each has its drop-off code, as
      // insertReturn and migration 11 give them.
      await tx.query(
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
      )
      await tx.query(
        `INSERT INTO return_items (return_id, order_id, line_item_id, quantity)
         SELECT 'bench-r-' || g, 'bench-o-' || g, 'bench-l-' || g, 1 FROM generate_series(1, $1::int) AS g`,
        [RETURNS],
      )
      await tx.query('UPDATE returns SET search_text = return_search_text(id)')
    })
    await db.exec('ANALYZE')
    const [deep] = await db.query<{ id: string; created_at: Date }>(
      'SELECT id, created_at FROM returns WHERE shop_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1',
      ['demo', Math.floor(RETURNS / 2)],
    )
    return {
      deepCursor: encodeCursor({ at: new Date(deep!.created_at).toISOString(), id: deep!.id }),
      returnId: 'bench-r-12345',
    }
  } finally {
    await db.close()
  }
}

/** A call: its name, its path, its p99 budget in ms, and how many connections ask at once. */
type Call = [string, string, number | null, number?]

interface Row {
  call: string
  rps: number
  p50: number
  p99: number
  errors: number
  budget: number | null
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
  let server: ChildProcess | null = null
  try {
    const started = performance.now()
    let databaseUrl: string | null = null
    if (ENGINE === 'postgres') {
      const admin = await openPostgres(process.env.TEST_DATABASE_URL!, 1)
      try {
        await admin.query('DROP DATABASE IF EXISTS rebound_bench_office_search')
        await admin.query('CREATE DATABASE rebound_bench_office_search')
      } finally {
        await admin.close()
      }
      const url = new URL(process.env.TEST_DATABASE_URL!)
      url.pathname = '/rebound_bench_office_search'
      databaseUrl = url.toString()
    }
    const { deepCursor, returnId } = await generate(() =>
      databaseUrl ? openPostgres(databaseUrl, 2) : openPglite(dataDir),
    )
    console.log(`${RETURNS.toLocaleString('en')} returns generated in ${Math.round(performance.now() - started)} ms`)
    const port = 18_480
    server = await startServer(port, databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir })
    const cookie = await signIn(port)
    const calls: Call[] = [
      ['list: first page', '/admin/api/returns', BUDGET.pageP99Ms],
      ['list: a page 50,000 deep', `/admin/api/returns?after=${deepCursor}`, BUDGET.pageP99Ms],
      ['list: search by e-mail', '/admin/api/returns?q=shopper777%40example.com', BUDGET.pageP99Ms],
      ['list: search by order name', '/admin/api/returns?q=B54321', BUDGET.pageP99Ms],
      // The search by part of a word (decision 0084): trigram index, folded text.
      ['search: part of an e-mail', '/admin/api/returns?q=shopper777', BUDGET.pageP99Ms],
      ["search: a shopper's name, accents off", '/admin/api/returns?q=bjorn', BUDGET.pageP99Ms],
      ['search: a product title', '/admin/api/returns?q=tee', BUDGET.pageP99Ms],
      ['search: part of an order number', '/admin/api/returns?q=B5432', BUDGET.pageP99Ms],
      ['search: two words', '/admin/api/returns?q=jane%20shopper1234', BUDGET.pageP99Ms],
      ['search: nothing matches', '/admin/api/returns?q=zqxjw', BUDGET.pageP99Ms],
      ['search, by amount', '/admin/api/returns?q=shopper777&sort=amount_desc', BUDGET.pageP99Ms],
      ['view: to refund', '/admin/api/returns?view=to_refund', BUDGET.pageP99Ms],
      ['view: to receive, oldest first', '/admin/api/returns?view=to_receive&sort=oldest', BUDGET.pageP99Ms],
      ['sort: by amount', '/admin/api/returns?sort=amount_desc', BUDGET.pageP99Ms],
      ['list: state filter', '/admin/api/returns?state=received', BUDGET.pageP99Ms],
      ['list: reason filter', '/admin/api/returns?reason=damaged', BUDGET.pageP99Ms],
      ['list: state and reason', '/admin/api/returns?state=refunded&reason=wrong_item', BUDGET.pageP99Ms],
      ['one return', `/admin/api/returns/${returnId}`, null],
      // The queue is its own screen, not a page of the list: measured, without the list's budget.
      ['review queue: the 25 oldest waiting', '/admin/api/reviews', null],
      ['list: waiting for review', '/admin/api/returns?review=pending', BUDGET.pageP99Ms],
      ['receive: a typed return number', '/admin/api/receive?code=%23B54321-R1', BUDGET.pageP99Ms],
      ['receive: a scanned drop-off code', `/admin/api/receive?code=${qrCodeValue('bench-r-54321')}`, BUDGET.pageP99Ms],
      ["CSV of one shopper's returns", '/admin/api/returns.csv?q=shopper777%40example.com', null],
      // A report, read by one person at a time: one connection.
      ['insights: the last 30 days', '/admin/api/insights', null, 1],
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
      `\nThe back office with ${RETURNS.toLocaleString('en')} returns (${ENGINE === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${CONNECTIONS} connections, ${seconds} s each)\n`,
    )
    console.log(
      `${'call'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'budget'.padStart(8)}  ok`,
    )
    for (const row of rows) {
      const ok = row.errors === 0 && (row.budget === null || row.p99 <= row.budget)
      held &&= ok
      console.log(
        `${row.call.padEnd(44)} ${String(row.rps).padStart(8)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${(row.budget === null ? '—' : `≤ ${row.budget}`).padStart(8)}  ${ok ? 'yes' : row.errors ? `${row.errors} errors` : 'MISSED'}`,
      )
    }
    // The load before and after: other work on the machine inflates p99 first.
    const load2 = machineLoad()
    console.log(`\nLoad average: ${load1.loadAverage} before, ${load2.loadAverage} after, on ${load2.cores} cores.`)
    printReference(reference)
    saveResults(
      'backOffice',
      {
        returns: RETURNS,
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
    if (ENGINE === 'postgres') {
      const admin = await openPostgres(process.env.TEST_DATABASE_URL!, 1)
      await admin.query('DROP DATABASE IF EXISTS rebound_bench_office_search').finally(() => admin.close())
    }
  }
})
