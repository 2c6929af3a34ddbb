/**
 * The data of bench/consoleUnderLoad.ts, on either engine: the demo shops, a staff member, `count`
 * orders of one tee each with a return of it (one a minute back from now, in four states and four
 * reasons, by a fifth as many shoppers), and the orders the submitting shoppers return (#S<n>,
 * submitter<n>@example.com, one tee bought ten days ago: within the demo shop's 30-day window).
 */
import { hashPassword } from '../server/src/domain/passwords'
import { seedDemoShops } from '../server/src/import/demoShops'
import { openDatabase } from '../server/src/storage/database'
import { dropOffCodeSql } from '../server/src/storage/inspections'
import { migrate } from '../server/src/storage/migrations'
import { addStaff } from '../server/src/storage/staff'
import { REASONS, returnOrder } from './generatedReturns'

export const PASSWORD = 'bench-staff-password'
/** More than 8 shoppers can submit in a run: each order is returned once. */
export const SUBMITTER_ORDERS = 50_000
/** A submitted return as the API stores it, in the shape the list reads (a tee, refunded). */
const answer = (reason: string) => JSON.stringify(returnOrder(reason))

const tee = (prefix: string) =>
  `jsonb_build_array(jsonb_build_object('id', '${prefix}' || g, 'variant_id', 'classic-tee-m', 'quantity', 1,
                                        'price', '25.00', 'tax_rate', '0.19'))`

export async function seedHistory(where: { dataDir?: string; databaseUrl?: string }, count: number): Promise<void> {
  const db = await openDatabase(where)
  try {
    await migrate(db)
    await seedDemoShops(db)
    await addStaff(db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), new Date())
    await db.query(
      `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, fulfilled_at, line_items)
       SELECT 'bench-o-' || g, 'demo', '#B' || g, 'B' || g, 'shopper' || (g % GREATEST($1::int / 5, 1)) || '@example.com',
              now() - interval '20 days', now() - interval '18 days', ${tee('bench-l-')}
         FROM generate_series(1, $1::int) AS g`,
      [count],
    )
    await db.query(
      `INSERT INTO returns (id, order_id, shop_id, number, name, return_order, created_at, state, drop_off_code)
       SELECT 'bench-r-' || g, 'bench-o-' || g, 'demo', 1, '#B' || g || '-R1',
              (ARRAY[$2::jsonb, $3::jsonb, $4::jsonb, $5::jsonb])[1 + g % 4],
              now() - make_interval(mins => g),
              (ARRAY['requested', 'in_transit', 'received', 'refunded'])[1 + (g / 7) % 4],
              ${dropOffCodeSql("'bench-r-' || g")}
         FROM generate_series(1, $1::int) AS g`,
      [count, ...REASONS.map(answer)],
    )
    await db.query(
      `INSERT INTO return_items (return_id, order_id, line_item_id, quantity)
       SELECT 'bench-r-' || g, 'bench-o-' || g, 'bench-l-' || g, 1 FROM generate_series(1, $1::int) AS g`,
      [count],
    )
    await db.query(
      `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, fulfilled_at, line_items)
       SELECT 'bench-s-' || g, 'demo', '#S' || g, 'S' || g, 'submitter' || g || '@example.com',
              now() - interval '10 days', now() - interval '8 days', ${tee('bench-s-l-')}
         FROM generate_series(1, $1::int) AS g`,
      [SUBMITTER_ORDERS],
    )
    await db.exec('ANALYZE')
  } finally {
    await db.close()
  }
}
