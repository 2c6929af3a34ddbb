/**
 * One PostgreSQL dialect on two engines: PGlite (embedded, a data directory, nothing to install)
 * and a PostgreSQL server named by DATABASE_URL (production, many API replicas).
 */
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres'
  /**
   * Whether this process is the only one that reads and writes the data (the embedded PGlite
   * directory, claimed by one process), so that what it read stays true until it writes.
   */
  readonly exclusive: boolean
  /**
   * Grows with every statement or transaction of this process that may write (all but SELECTs).
   * A function, so that a wrapper made by spreading a database (`{ ...db }`) still reads it live.
   */
  writeCount(): number
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Raised when the database cannot be reached; the API answers 503 for it. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause })
    this.name = 'DatabaseUnavailableError'
  }
}

/** Embedded PostgreSQL in `dataDir` (created when missing), or in memory without one. */
/** A statement that cannot write: one SELECT, not locking rows, and no second statement. */
const READ_ONLY = /^\s*SELECT\b(?![\s\S]*(?:\bFOR\s+(?:NO\s+KEY\s+)?UPDATE\b|\bFOR\s+SHARE\b|;\s*\S))/i

export async function openPglite(dataDir?: string): Promise<Database> {
  const db = await PGlite.create(dataDir)
  let writes = 0
  // Counted before the statement runs and again when it is done: a read that began before a
  // write, or while one ran, is never taken for a read made after it.
  const writing = async <T>(sql: string | null, run: () => Promise<T>): Promise<T> => {
    if (sql !== null && READ_ONLY.test(sql)) return run()
    writes++
    try {
      return await run()
    } finally {
      writes++
    }
  }
  const on = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: <Row>(sql: string, params?: unknown[]) =>
      writing(sql, async () => (await target.query<Row>(sql, params)).rows),
    exec: (sql: string) => writing(sql, async () => void (await target.exec(sql))),
  })
  // PGlite runs one statement or transaction at a time, first come first served, and a transaction
  // holds it through its own JavaScript between statements. Transactions take turns here, so at
  // most one waits in PGlite's queue: a statement on its own (the console's list, verify's read)
  // waits for the transaction running, not for every submit queued behind it (docs/performance.md).
  let turn: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const result = turn.then(run)
    turn = result.catch(() => {})
    return result
  }
  return {
    engine: 'pglite',
    exclusive: true,
    writeCount: () => writes,
    ...on(db),
    transaction: (work) => writing(null, () => inTurn(() => db.transaction((tx) => work(on(tx))))),
    close: () => db.close(),
  }
}

// Connection failures (refused, reset, timed out, server shutting down): the database is away.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08004',
])

function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : ''
  if (
    (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) ||
    /timeout exceeded when trying to connect|Connection terminated|encountered a connection error/i.test(message)
  ) {
    return new DatabaseUnavailableError(error)
  }
  return error
}

/** A pool of connections to a PostgreSQL server; fails fast (2 s) when the server is away. */
export function openPostgres(connectionString: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
  })
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  const query = async <Row>(sql: string, params?: unknown[]) => {
    try {
      return (await pool.query(sql, params)).rows as Row[]
    } catch (error) {
      throw translate(error)
    }
  }
  return Promise.resolve({
    engine: 'postgres',
    // Other replicas write to the same server: nothing read here stays true by itself.
    exclusive: false,
    writeCount: () => 0,
    query,
    exec: async (sql) => void (await query(sql)),
    async transaction(work) {
      let client: pg.PoolClient
      try {
        client = await pool.connect()
      } catch (error) {
        throw translate(error)
      }
      // A client out of the pool has no listener of the pool's: the server going away in the
      // middle of a transaction emits 'error' on it, which would end the process. It is heard
      // here, and a client whose connection failed is destroyed on release, never handed on.
      let lost = false
      const onError = () => {
        lost = true
      }
      client.on('error', onError)
      let broken = false
      try {
        await client.query('BEGIN')
        const result = await work({
          query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
          exec: async (sql) => void (await client.query(sql)),
        })
        await client.query('COMMIT')
        return result
      } catch (error) {
        // Once its connection failed, whatever the client says next is that failure.
        const translated = lost ? new DatabaseUnavailableError(error) : translate(error)
        broken = translated instanceof DatabaseUnavailableError
        if (!broken) await client.query('ROLLBACK').catch(() => {})
        throw translated
      } finally {
        client.off('error', onError)
        client.release(broken || lost)
      }
    },
    close: () => pool.end(),
  })
}

/** DATABASE_URL when set, else PGlite in DATA_DIR. */
export function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir)
}
