import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Database } from './database'
import { FOUND_COLUMNS, foundOf, type Found, type FoundRow } from './orders'

type Incr = FastifyRateLimitStore['incr']

// One statement, atomic on the server: the first hit of a window starts it, later ones count.
// Times are the database server's, so replicas whose clocks differ still agree on a window.
export const HIT = `
  INSERT INTO rate_limits AS limits (key, hits, resets_at) VALUES ($1, 1, now() + $2 * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN limits.resets_at <= now() THEN 1 ELSE limits.hits + 1 END,
    resets_at = CASE WHEN limits.resets_at <= now() THEN now() + $2 * interval '1 millisecond' ELSE limits.resets_at END
  RETURNING hits, GREATEST(0, CEIL(EXTRACT(EPOCH FROM (resets_at - now())) * 1000))::int AS ttl_ms`

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

// The upsert of HIT for each counter, in one statement: one round trip, and atomic on each row as
// HIT is; with the order verify then looks up ($6, $7; none when null), read in the same trip. The second counts only when the first's count allows the request; both read the
// database server's clock, now() being one time for the whole statement. Every caller locks a
// first-kind row before a second-kind one (their keys are named apart), so two never wait on
// each other in a circle.
export const HIT_TWO = `
  WITH first AS (
    INSERT INTO rate_limits AS limits (key, hits, resets_at) VALUES ($1, 1, now() + $2 * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN limits.resets_at <= now() THEN 1 ELSE limits.hits + 1 END,
      resets_at = CASE WHEN limits.resets_at <= now() THEN now() + $2 * interval '1 millisecond' ELSE limits.resets_at END
    RETURNING hits, resets_at
  ), second AS (
    INSERT INTO rate_limits AS limits (key, hits, resets_at)
      SELECT $4, 1, now() + $5 * interval '1 millisecond' FROM first WHERE first.hits <= $3::bigint
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN limits.resets_at <= now() THEN 1 ELSE limits.hits + 1 END,
      resets_at = CASE WHEN limits.resets_at <= now() THEN now() + $5 * interval '1 millisecond' ELSE limits.resets_at END
    RETURNING hits, resets_at
  )
  SELECT first.hits AS first_hits,
         GREATEST(0, CEIL(EXTRACT(EPOCH FROM (first.resets_at - now())) * 1000))::int AS first_ttl_ms,
         second.hits AS second_hits,
         GREATEST(0, CEIL(EXTRACT(EPOCH FROM (second.resets_at - now())) * 1000))::int AS second_ttl_ms,
         found.*
    FROM first LEFT JOIN second ON true
    LEFT JOIN (SELECT ${FOUND_COLUMNS} FROM orders WHERE shop_id = $6 AND name_key = $7) found ON true`

/**
 * CountTwo on the rate_limits table, for a PostgreSQL server that replicas share: every replica
 * counts the same rows, in one round trip a request (docs/decisions/0092-two-limits-one-statement.md).
 */
export function countTwoInDatabase(db: Database): CountTwo {
  let hitsSinceSweep = 0
  return async (first, second, order) => {
    if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
      hitsSinceSweep = 0
      db.query("DELETE FROM rate_limits WHERE resets_at < now() - interval '1 minute'").catch(() => {})
    }
    const [row] = await db.query<
      {
        first_hits: number
        first_ttl_ms: number
        second_hits: number | null
        second_ttl_ms: number | null
      } & (FoundRow | { id: null })
    >(
      HIT_TWO,
      [
        first.key,
        first.windowMs,
        first.max,
        second.key,
        second.windowMs,
        order?.shopId ?? null,
        order?.nameKey ?? null,
      ],
      // Parsed and planned once per connection: at every verify, it is most of the statement's cost.
      'rate-limits-hit-two',
    )
    const { first_hits, first_ttl_ms, second_hits, second_ttl_ms, ...found } = row!
    return {
      first: { hits: Number(first_hits), ttlMs: Number(first_ttl_ms) },
      second: second_hits === null ? null : { hits: Number(second_hits), ttlMs: Number(second_ttl_ms) },
      ...(order ? { found: found.id === null ? null : foundOf(found) } : {}),
    }
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
