import { openPostgres, type Database } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'
import { countTwoInDatabase, countTwoInMemory, type CountTwo, type Counter } from '../src/storage/rateLimits'
import { createTestSchema, openTestDatabase } from './harness'

/**
 * Verify's two limits counted in one step (docs/decisions/0092-two-limits-one-statement.md):
 * exact however many requests count at once, on the statement every replica shares and on the
 * embedded database's memory twin alike.
 */

interface Counting {
  /** the counters, as replicas would hold them: each call goes to the next in turn */
  replicas: CountTwo[]
  /** the window of `key` ends now */
  endWindow(key: string): Promise<void>
  /** the statements the replicas ran so far; undefined for the memory twin */
  statements?: () => number
  close(): Promise<void>
}

const client = (address: string, max = 30): Counter => ({ key: `verify-client:${address}`, max, windowMs: 60_000 })
const order = (name: string, max = 10, windowMs = 60_000): Counter => ({
  key: `verify-order:order:north:${name}`,
  max,
  windowMs,
})

/** `db`, with its queries counted in `count`. */
function counted(db: Database, count: { statements: number }): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (property !== 'query' || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        count.statements++
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

function inDatabase(db: Database, others: Database[] = []): Counting {
  const count = { statements: 0 }
  return {
    replicas: [db, ...others].map((replica) => countTwoInDatabase(counted(replica, count))),
    statements: () => count.statements,
    async endWindow(key) {
      await db.query("UPDATE rate_limits SET resets_at = now() - interval '1 millisecond' WHERE key = $1", [key])
    },
    async close() {
      await Promise.all(others.map((other) => other.close()))
      await db.close()
    },
  }
}

const MEMORY = 'memory (the embedded database)'

const kinds: [string, () => Promise<Counting>][] = [
  [
    MEMORY,
    () => {
      let now = 1_000_000
      return Promise.resolve({
        replicas: [countTwoInMemory(() => now)],
        // The twin's clock moves on a minute: the tests end a minute's window, never a longer one.
        endWindow: () => Promise.resolve(void (now += 60_000)),
        close: () => Promise.resolve(),
      })
    },
  ],
  ['the statement on PGlite', async () => inDatabase(await openTestDatabase('pglite'))],
]
if (process.env.TEST_DATABASE_URL)
  kinds.push([
    'the statement on PostgreSQL, two replicas of ten connections',
    async () => {
      const schema = await createTestSchema('limits')
      const [one, two] = await Promise.all([openPostgres(schema.url, 10), openPostgres(schema.url, 10)])
      await migrate(one)
      const counting = inDatabase(one, [two])
      return {
        ...counting,
        async close() {
          await counting.close()
          await schema.drop()
        },
      }
    },
  ])

describe.each(kinds)('two limits in one step: %s', (_kind, open) => {
  let counting: Counting
  beforeEach(async () => {
    counting = await open()
  })
  afterEach(() => counting.close())

  /** `calls` counted all at once, spread over the replicas. */
  const atOnce = (calls: [Counter, Counter][]) =>
    Promise.all(calls.map(([first, second], i) => counting.replicas[i % counting.replicas.length]!(first, second)))

  const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

  test('40 at once from one client: each sees its own count, 1 to 40, and only the 30 the client limit allows count at their order', async () => {
    const counts = await atOnce(Array.from({ length: 40 }, () => [client('10.0.0.1'), order('#1001', 100)]))
    expect(sorted(counts.map((count) => count.first.hits))).toEqual(oneTo(40))
    for (const count of counts) {
      expect(count.first.ttlMs).toBeGreaterThan(0)
      expect(count.first.ttlMs).toBeLessThanOrEqual(60_000)
      // Counted at the order exactly when the client was within its limit.
      expect(count.second !== null).toBe(count.first.hits <= 30)
    }
    expect(sorted(counts.flatMap((count) => (count.second ? [count.second.hits] : [])))).toEqual(oneTo(30))
    // The order's counter holds those 30 and no more: the next request from elsewhere is its 31st.
    expect((await counting.replicas[0]!(client('10.0.0.2'), order('#1001', 100))).second!.hits).toBe(31)
  })

  test('15 at once at one order from 15 clients: the order counts 1 to 15, so exactly 10 are within its limit', async () => {
    const counts = await atOnce(Array.from({ length: 15 }, (_, i) => [client(`10.0.1.${i}`), order('#1005')]))
    for (const count of counts) expect(count.first.hits).toBe(1)
    const atOrder = counts.map((count) => count.second!)
    expect(sorted(atOrder.map((count) => count.hits))).toEqual(oneTo(15))
    expect(atOrder.filter((count) => count.hits <= 10)).toHaveLength(10)
    for (const count of atOrder) expect(count.ttlMs).toBeGreaterThan(0)
  })

  test('many clients at many orders at once: every counter ends at the number of calls it took', async () => {
    const calls: [Counter, Counter][] = []
    for (let i = 0; i < 200; i++) calls.push([client(`10.0.2.${i % 20}`, 1_000), order(`#${2000 + (i % 7)}`, 1_000)])
    const counts = await atOnce(calls)
    for (let c = 0; c < 20; c++)
      expect(sorted(counts.filter((_, i) => i % 20 === c).map((count) => count.first.hits))).toEqual(oneTo(10))
    for (let o = 0; o < 7; o++)
      expect(sorted(counts.filter((_, i) => i % 7 === o).map((count) => count.second!.hits))).toEqual(
        oneTo(calls.filter((_, i) => i % 7 === o).length),
      )
  })

  test("once a window ends the next request starts a new one at 1, and the other counter's window is its own", async () => {
    // The order's window is two minutes here, so it outlasts the client's.
    const atOrder = order('#3001', 100, 120_000)
    await atOnce(Array.from({ length: 31 }, () => [client('10.0.3.1'), atOrder]))
    expect((await counting.replicas[0]!(client('10.0.3.1'), atOrder)).second).toBeNull()
    await counting.endWindow(client('10.0.3.1').key)
    const next = await counting.replicas[0]!(client('10.0.3.1'), atOrder)
    expect(next.first.hits).toBe(1)
    expect(next.first.ttlMs).toBeGreaterThan(59_000)
    expect(next.second!.hits).toBe(31)
    expect(next.second!.ttlMs).toBeLessThanOrEqual(120_000)
  })
})

// The memory twin runs no statement: only the database's counting is batched.
describe.each(kinds.filter(([kind]) => kind !== MEMORY))('a batch of counts: %s', (_kind, open) => {
  let counting: Counting
  beforeEach(async () => {
    counting = await open()
  })
  afterEach(() => counting.close())

  const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

  test('requests counted at once on one replica share one statement; one alone waits for nobody', async () => {
    const one = counting.replicas[0]!
    const before = counting.statements!()
    const counts = await Promise.all(
      Array.from({ length: 25 }, (_, i) => one(client(`10.0.4.${i % 5}`), order('#4001'))),
    )
    expect(counting.statements!() - before).toBe(1)
    expect(sorted(counts.map((count) => count.second!.hits))).toEqual(oneTo(25))
    const alone = await one(client('10.0.4.9'), order('#4001'))
    expect(counting.statements!() - before).toBe(2)
    expect(alone.second!.hits).toBe(26)
  })
})
