import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Database } from './database'

type Incr = FastifyRateLimitStore['incr']

// One statement, atomic on the server: the first hit of a window starts it, later ones count.
// Times are the database server's, so replicas whose clocks differ still agree on a window.
const HIT = `
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
