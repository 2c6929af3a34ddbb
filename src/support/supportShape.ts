import { Check } from '@sinclair/typebox/value'
import { SupportCodePayload } from '../../contract/supportCode'
import { findLeafReason } from '../../contract/reasonTree'
import { refundTimingsHold } from '../features/returnFlow/restore'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'

/**
 * restoreReturnFlow trusts the order and return orders once they have the API's shape
 * (sessionStorage is written by the portal itself). A support code comes from anyone, so before
 * its state reaches the screens every field they read is checked against the support code's
 * schemas (contract/supportCode.ts), and each choice against what the order offers.
 */

export type FlowWithOrder = ReturnFlowState & { order: NonNullable<ReturnFlowState['order']> }

/** Each chosen item's reason is one of the order's and its exchange one the order offers for it. */
function choicesOffered(flow: FlowWithOrder): boolean {
  const lines = new Map(flow.order.line_items.map((line) => [line.id, line]))
  return flow.items.every((item) => {
    // A chosen reason is a leaf (its photos, ids never images, are the schema's).
    if (item.reason && !findLeafReason(flow.order.return_reasons, item.reason.id)) return false
    if (item.exchange?.kind !== 'exchange') return true
    const variantId = lines.get(item.lineItemId)?.variant_id
    return Boolean(variantId && flow.order.exchange_data?.options[variantId]?.includes(item.exchange.variantId))
  })
}

/** Whether a restored flow has an order, and every field the screens read has the contract's type. */
export function isCompleteFlow(flow: ReturnFlowState): flow is FlowWithOrder {
  return (
    Check(SupportCodePayload.properties.flow, flow) &&
    (flow.quote === null || refundTimingsHold(flow.quote)) &&
    (flow.submitted === null || refundTimingsHold(flow.submitted)) &&
    choicesOffered(flow)
  )
}
