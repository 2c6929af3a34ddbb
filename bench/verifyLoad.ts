/**
 * The verify load of bench/verifyReplicas.ts and bench/verifyProfile.ts: 50 clients, every request
 * another shopper's order (#S1…#S5000 of bench/consoleSeed.ts), each client its own orders.
 */
import pg from 'pg'
import { seedHistory } from './consoleSeed'
import type { Call } from './fromAddresses'

export const CLIENTS = 50
/** The orders the load verifies, in turn: #S1…#S5000. */
export const LOAD_ORDERS = 5_000

export const verify = (order: number): Call => ({
  method: 'POST',
  path: '/portal-registration/verify',
  body: JSON.stringify({
    order_name: `#S${order}`,
    email: `submitter${order}@example.com`,
    shop: 'demo',
    portal_id: 'portal-demo',
  }),
})

/** Client c's n-th request: the orders c+1, c+51, c+101… in turn, each client its own. */
export const nextVerify = (client: number, n: number) => verify(1 + ((client + n * CLIENTS) % LOAD_ORDERS))

/** The same load at the bare route (bench/bareFastify.ts). */
export const bareCall = (client: number, n: number): Call => ({ ...nextVerify(client, n), path: '/bare' })

/**
 * Runs `use` on a PostgreSQL database of its own (`<prefix>_<pid>`, on the server of
 * BENCH_DATABASE_URL or TEST_DATABASE_URL) holding the orders the load verifies; drops it after.
 * `admin` is a connection to that server, outside the database.
 */
export async function withLoadDatabase<T>(
  prefix: string,
  use: (database: { url: string; name: string; admin: pg.Client }) => Promise<T>,
): Promise<T> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!databaseUrl) throw new Error('No PostgreSQL server named (BENCH_DATABASE_URL or TEST_DATABASE_URL)')
  const name = `${prefix}_${process.pid}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
    const own = new URL(databaseUrl)
    own.pathname = `/${name}`
    await seedHistory({ databaseUrl: own.toString() }, 0)
    return await use({ url: own.toString(), name, admin })
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
    await admin.end()
  }
}
