import { claimDue } from '../src/storage/outbox'
import { openPglite, type Database } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'
import { engines, openTestDatabase } from './harness'

/**
 * The delivery loop polls every second. On PGlite a write, even one that changes no row, makes
 * verify's and the staff sessions' remembered reads stale (docs/decisions/0032-verify-cache-pglite.md,
 * 0048-session-cache-pglite.md): a poll that finds nothing due must not write.
 */
describe('claiming due deliveries', () => {
  let db: Database
  beforeAll(async () => {
    db = await openPglite()
    await migrate(db)
  })
  afterAll(() => db.close())

  test('a poll with nothing due writes nothing; one with a row due claims it', async () => {
    const now = new Date('2026-11-25T12:00:00Z')
    const lease = new Date(now.getTime() + 30_000)
    const before = db.writeCount()
    expect(await claimDue(db, now, lease, 10)).toEqual([])
    expect(db.writeCount()).toBe(before)

    await db.query(
      `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, recipient, payload, state, attempts, due_at, created_at)
       VALUES ('msg_1', 'demo', 'r-1', 'return.created', 'webhook', 'ep-1', 'https://hooks.example/r', '{}', 'pending', 0, $1, $1)`,
      [new Date(now.getTime() + 5_000)],
    )
    // Due later: still nothing claimed, nothing written.
    const afterInsert = db.writeCount()
    expect(await claimDue(db, now, lease, 10)).toEqual([])
    expect(db.writeCount()).toBe(afterInsert)
    // Due now: claimed once, under its lease.
    const later = new Date(now.getTime() + 6_000)
    const claimed = await claimDue(db, later, new Date(later.getTime() + 30_000), 10)
    expect(claimed.map((row) => row.id)).toEqual(['msg_1'])
    expect(await claimDue(db, later, new Date(later.getTime() + 30_000), 10)).toEqual([])
  })
})

describe.each(engines())('claiming with targets in hand on %s', (engine) => {
  let db: Database
  beforeAll(async () => {
    db = await openTestDatabase(engine)
  })
  afterAll(() => db.close())

  test('a target gets no more than its share, counting what is in hand; a full target’s rows wait', async () => {
    const now = new Date('2026-11-25T12:00:00Z')
    const lease = new Date(now.getTime() + 30_000)
    const rows = [...Array.from({ length: 6 }, () => 'ep-slow'), 'ep-other', 'ep-other', 'email']
    for (const [n, target] of rows.entries())
      await db.query(
        `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, recipient, payload, state, attempts, due_at, created_at)
         VALUES ($1, 'demo', $2, 'return.created', 'webhook', $3, NULL, '{}', 'pending', 0, $4, $4)`,
        [`msg_${n}`, `r-${n}`, target, new Date(now.getTime() - 1_000 + n)],
      )
    // One of ep-slow's is in hand: one more of it, and what the others have, up to the limit.
    const held = new Map([['ep-slow', 1]])
    const first = await claimDue(db, now, lease, 10, { perTarget: 2, held })
    expect(first.map((row) => row.id).sort()).toEqual(['msg_0', 'msg_6', 'msg_7', 'msg_8'])
    // Every target with rows due is full: nothing is taken, and on PGlite nothing is written.
    const full = new Map([
      ['ep-slow', 2],
      ['ep-other', 2],
      ['email', 2],
    ])
    const before = db.writeCount()
    expect(await claimDue(db, now, lease, 10, { perTarget: 2, held: full })).toEqual([])
    expect(db.writeCount()).toBe(before)
    // ep-slow's slots free: its next rows, oldest first.
    const freed = await claimDue(db, now, lease, 10, { perTarget: 2, held: new Map() })
    expect(freed.map((row) => row.id).sort()).toEqual(['msg_1', 'msg_2'])
  })
})
