import type { ReturnOrder } from '../contract/api'
import { money } from '../src/testing/builders'

/** The reasons generated returns are given, in turn. */
export const REASONS = ['too_small', 'changed_mind', 'damaged', 'wrong_item'] as const

/** A submitted return as the API stores it: the tee, refunded, for `reason`. */
export function returnOrder(reason: string): ReturnOrder {
  return {
    id: 'generated',
    name: 'generated',
    status: 'requested',
    items: [
      {
        line_item_id: 'generated',
        title: 'Classic Tee',
        variant_title: 'M',
        quantity: 1,
        reason_id: reason,
        reason_label: reason,
        comment: null,
        exchange_variant_id: null,
        exchange_variant_title: null,
        keep: false,
      },
    ],
    refund_method: 'original_payment',
    refund_value: money('25.00'),
    store_credit_value: null,
    breakdown: {
      items_subtotal: money('21.01'),
      tax: money('3.99'),
      return_fee: money('0.00'),
      bonus: money('0.00'),
      upsell: money('0.00'),
      total: money('25.00'),
    },
    created_at: new Date().toISOString(),
  }
}
