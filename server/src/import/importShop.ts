import { randomUUID } from 'node:crypto'
import type { Database } from '../storage/database'
import { insertReturn } from '../storage/returns'
import { emailKey, orderNameKey } from '../domain/normalize'
import type { ShopFile } from './shopFile'
import { resolveDate, validateShopFile } from './validateShopFile'

export type ImportResult = { ok: true; shop: string; orders: number } | { ok: false; errors: string[] }

/**
 * Loads a shop from its file in one transaction: the shop is replaced whole (configuration,
 * reasons, catalogue, orders and their returns). An invalid file changes nothing.
 */
export async function importShop(db: Database, input: unknown, now = new Date()): Promise<ImportResult> {
  const checked = validateShopFile(input)
  if (!checked.ok) return { ok: false, errors: checked.errors }
  const file: ShopFile = checked.file
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM shops WHERE id = $1', [file.shop])
    await tx.query(
      `INSERT INTO shops (id, currency_code, settings, config, config_variants, return_reasons, return_reason_variants, return_address, catalogue)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        file.shop,
        file.currency_code,
        JSON.stringify(file.settings),
        JSON.stringify(file.config),
        JSON.stringify(file.config_variants ?? {}),
        JSON.stringify(file.return_reasons),
        JSON.stringify(file.return_reason_variants ?? {}),
        JSON.stringify(file.return_address),
        JSON.stringify(file.catalogue),
      ],
    )
    for (const order of file.orders) {
      const id = randomUUID()
      await tx.query(
        `INSERT INTO orders (id, shop_id, name, name_key, email_key, processed_at, fulfilled_at, discount, line_items)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          file.shop,
          order.name,
          orderNameKey(order.name),
          emailKey(order.email),
          resolveDate(order.processed_at, now),
          order.fulfilled_at === null ? null : resolveDate(order.fulfilled_at, now),
          order.discount ?? '0',
          JSON.stringify(order.line_items),
        ],
      )
      for (const lines of order.returns ?? []) {
        await insertReturn(
          tx,
          {
            id: randomUUID(),
            orderId: id,
            orderName: order.name,
            idempotencyKey: null,
            requestHash: null,
            answer: null,
            lines: lines.map((line) => ({ lineItemId: line.line_item_id, quantity: line.quantity, exchangeVariantId: null })),
          },
          now,
        )
      }
    }
  })
  return { ok: true, shop: file.shop, orders: file.orders.length }
}
