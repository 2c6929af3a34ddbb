import { claimDue } from '../src/storage/outbox'
import { openPglite, type Database } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'

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
