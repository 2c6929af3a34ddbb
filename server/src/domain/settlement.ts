/**
 * How a return settles, read from a few values of its stored answer (docs/back-office.md: the
 * returns list): its outcome, and what the shopper gets back after the inspections' deductions.
 */
import type { Money, ReturnOrder } from '../../../contract/api'
import { fromMinor, toMinor } from '../../../contract/money'
import type { ReturnOutcome } from '../../../contract/staff'
import { refundAfterDeductions } from './inspection'

/**
 * What a return's outcome and refund are read from: a few values of its stored answer, null for a
 * return imported without one. The list reads only these from the database (docs/back-office.md).
 */
export interface Settlement {
  /** a new item was bought with the credit */
  upsell: boolean
  lines: number
  exchanged: number
  refund_method: string | null
  refund_value: Money
  store_credit_value: Money | null
}

export function settlementOf(order: ReturnOrder): Settlement {
  return {
    upsell: Boolean(order.new_item),
    lines: order.items.length,
    exchanged: order.items.filter((item) => item.exchange_variant_id !== null).length,
    refund_method: order.refund_method,
    refund_value: order.refund_value.shop_money,
    store_credit_value: order.store_credit_value?.shop_money ?? null,
  }
}

export function outcomeOfSettlement(settled: Settlement): ReturnOutcome {
  if (settled.upsell) return 'upsell'
  if (settled.exchanged === settled.lines) return 'exchange'
  if (settled.exchanged > 0) return 'mixed'
  return settled.refund_method === 'store_credit' ? 'store_credit' : 'refund'
}

/** How a return settles, from what the shopper chose. */
export function outcomeOf(order: ReturnOrder | null): ReturnOutcome | null {
  return order && outcomeOfSettlement(settlementOf(order))
}

/** What the shopper gets back: the refund or credit as submitted, less the inspections' deductions, never below zero. */
export function refundOf(settled: Settlement, deducted: number): Money {
  const refund =
    settled.refund_method === 'store_credit' && settled.store_credit_value
      ? settled.store_credit_value
      : settled.refund_value
  if (!(deducted > 0)) return refund
  const currency = refund.currency_code
  return {
    amount: fromMinor(refundAfterDeductions(toMinor(refund.amount, currency), [deducted]), currency),
    currency_code: currency,
  }
}
