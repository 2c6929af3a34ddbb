import type { QuoteRequest, ReturnRequest } from '../../../contract/api'
import type { Launch, ReturnFlowState } from './returnFlowSlice'

/** The body of a quote or submit for the current choices; null while an item has no reason. */
export function returnRequest(flow: Pick<ReturnFlowState, 'items' | 'upsell' | 'refundMethod'>): ReturnRequest | null {
  if (flow.items.length === 0 || flow.items.some((item) => item.reason === null)) return null
  return {
    items: flow.items.map((item) => ({
      line_item_id: item.lineItemId,
      quantity: item.quantity,
      reason_id: item.reason!.id,
      ...(item.reason!.comment.trim() ? { comment: item.reason!.comment.trim() } : {}),
      exchange_variant_id: item.exchange?.kind === 'exchange' ? item.exchange.variantId : null,
      ...(item.reason!.photoIds?.length ? { photo_ids: item.reason!.photoIds } : {}),
    })),
    upsell_variant_id: flow.upsell?.kind === 'accepted' ? flow.upsell.variantId : null,
    refund_method: flow.refundMethod,
  }
}

/**
 * The body of a quote: in a preview (`?config=`), priced with the multiplier the shopper sees, so
 * the amounts match the bonus shown. Such a quote is never submitted: a return is priced with the
 * shop's own multiplier (docs/decisions/0042-previewed-bonus.md).
 */
export function quoteBody(request: ReturnRequest, launch: Launch, multiplier: number | null | undefined): QuoteRequest {
  return launch.configOverride !== null && typeof multiplier === 'number' && multiplier >= 1 && multiplier <= 10
    ? { ...request, preview_multiplier: multiplier }
    : request
}
