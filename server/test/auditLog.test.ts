import type { Database } from '../src/storage/database'
import { appendAudit, readAudit } from '../src/storage/audit'
import { engines, NOW, openTestDatabase } from './harness'

describe.each(engines())('the audit log on %s', (engine) => {
  let db: Database
  beforeAll(async () => {
    db = await openTestDatabase(engine)
  })
  afterAll(async () => {
    await db.close()
  })

  it('keeps what it is given, newest first, and refuses to change or lose a row', async () => {
    const actor = { kind: 'staff' as const, id: 's1', label: 'owner@example.com' }
    await appendAudit(db, {
      shopId: 'demo',
      at: NOW,
      actor,
      address: '203.0.113.9',
      kind: 'policy.changed',
      subject: null,
      detail: { before: { window_days: 30 }, after: { window_days: 45 } },
    })
    await appendAudit(db, {
      shopId: 'demo',
      at: new Date(NOW.getTime() + 1000),
      actor,
      address: '203.0.113.9',
      kind: 'staff.signed_out',
      subject: null,
      detail: {},
    })
    const rows = await readAudit(db, 'demo')
    expect(rows.map((row) => row.kind)).toEqual(['staff.signed_out', 'policy.changed'])
    expect(rows[1]).toMatchObject({
      actor_kind: 'staff',
      actor_label: 'owner@example.com',
      address: '203.0.113.9',
      detail: { before: { window_days: 30 }, after: { window_days: 45 } },
    })
    await expect(db.query("UPDATE audit_log SET actor_label = 'someone@else.com'")).rejects.toThrow(/append-only/)
    await expect(db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/)
    await expect(db.exec('TRUNCATE audit_log')).rejects.toThrow(/append-only/)
    expect(await readAudit(db, 'demo')).toHaveLength(2)
    expect(await readAudit(db, 'acme')).toEqual([])
  })

  it('takes the kinds beginning with a prefix, byte for byte, and the kinds named', async () => {
    const kinds = ['policy', 'policy.changed', 'policy/x', 'policyx', 'storeXconnection.set', 'store_connection.set']
    for (const [index, kind] of kinds.entries())
      await appendAudit(db, {
        shopId: 'prefixes',
        at: new Date(NOW.getTime() + index * 1000),
        actor: { kind: 'system', id: null, label: 'Rebound' },
        address: null,
        kind,
        subject: null,
        detail: {},
      })
    const read = async (exact: string[], prefixes: string[]) =>
      (await readAudit(db, 'prefixes', 100, { kinds: { exact, prefixes } })).map((row) => row.kind)
    expect(await read([], ['policy.', 'store_connection.'])).toEqual(['store_connection.set', 'policy.changed'])
    expect(await read(['policyx'], ['policy/'])).toEqual(['policyx', 'policy/x'])
  })
})
