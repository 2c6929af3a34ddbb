/**
 * What verify's statements cost PostgreSQL itself (docs/decisions/0092-two-limits-one-statement.md):
 * on one connection to a fresh schema, 4,000 verifies' statements in turn, the backend's own CPU
 * read from /proc (PostgreSQL on this machine), which other load inflates far less than a clock.
 * The statements of decision 0092's day (two counter upserts and the order's lookup, each
 * unnamed) against the one statement, prepared, of one verify and of 50 verifies counted together
 * (docs/decisions/0103-verify-limits-batched.md). Needs TEST_DATABASE_URL (scripts/postgres.sh).
 *   npx tsx bench/verifyStatements.ts
 */
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { openPostgres } from '../server/src/storage/database'
import { migrate } from '../server/src/storage/migrations'
import { FOUND_COLUMNS } from '../server/src/storage/orders'
import { HIT, HIT_BATCH } from '../server/src/storage/rateLimits'

const CALLS = 4_000
const ROUNDS = 4
const FIND = `SELECT ${FOUND_COLUMNS} FROM orders WHERE shop_id = $1 AND name_key = $2`

/** CPU (ms) process `pid` has used, user and system, from /proc (ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set (scripts/postgres.sh)')
  // A schema of its own on the server, dropped after.
  const name = `bench_statements_${process.pid}`
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${name}`)
  const url = new URL(process.env.TEST_DATABASE_URL)
  url.searchParams.set('options', `-c search_path=${name}`)
  const client = new pg.Client({ connectionString: url.toString() })
  try {
    const db = await openPostgres(url.toString(), 1)
    await migrate(db)
    await db.close()
    await client.connect()
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    const pid = rows[0]!.pid
    // HIT_BATCH's requests, the verifies k, k + 1, … (`count` of them).
    const batch = (tag: string, k: number, count: number) => [
      JSON.stringify(
        Array.from({ length: count }, (_, i) => ({
          first_key: `verify-client:${tag}${(k + i) % 50}`,
          first_window: 60_000,
          first_max: 1_000_000,
          second_key: `verify-order:order:demo:${tag}${k + i}`,
          second_window: 60_000,
          shop_id: 'demo',
          name_key: `${tag}${k + i}`,
        })),
      ),
    ]
    const variants: Record<string, (k: number) => Promise<unknown>> = {
      'three statements (before)': async (k) => {
        await client.query(HIT, [`verify-client:a${k % 50}`, 60_000])
        await client.query(HIT, [`verify-order:order:demo:a${k}`, 60_000])
        await client.query(FIND, ['demo', `a${k}`])
      },
      'one statement a verify': (k) => client.query({ name: 'hit-one', text: HIT_BATCH, values: batch('b', k, 1) }),
      // A 50th of a statement of 50 verifies, so that every variant runs CALLS verifies.
      'one statement for 50': (k) =>
        k % 50 === 0
          ? client.query({ name: 'hit-batch', text: HIT_BATCH, values: batch('c', k, 50) })
          : Promise.resolve(),
    }
    const totals = new Map<string, { cpu: number; wall: number }>()
    // In turns, so that the machine's load meets each alike.
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, run] of Object.entries(variants)) {
        const [cpu, wall] = [cpuMs(pid), performance.now()]
        for (let i = 0; i < CALLS / ROUNDS; i++) await run(round * 100_000 + i)
        const total = totals.get(name) ?? { cpu: 0, wall: 0 }
        totals.set(name, { cpu: total.cpu + cpuMs(pid) - cpu, wall: total.wall + performance.now() - wall })
      }
    for (const [name, { cpu, wall }] of totals)
      console.log(
        `${name.padEnd(28)} backend CPU ${Math.round((cpu * 1000) / CALLS)} µs a verify, wall ${Math.round((wall * 1000) / CALLS)} µs`,
      )
  } finally {
    await client.end().catch(() => {})
    await admin.query(`DROP SCHEMA ${name} CASCADE`)
    await admin.end()
  }
}

void main()
