'use strict'
/**
 * PGlite in a thread of its own (docs/performance.md, "The embedded database"). PostgreSQL compiled
 * to WebAssembly runs on whichever thread calls it, and on the server's main thread it took about
 * half of the CPU a submit costs, so every console request waited behind shoppers' submits. Here
 * it runs beside the main thread, which sends it statements (server/src/storage/database.ts).
 *
 * Plain CommonJS, not TypeScript: a worker thread is started from a file that Node runs as it is,
 * both in the compiled server and in the tests, which run the TypeScript sources.
 *
 * workerData: { dataDir?, template?, makeTemplate?, pgliteWasmModule, initdbWasmModule }; with
 * makeTemplate, the thread answers { id: 0, template } with a fresh cluster's files and ends.
 * Messages in: { id, op: 'query' | 'exec', sql, params?, tx? }, { id, op: 'begin' },
 * { id, op: 'end', tx, commit }, { id, op: 'close' }. Each is answered once with { id, rows? } or
 * { id, error }. A transaction is the `begin` message's id until its `end`.
 */
const { parentPort, workerData } = require('node:worker_threads')
const { PGlite } = require('@electric-sql/pglite')
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm')
const { unaccent } = require('@electric-sql/pglite/contrib/unaccent')

/** An error as plain data: its message, name and what PostgreSQL said of it (code, detail…). */
function describe(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const described = { name: error.name, message: error.message, stack: error.stack }
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') described[key] = value
  }
  return described
}

const answer = (id, body) => parentPort.postMessage({ id, ...body })

/** Why a transaction is rolled back when the main thread asks for it: not an error to report. */
const ROLLBACK = Symbol('rollback')

/**
 * PGlite's options from workerData: the WebAssembly the main thread compiled once for all its
 * threads, and for a database in memory the files of a fresh cluster (`template`), which spare it
 * PostgreSQL's initdb (about half of what opening one costs).
 */
function options() {
  const { dataDir, template, pgliteWasmModule, initdbWasmModule } = workerData
  return {
    ...(dataDir ? { dataDir } : {}),
    ...(template ? { loadDataDir: new Blob([template]) } : {}),
    pgliteWasmModule,
    initdbWasmModule,
    // The contrib extensions migration 19 creates (the console's search, decision 0084): their
    // files are put in place each time a database opens, as PostgreSQL's package installs them.
    extensions: { pg_trgm, unaccent },
  }
}

async function main() {
  let db
  try {
    db = await PGlite.create(options())
    if (workerData.makeTemplate) {
      const files = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer())
      await db.close()
      parentPort.postMessage({ id: 0, template: files }, [files.buffer])
      return
    }
  } catch (error) {
    answer(0, { error: describe(error) })
    return
  }
  answer(0, {})
  /** Open transactions by id: PGlite's transaction object and how to end it. */
  const open = new Map()

  const run = async (message) => {
    const target = message.tx === undefined ? db : open.get(message.tx)?.tx
    if (!target) throw new Error(`no open transaction ${message.tx}`)
    if (message.op === 'exec') {
      await target.exec(message.sql)
      return {}
    }
    return { rows: (await target.query(message.sql, message.params)).rows }
  }

  parentPort.on('message', (message) => {
    if (message.op === 'query' || message.op === 'exec') {
      run(message).then(
        (body) => answer(message.id, body),
        (error) => answer(message.id, { error: describe(error) }),
      )
    } else if (message.op === 'begin') {
      let begun = false
      let ended = null
      db.transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            begun = true
            open.set(message.id, { tx, resolve, reject, ended: (id) => (ended = id) })
            answer(message.id, { tx: message.id })
          }),
      ).then(
        () => {
          open.delete(message.id)
          answer(ended, {})
        },
        (error) => {
          open.delete(message.id)
          if (!begun) answer(message.id, { error: describe(error) })
          else answer(ended, error === ROLLBACK ? {} : { error: describe(error) })
        },
      )
    } else if (message.op === 'end') {
      const transaction = open.get(message.tx)
      if (!transaction) return answer(message.id, { error: describe(new Error(`no open transaction ${message.tx}`)) })
      transaction.ended(message.id)
      if (message.commit) transaction.resolve()
      else transaction.reject(ROLLBACK)
    } else if (message.op === 'close') {
      db.close().then(
        () => answer(message.id, {}),
        (error) => answer(message.id, { error: describe(error) }),
      )
    }
  })
}

void main()
