import type { Money } from '../../../contract/api'
import { newStoreCreditCode } from '../domain/storeCredit'
import type { Queryable } from './database'

/** Store credit issued for a return: its code and what it is worth (decision 0064). */
export interface StoreCredit {
  code: string
  amount: Money
  issued_at: string
}

interface CreditRow {
  code: string
  amount: string
  currency_code: string
  /** a Date, or its JSON text */
  issued_at: Date | string
}

/**
 * The return's store credit as one JSON object, null when none: an SQL expression over the return
 * whose id is `returnId`, so that a read of a whole return takes it in its one statement (readShopReturn).
 */
export const storeCreditJson = (returnId: string) =>
  `(SELECT json_build_object('code', c.code, 'amount', c.amount, 'currency_code', c.currency_code, 'issued_at', c.issued_at)
      FROM store_credits c WHERE c.return_id = ${returnId})`

/** The store credit of a row of storeCreditJson. */
export const creditOf = (row: CreditRow): StoreCredit => ({
  code: row.code,
  amount: { amount: row.amount, currency_code: row.currency_code },
  issued_at: new Date(row.issued_at).toISOString(),
})

/**
 * Issues the return's store credit once, in the caller's transaction: a new code the first time,
 * the one issued before after that (a change told twice never makes two codes).
 */
export async function issueStoreCredit(
  tx: Queryable,
  credit: { returnId: string; shopId: string; amount: Money; at: Date },
): Promise<StoreCredit> {
  // The new code as written; none written (issued before), the one issued then is read.
  const [issued] = await tx.query<CreditRow>(
    `INSERT INTO store_credits (return_id, shop_id, code, amount, currency_code, issued_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (return_id) DO NOTHING
     RETURNING code, amount, currency_code, issued_at`,
    [
      credit.returnId,
      credit.shopId,
      newStoreCreditCode(),
      credit.amount.amount,
      credit.amount.currency_code,
      credit.at,
    ],
  )
  return issued ? creditOf(issued) : (await findStoreCredit(tx, credit.returnId))!
}

/** The store credit issued for a return; null before (or when it refunds otherwise). */
export async function findStoreCredit(db: Queryable, returnId: string): Promise<StoreCredit | null> {
  const [row] = await db.query<{ credit: CreditRow | null }>(`SELECT ${storeCreditJson('$1')} AS credit`, [returnId])
  return row?.credit ? creditOf(row.credit) : null
}
