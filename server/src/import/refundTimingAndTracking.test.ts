import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openPglite } from '../storage/database'
import { migrate } from '../storage/migrations'
import { importShop } from './importShop'
import type { ShopFile } from './shopFile'
import { validateShopFile } from './validateShopFile'

type Mutable = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** demo.json (refund timing set, #1007 with a tracked return), fresh and safe to change. */
const demo = (): Mutable => JSON.parse(readFileSync(join(__dirname, '../../demo/demo.json'), 'utf8')) as Mutable
const o1007 = (f: Mutable) => f.orders.find((order: Mutable) => order.name === '#1007') as Mutable
const at = (f: Mutable) => `orders[${f.orders.indexOf(o1007(f))}].tracked_returns[0]`

function errorsOf(input: Mutable): string[] {
  const result = validateShopFile(input)
  if (result.ok) throw new Error('expected the file to be rejected')
  return result.errors
}

describe('settings.refund_timing', () => {
  it('is optional: a shop without it is valid as before', () => {
    const file = demo()
    delete file.settings.refund_timing
    file.orders = file.orders.filter((order: Mutable) => order.name !== '#1007')
    expect(validateShopFile(file).ok).toBe(true)
  })

  it.each<[string, (timing: Mutable) => void, string]>([
    [
      'an unknown method',
      (t) => (t.cash = { from_days: 0, to_days: 0, business_days: true, after: 'submit' }),
      'settings.refund_timing.cash: is not a field of the shop file format',
    ],
    [
      'to_days before from_days',
      (t) => (t.original_payment.to_days = 4),
      'settings.refund_timing.original_payment.to_days: must not be less than from_days',
    ],
    [
      'negative days',
      (t) => (t.store_credit.from_days = -1),
      'settings.refund_timing.store_credit.from_days: must be a whole number of days from 0 to 365',
    ],
    [
      'days that are not whole',
      (t) => (t.store_credit.to_days = 1.5),
      'settings.refund_timing.store_credit.to_days: must be a whole number of days',
    ],
    [
      'days as a string',
      (t) => (t.original_payment.from_days = '5'),
      'settings.refund_timing.original_payment.from_days: must be a whole number of days',
    ],
    [
      'an unknown anchor',
      (t) => (t.original_payment.after = 'shipping'),
      'settings.refund_timing.original_payment.after: must be "submit"',
    ],
    [
      'business_days left out',
      (t) => delete t.store_credit.business_days,
      'settings.refund_timing.store_credit.business_days: is required',
    ],
  ])('rejects %s, naming the field', (_name, change, message) => {
    const file = demo()
    change(file.settings.refund_timing)
    expect(errorsOf(file)).toEqual([expect.stringContaining(message)])
  })
})

describe('orders[].tracked_returns', () => {
  it.each<[string, (f: Mutable) => void, (f: Mutable) => string]>([
    [
      'an unknown reason',
      (f) => (o1007(f).tracked_returns[0].items[1].reason_id = 'bored'),
      (f) => `${at(f)}.items[1].reason_id: "bored" is not the id of a return reason`,
    ],
    [
      'a reason that needs a comment, without one',
      (f) => (o1007(f).tracked_returns[0].items[1].reason_id = 'damaged'),
      (f) => `${at(f)}.items[1].comment: is required by the reason "damaged"`,
    ],
    [
      'an unknown exchange variant',
      (f) => (o1007(f).tracked_returns[0].items[0].exchange_variant_id = 'hoodie-xxxl'),
      (f) => `${at(f)}.items[0].exchange_variant_id: "hoodie-xxxl" is not a variant id`,
    ],
    [
      'progress before the return was made',
      (f) => (o1007(f).tracked_returns[0].progress.in_transit = 'now-4d'),
      (f) => `${at(f)}.progress.in_transit: must not be before created_at or an earlier state`,
    ],
    [
      'received before in transit',
      (f) => (o1007(f).tracked_returns[0].progress.received = 'now-3d'),
      (f) => `${at(f)}.progress.received: must not be before created_at or an earlier state`,
    ],
    [
      'an unknown state',
      (f) => (o1007(f).tracked_returns[0].progress.lost = 'now'),
      (f) => `${at(f)}.progress.lost: is not a field of the shop file format`,
    ],
    [
      'requested as progress (it is created_at)',
      (f) => (o1007(f).tracked_returns[0].progress.requested = 'now'),
      (f) => `${at(f)}.progress.requested: is not a field of the shop file format`,
    ],
    [
      'an unknown refund method',
      (f) => (o1007(f).tracked_returns[0].refund_method = 'cash'),
      (f) => `${at(f)}.refund_method: must be null or one of "original_payment", "store_credit"`,
    ],
    [
      'a line not in the order',
      (f) => (o1007(f).tracked_returns[0].items[0].line_item_id = 'li-1001-001'),
      (f) => `${at(f)}.items[0].line_item_id: "li-1001-001" is not a line item id of this order`,
    ],
    [
      'more units than bought, with a plain return',
      (f) => (o1007(f).returns = [[{ line_item_id: 'li-1007-002', quantity: 1 }]]),
      (f) => `${at(f)}.items[1].quantity: returns 2 units of line item "li-1007-002" in all, but only 1 were bought`,
    ],
  ])('rejects %s, naming the field', (_name, change, message) => {
    const file = demo()
    change(file)
    expect(errorsOf(file)).toEqual([expect.stringContaining(message(file))])
  })

  it('a tracked return that cannot be priced (an exchange out of stock) is refused on import, and nothing is written', async () => {
    const db = await openPglite()
    try {
      await migrate(db)
      const file = demo()
      o1007(file).tracked_returns[0].items[1] = {
        line_item_id: 'li-1007-002',
        quantity: 1,
        reason_id: 'too_small',
        exchange_variant_id: 'sneakers-42',
      }
      const result = await importShop(db, file as unknown as ShopFile)
      expect(result).toEqual({ ok: false, errors: [`${at(file)}.items[1].exchange_variant_id: out of stock`] })
      expect(await db.query('SELECT id FROM shops')).toEqual([])
    } finally {
      await db.close()
    }
  })
})
