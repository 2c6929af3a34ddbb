/**
 * One PostgreSQL dialect on two engines: PGlite (embedded, a data directory, nothing to install)
 * and a PostgreSQL server named by DATABASE_URL (production, many API replicas).
 */
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import pg from 'pg'
import { DatabaseUnavailableError } from './unavailable'

export interface Queryable {
  /**
   * `prepared`: a name for the statement, which a PostgreSQL connection then parses and plans once
   * and runs by name after (for a hot path's statement; one name, one text). PGlite ignores it.
   */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[], prepared?: string): Promise<Row[]>
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

/** A statement that cannot write: one SELECT, not locking rows, and no second statement. */
const READ_ONLY = /^\s*SELECT\b(?![\s\S]*(?:\bFOR\s+(?:NO\s+KEY\s+)?UPDATE\b|\bFOR\s+SHARE\b|;\s*\S))/i

interface Reply {
  id: number
  rows?: unknown[]
  tx?: number
  /** a fresh cluster's files, from a thread started with makeTemplate */
  template?: Uint8Array
  error?: { name: string; message: string; stack?: string; [field: string]: unknown }
}

type Message =
  | { op: 'query'; sql: string; params?: unknown[] | undefined; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }

/** An error the thread described, made an Error again with PostgreSQL's fields (code, detail…). */
function rebuilt(described: NonNullable<Reply['error']>): Error {
  const { name, message, stack, ...fields } = described
  const error = Object.assign(new Error(message), fields)
  error.name = name
  if (stack) error.stack = stack
  return error
}

/**
 * PGlite on a thread of its own (pgliteThread.js, docs/performance.md): the statements go there
 * as messages, so its work never holds the thread that answers requests. The thread keeps the
 * process alive only while a statement is on its way.
 */
/** What is used here of WebAssembly's API (the server's TypeScript has no DOM library to declare it). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> }
/** A compiled WebAssembly.Module: handed to threads as it is, never looked into here. */
type CompiledWasm = object

interface PgliteArtifacts {
  pgliteWasmModule: CompiledWasm
  initdbWasmModule: CompiledWasm
}

let artifacts: Promise<PgliteArtifacts> | undefined
/** PGlite's WebAssembly, compiled once per process and handed to each of its threads. */
function compiledArtifacts(): Promise<PgliteArtifacts> {
  artifacts ??= (async () => {
    const dir = dirname(require.resolve('@electric-sql/pglite'))
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (file) => WebAssembly.compile(await readFile(join(dir, file)))),
    )
    return { pgliteWasmModule: pgliteWasmModule!, initdbWasmModule: initdbWasmModule! }
  })()
  return artifacts.catch((error: unknown) => {
    artifacts = undefined
    throw error
  })
}

let memoryTemplate: Promise<Uint8Array> | undefined
/**
 * A fresh cluster's files, made once per process (initdb on a thread that then ends): every
 * database in memory after the first starts from them rather than running initdb again.
 */
function inMemoryTemplate(modules: PgliteArtifacts): Promise<Uint8Array> {
  memoryTemplate ??= (async () => {
    const { worker, ready } = startThread({ ...modules, makeTemplate: true })
    try {
      return (await ready).template!
    } finally {
      await worker.terminate()
    }
  })()
  return memoryTemplate.catch((error: unknown) => {
    memoryTemplate = undefined
    throw error
  })
}

/** A thread running pgliteThread.js, and its first answer (ready, or the error that stopped it). */
function startThread(workerData: Record<string, unknown>) {
  const worker = new Worker(join(__dirname, 'pgliteThread.js'), { workerData })
  const ready = new Promise<Reply>((resolve, reject) => {
    const onMessage = (reply: Reply) => {
      if (reply.id !== 0) return
      worker.off('message', onMessage)
      if (reply.error) reject(rebuilt(reply.error))
      else resolve(reply)
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the embedded database's thread ended (exit code ${code})`)))
  })
  return { worker, ready }
}

async function pgliteThread(
  dataDir: string | undefined,
): Promise<{ send: (message: Message) => Promise<Reply>; close: () => Promise<void> }> {
  const modules = await compiledArtifacts()
  const template = dataDir ? undefined : await inMemoryTemplate(modules)
  const { worker, ready } = startThread({ ...modules, dataDir, template })
  try {
    await ready
  } catch (error) {
    await worker.terminate()
    throw error
  }
  const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: unknown) => void }>()
  let failure: Error | null = null
  let nextId = 1
  const holdProcess = () => (waiting.size > 0 ? worker.ref() : worker.unref())
  const fail = (cause: unknown) => {
    failure ??= new DatabaseUnavailableError(cause)
    for (const caller of waiting.values()) caller.reject(failure)
    waiting.clear()
    holdProcess()
  }
  worker.on('message', (reply: Reply) => {
    const caller = waiting.get(reply.id)
    if (!caller) return
    waiting.delete(reply.id)
    holdProcess()
    if (reply.error) caller.reject(rebuilt(reply.error))
    else caller.resolve(reply)
  })
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the embedded database's thread ended (exit code ${code})`)))
  const answer = (id: number) =>
    new Promise<Reply>((resolve, reject) => {
      waiting.set(id, { resolve, reject })
      holdProcess()
    })
  holdProcess()
  const send = (message: Message) => {
    if (failure) return Promise.reject(failure)
    const id = nextId++
    const reply = answer(id)
    worker.postMessage({ id, ...message })
    return reply
  }
  return {
    send,
    close: async () => {
      await send({ op: 'close' })
      await worker.terminate()
    },
  }
}

/** Embedded PostgreSQL in `dataDir` (created when missing), or in memory without one. */
export async function openPglite(dataDir?: string): Promise<Database> {
  const { send, close } = await pgliteThread(dataDir)
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
  const on = (tx?: number): Queryable => ({
    query: <Row>(sql: string, params?: unknown[]) =>
      writing(sql, async () => (await send({ op: 'query', sql, params, ...(tx ? { tx } : {}) })).rows as Row[]),
    exec: (sql: string) => writing(sql, async () => void (await send({ op: 'exec', sql, ...(tx ? { tx } : {}) }))),
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
  const transaction = async <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
    const { tx } = await send({ op: 'begin' })
    let result: T
    try {
      result = await work(on(tx))
    } catch (error) {
      await send({ op: 'end', tx: tx!, commit: false }).catch(() => {})
      throw error
    }
    await send({ op: 'end', tx: tx!, commit: true })
    return result
  }
  return {
    engine: 'pglite',
    exclusive: true,
    writeCount: () => writes,
    ...on(),
    transaction: (work) => writing(null, () => inTurn(() => transaction(work))),
    close,
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
  const query = async <Row>(sql: string, params?: unknown[], prepared?: string) => {
    try {
      const result = prepared
        ? await pool.query({ name: prepared, text: sql, values: params ?? [] })
        : await pool.query(sql, params)
      return result.rows as Row[]
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
