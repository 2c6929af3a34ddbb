import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import DataLoader from 'dataloader'
import type { Database } from './database'
import { FOUND_COLUMNS, foundOf, type Found, type FoundRow } from './orders'

type Incr = FastifyRateLimitStore['incr']

/** The ms until a window ending at `resetsAt` ends, by the database server's clock. */
const TTL_MS = (resetsAt: string) => `GREATEST(0, CEIL(EXTRACT(EPOCH FROM (${resetsAt} - now())) * 1000))::int`

/**
 * A counter's upsert counted again: the hits asked for (`excluded.hits`) start a new window when
 * the row's has ended, and add to it while it lasts.
 */
const COUNT_AGAIN = `
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN limits.resets_at <= now() THEN excluded.hits ELSE limits.hits + excluded.hits END,
    resets_at = CASE WHEN limits.resets_at <= now() THEN excluded.resets_at ELSE limits.resets_at END`

// One statement, atomic on the server: the first hit of a window starts it, later ones count.
// Times are the database server's, so replicas whose clocks differ still agree on a window.
export const HIT = `
  INSERT INTO rate_limits AS limits (key, hits, resets_at) VALUES ($1, 1, now() + $2 * interval '1 millisecond')
  ${COUNT_AGAIN}
  RETURNING hits, ${TTL_MS('resets_at')} AS ttl_ms`

/** Windows ended this long ago are deleted, now and then, so the table stays small. */
const SWEEP_EVERY_HITS = 1_000

/**
 * A store for @fastify/rate-limit whose counters live in the database, so that every replica on
 * one PostgreSQL server counts the same attempts: two replicas do not give an attacker twice the
 * guesses. Each limit names itself (`groupId`), so one client's verify and photo counters differ.
 */
class DatabaseRateLimitStore implements FastifyRateLimitStore {
  private hitsSinceSweep = 0

  constructor(
    private readonly db: Database,
    private readonly name: string,
  ) {}

  incr: Incr = (key, callback, timeWindow) => {
    if (++this.hitsSinceSweep >= SWEEP_EVERY_HITS) {
      this.hitsSinceSweep = 0
      this.db.query("DELETE FROM rate_limits WHERE resets_at < now() - interval '1 minute'").catch(() => {})
    }
    this.db.query<{ hits: number; ttl_ms: number }>(HIT, [`${this.name}:${key}`, timeWindow]).then(
      ([row]) => callback(null, { current: Number(row!.hits), ttl: Number(row!.ttl_ms) }),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    )
  }

  child(options: Parameters<FastifyRateLimitStore['child']>[0] & { groupId?: string }): FastifyRateLimitStore {
    if (!options.groupId) throw new Error('A rate limit on a shared store needs a groupId naming it')
    return new DatabaseRateLimitStore(this.db, options.groupId)
  }
}

/** The @fastify/rate-limit store class for `db`: counters in its rate_limits table. */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  return class extends DatabaseRateLimitStore {
    constructor() {
      super(db, 'global')
    }
  }
}

/** One limit as a request meets it: the hits of its window so far, this one's included, and the ms until the window ends. */
export interface LimitCount {
  hits: number
  ttlMs: number
}

/** A limit's counter: its key in the rate_limits table (the name of its limit first), its most hits and its window. */
export interface Counter {
  key: string
  max: number
  windowMs: number
}

/**
 * Counts one request against two limits in one step: `first` always, `second` only while `first`
 * allows the request (the hits within its most), as two limits checked one after the other count
 * it. `second` is null when it was not counted. With `order`, the same step may also read that
 * order as verify finds it (`found`, null when there is none); undefined when it did not read it.
 */
export type CountTwo = (
  first: Counter,
  second: Counter,
  order?: { shopId: string; nameKey: string },
) => Promise<{ first: LimitCount; second: LimitCount | null; found?: Found | null }>

/**
 * The upsert of HIT for every counter of a batch of requests, in one statement: one round trip and
 * one commit for all the verifies a replica has waiting (docs/decisions/0103-verify-limits-batched.md).
 * The requests come as one JSON array ($1), in the order they are counted, each with the first
 * counter's key, window and most, the second's key and window, and the order's shop and name key
 * (null when none is read). JSON rather than arrays: the planner cannot count its rows, so the
 * prepared statement's generic plan costs what each call's own would, and PostgreSQL keeps it
 * instead of planning every call again (with arrays it did: a millisecond a call at load).
 * Each counter is upserted once, by the number of requests counting at it (two upserts of one
 * row in one statement are an error), and each request's own count is the row's new hits less
 * the batch's requests after it: the counts of requests one after the other. The second counts
 * only the requests the first's count allows, as two limits checked one after the other do. Both
 * upserts take their rows in key order, and all the first kind's before any of the second's (the
 * window over a first's rows needs every one of them, and the second's rows are those it
 * passes), so two batches, from this replica or another, never wait on each other in a circle.
 */
export const HIT_BATCH = `
  WITH request AS (
    SELECT * FROM ROWS FROM (json_to_recordset($1::json) AS (
        first_key text, first_window float8, first_max bigint, second_key text, second_window float8,
        shop_id text, name_key text
      )) WITH ORDINALITY AS request(first_key, first_window, first_max, second_key, second_window, shop_id, name_key, n)
  ), first AS (
    INSERT INTO rate_limits AS limits (key, hits, resets_at)
      SELECT first_key, count(*), now() + max(first_window) * interval '1 millisecond'
        FROM request GROUP BY first_key ORDER BY first_key
    ${COUNT_AGAIN}
    RETURNING key, hits, resets_at
  ), counted AS (
    SELECT request.*, first.resets_at AS first_resets_at,
           first.hits - count(*) OVER by_key + row_number() OVER (by_key ORDER BY request.n) AS first_hits
      FROM request JOIN first ON first.key = request.first_key
      WINDOW by_key AS (PARTITION BY request.first_key)
  ), second AS (
    INSERT INTO rate_limits AS limits (key, hits, resets_at)
      SELECT second_key, count(*), now() + max(second_window) * interval '1 millisecond'
        FROM counted WHERE first_hits <= first_max GROUP BY second_key ORDER BY second_key
    ${COUNT_AGAIN}
    RETURNING key, hits, resets_at
  ), counted_second AS (
    SELECT counted.n, second.resets_at AS second_resets_at,
           second.hits - count(*) OVER by_key + row_number() OVER (by_key ORDER BY counted.n) AS second_hits
      FROM counted JOIN second ON second.key = counted.second_key
      WHERE counted.first_hits <= counted.first_max
      WINDOW by_key AS (PARTITION BY counted.second_key)
  )
  SELECT counted.n AS request_n,
         counted.first_hits, ${TTL_MS('counted.first_resets_at')} AS first_ttl_ms,
         counted_second.second_hits, ${TTL_MS('counted_second.second_resets_at')} AS second_ttl_ms,
         found.*
    FROM counted LEFT JOIN counted_second ON counted_second.n = counted.n
    LEFT JOIN LATERAL (
      SELECT ${FOUND_COLUMNS} FROM orders WHERE shop_id = counted.shop_id AND name_key = counted.name_key
    ) found ON true
    ORDER BY counted.n`

/** The most requests one statement counts; more wait for the next. */
const MOST_A_BATCH = 100

interface Counting {
  first: Counter
  second: Counter
  order: { shopId: string; nameKey: string } | undefined
}

type BatchRow = {
  request_n: string
  first_hits: string
  first_ttl_ms: number
  second_hits: string | null
  second_ttl_ms: number | null
} & (FoundRow | { id: null })

/**
 * CountTwo on the rate_limits table, for a PostgreSQL server that replicas share: every replica
 * counts the same rows (docs/decisions/0092-two-limits-one-statement.md). The requests that reach
 * it within one turn of the event loop are counted together, in one statement (HIT_BATCH), by
 * DataLoader's batching (docs/decisions/0103-verify-limits-batched.md): alone, a request waits for
 * that turn only.
 */
export function countTwoInDatabase(db: Database): CountTwo {
  let hitsSinceSweep = 0
  const loader = new DataLoader<Counting, Awaited<ReturnType<CountTwo>>>(
    async (batch) => {
      const rows = await db.query<BatchRow>(
        HIT_BATCH,
        [
          JSON.stringify(
            batch.map(({ first, second, order }) => ({
              first_key: first.key,
              first_window: first.windowMs,
              first_max: first.max,
              second_key: second.key,
              second_window: second.windowMs,
              shop_id: order?.shopId ?? null,
              name_key: order?.nameKey ?? null,
            })),
          ),
        ],
        // Parsed and planned once per connection: at every verify, it is most of the statement's cost.
        'rate-limits-hit-batch',
      )
      return rows.map((row, i) => {
        const { request_n, first_hits, first_ttl_ms, second_hits, second_ttl_ms, ...found } = row
        // The rows come in the requests' order; a row out of place would answer another request.
        if (Number(request_n) !== i + 1) throw new Error(`rate limit row ${request_n} came at ${i + 1}`)
        return {
          first: { hits: Number(first_hits), ttlMs: Number(first_ttl_ms) },
          second: second_hits === null ? null : { hits: Number(second_hits), ttlMs: Number(second_ttl_ms) },
          ...(batch[i]!.order ? { found: found.id === null ? null : foundOf(found) } : {}),
        }
      })
    },
    // No answer is kept: each call is another attempt to count.
    { cache: false, maxBatchSize: MOST_A_BATCH, batchScheduleFn: (callback) => setImmediate(callback) },
  )
  return (first, second, order) => {
    if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
      hitsSinceSweep = 0
      db.query("DELETE FROM rate_limits WHERE resets_at < now() - interval '1 minute'").catch(() => {})
    }
    return loader.load({ first, second, order })
  }
}

/**
 * CountTwo in this process's memory, for the embedded database (one process, which counts
 * alone): the same windows and counts as countTwoInDatabase, on `clock` (ms). Windows ended are
 * forgotten now and then, so the counters held are those of the last minute's clients.
 */
export function countTwoInMemory(clock: () => number = Date.now): CountTwo {
  const windows = new Map<string, { hits: number; resetsAt: number }>()
  let hitsSinceSweep = 0
  const hit = (counter: Counter, now: number): LimitCount => {
    let window = windows.get(counter.key)
    if (!window || window.resetsAt <= now)
      windows.set(counter.key, (window = { hits: 1, resetsAt: now + counter.windowMs }))
    else window.hits++
    return { hits: window.hits, ttlMs: window.resetsAt - now }
  }
  return (first, second) => {
    const now = clock()
    if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
      hitsSinceSweep = 0
      for (const [key, window] of windows) if (window.resetsAt <= now) windows.delete(key)
    }
    const counted = hit(first, now)
    return Promise.resolve({ first: counted, second: counted.hits <= first.max ? hit(second, now) : null })
  }
}
