import type { Database } from '../src/storage/database'
import { findOrderForVerify } from '../src/storage/orders'
import { orderNameKey } from '../src/domain/normalize'
import { buildOrder, buildShop } from './builders'
import { engines, loadShops, openTestDatabase } from './harness'

const SHOP = buildShop({ shop: 'north', orders: [buildOrder({ name: '#1001' })] })

describe.each(engines())('the orders verify has found, on %s', (engine) => {
  let db: Database
  beforeAll(async () => {
    db = await openTestDatabase(engine)
    await loadShops(db, [SHOP])
  })
  afterAll(() => db.close())

  const find = () => findOrderForVerify(db, 'north', orderNameKey('#1001'))

  test('are read again after any write of this process, and never kept on a shared server', async () => {
    const first = await find()
    expect(first?.order.name).toBe('#1001')
    const second = await find()
    // PGlite is this process's alone: the same answer until it writes. PostgreSQL is shared.
    if (engine === 'pglite') expect(second).toBe(first)
    else expect(second).not.toBe(first)

    const line = first!.order.line_items[0]!.id
    // A unit of the first line returned, as insertReturn records it beside the order.
    await db.transaction((tx) =>
      tx.query(
        `UPDATE orders SET returned_units = jsonb_set(returned_units, ARRAY[$2::text], to_jsonb(1)) WHERE id = $1`,
        [first!.order.id, line],
      ),
    )
    const after = await find()
    expect(after).not.toBe(first)
    expect(first!.returned.get(line)).toBeUndefined()
    expect(after!.returned.get(line)).toBe(1)
  })

  test('a read that a write overtakes is not kept', async () => {
    const reading = find()
    const writing = db.query(`UPDATE orders SET discount = discount WHERE shop_id = 'north'`)
    const [read] = await Promise.all([reading, writing])
    expect(await find()).not.toBe(read)
  })
})
