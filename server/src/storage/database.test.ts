import { openPglite, type Database } from './database'

/** A promise and the function that settles it: a transaction held open until the test says. */
function latch() {
  let open = () => {}
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe('PGlite: statements and transactions in turn', () => {
  let db: Database
  beforeEach(async () => {
    db = await openPglite()
    await db.exec('CREATE TABLE counts (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counts VALUES (1, 0)')
  })
  afterEach(() => db.close())

  test('a read waits for the transaction running, not for the transactions queued behind it', async () => {
    const order: string[] = []
    const first = latch()
    const started = latch()
    const running = db.transaction(async (tx) => {
      await tx.query('UPDATE counts SET n = n + 1 WHERE id = 1')
      started.open()
      await first.opened
      order.push('running')
    })
    await started.opened
    const queued = [1, 2, 3].map((index) =>
      db.transaction(async (tx) => {
        await tx.query('UPDATE counts SET n = n + 1 WHERE id = 1')
        order.push(`queued ${index}`)
      }),
    )
    const read = db.query<{ n: number }>('SELECT n FROM counts WHERE id = 1').then(([row]) => {
      order.push('read')
      return row!.n
    })
    first.open()
    // It sees the running transaction's change, committed, and none of the queued ones'.
    expect(await read).toBe(1)
    await Promise.all([running, ...queued])
    expect(order).toEqual(['running', 'read', 'queued 1', 'queued 2', 'queued 3'])
    expect((await db.query<{ n: number }>('SELECT n FROM counts'))[0]!.n).toBe(4)
  })

  test('a transaction that fails lets the next one run', async () => {
    const failed = db.transaction(async (tx) => {
      await tx.query('UPDATE counts SET n = n + 1 WHERE id = 1')
      throw new Error('refused')
    })
    const next = db.transaction((tx) => tx.query('UPDATE counts SET n = n + 10 WHERE id = 1'))
    await expect(failed).rejects.toThrow('refused')
    await next
    expect((await db.query<{ n: number }>('SELECT n FROM counts'))[0]!.n).toBe(10)
  })
})

describe('PGlite on its own thread', () => {
  let db: Database
  beforeEach(async () => {
    db = await openPglite()
    await db.exec('CREATE TABLE things (id int PRIMARY KEY, at timestamptz, body bytea, doc jsonb)')
  })
  afterEach(() => db.close())

  test('values cross the thread as PostgreSQL gives them: dates, bytes, JSON, numbers', async () => {
    const at = new Date('2026-11-27T09:30:00.123Z')
    await db.query('INSERT INTO things VALUES ($1, $2, $3, $4)', [1, at, Buffer.from([0, 1, 255]), { a: [1, 'b'] }])
    const [row] = await db.query<{ id: number; at: Date; body: Uint8Array; doc: unknown }>('SELECT * FROM things')
    expect(row!.id).toBe(1)
    expect(row!.at).toEqual(at)
    expect([...row!.body]).toEqual([0, 1, 255])
    expect(row!.doc).toEqual({ a: [1, 'b'] })
  })

  test("PostgreSQL's errors keep their code and detail, and a failed statement ends its transaction", async () => {
    await db.query('INSERT INTO things (id) VALUES (1)')
    const duplicate = db.transaction(async (tx) => {
      await tx.query('INSERT INTO things (id) VALUES (2)')
      await tx.query('INSERT INTO things (id) VALUES (1)')
    })
    const error = await duplicate.then(
      () => null,
      (reason: unknown) => reason as { code?: string; message?: string },
    )
    expect(error).toMatchObject({ code: '23505' })
    expect(error?.message).toContain('duplicate key')
    expect(await db.query('SELECT id FROM things ORDER BY id')).toEqual([{ id: 1 }])
  })

  test('a closed database answers "unavailable", never hangs', async () => {
    const other = await openPglite()
    await other.close()
    await expect(other.query('SELECT 1')).rejects.toThrow('The database is unavailable')
  })
})
