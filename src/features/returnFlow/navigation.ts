import { createSelector } from '@reduxjs/toolkit'
import type { ReturnRequest } from '../../../contract/api'
import { paths } from '../../config/paths'
import { isExchangeable } from './eligibility'
import type { ChosenItem, ReturnFlowState } from './returnFlowSlice'

/** A step after which the flow moves on; the start screen and confirm decide nothing here. */
export type Step =
  | { kind: 'products' }
  | { kind: 'return-reason'; lineItemId: string }
  | { kind: 'exchange'; lineItemId: string }
  | { kind: 'upsell-offer' }
  | { kind: 'upsell-explore' }
  | { kind: 'refund-method' }
  | { kind: 'confirm' }

/** What navigation reads: the flow, plus the shop's gift-card multiplier from the configuration. */
export interface NavigationInput {
  flow: Pick<ReturnFlowState, 'order' | 'items' | 'upsell' | 'quote'>
  multiplier: number | null | undefined
}

/** PRODUCT.md §3: a chosen item whose exchange step did not end in an exchange. */
const notExchanged = (item: ChosenItem) => item.exchange?.kind !== 'exchange'

/** The refund value of the stored return order: a number, or null when unknown. */
export function refundValue(flow: NavigationInput['flow']): number | null {
  const amount = flow.quote?.refund_value.presentment_money.amount
  if (typeof amount !== 'string' || !/^-?\d+(\.\d+)?$/.test(amount)) return null
  return Number(amount)
}

/**
 * Rules 3 and 4 of "any other step" (portal-spec.md §2). A new item from the upsell exchanges no
 * item (an item is exchanged only when its own exchange step ends in an exchange); what it leaves
 * to refund is the quote's refund value, zero when it takes the whole credit.
 */
function refundOrConfirm({ flow, multiplier }: NavigationInput): string {
  const someItemNotExchanged = flow.items.some(notExchanged)
  const value = refundValue(flow)
  if (multiplier != null && someItemNotExchanged && (value === null || value > 0)) return paths.refundMethod.build()
  return paths.confirm.build()
}

/** The "any other step" rules (portal-spec.md §2) after the item at `index` (-1: before the first). */
function afterItem(input: NavigationInput, index: number): string {
  const next = input.flow.items[index + 1]
  if (next) return paths.returnReason.build(next.lineItemId)
  const upsellEnabled = input.flow.order?.exchange_data?.upsell_enabled === true
  if (upsellEnabled && input.flow.items.some(notExchanged)) return paths.upsellOffer.build()
  return refundOrConfirm(input)
}

/**
 * The route that follows a step: portal-spec.md §2, "Flow after each item", with PRODUCT.md §3
 * (items in order-line order; the upsell steps go on with rules 3 and 4 and never lead back).
 * @example nextStep({ flow, multiplier: 1.1 }, { kind: 'return-reason', lineItemId: tee.id }) // '/return-item/…/exchange'
 */
export function nextStep(input: NavigationInput, current: Step): string {
  const { flow } = input
  switch (current.kind) {
    case 'products':
      return afterItem(input, -1)
    case 'return-reason': {
      const index = flow.items.findIndex((item) => item.lineItemId === current.lineItemId)
      const line = flow.order?.line_items.find((candidate) => candidate.id === current.lineItemId)
      if (line && isExchangeable(line, flow.order?.exchange_data)) return paths.exchange.build(current.lineItemId)
      const isLast = index === flow.items.length - 1
      if (isLast && flow.order?.exchange_data?.upsell_enabled === true) return paths.upsellOffer.build()
      // Rule 3, "the next item's return-reason step"; after the last item the later rules apply.
      return afterItem(input, index)
    }
    case 'exchange':
      return afterItem(
        input,
        flow.items.findIndex((item) => item.lineItemId === current.lineItemId),
      )
    case 'upsell-offer':
      // Accepting leads to the exploration; declining goes on with rules 3 and 4.
      if (flow.upsell?.kind === 'accepted' && flow.upsell.variantId === null) return paths.upsellExplore.build()
      return refundOrConfirm(input)
    case 'upsell-explore':
      return refundOrConfirm(input)
    case 'refund-method':
      return paths.confirm.build()
    case 'confirm':
      return paths.returnInstruction.build()
  }
}

/**
 * True when the route after `current` hangs on a refund value the flow does not know yet, so the
 * screen asks the server for a quote before moving on.
 */
export function needsQuote(input: NavigationInput, current: Step): boolean {
  if (refundValue(input.flow) !== null || input.multiplier == null) return false
  const known = nextStep(input, current)
  const withZero = nextStep({ ...input, flow: { ...input.flow, quote: zeroQuote } }, current)
  return known !== withZero
}

const zeroMoney = { amount: '0.00', currency_code: 'XXX' }
const zeroBag = { shop_money: zeroMoney, presentment_money: zeroMoney }
const zeroQuote: NonNullable<ReturnFlowState['quote']> = {
  id: null,
  name: null,
  status: 'quote',
  items: [],
  refund_method: null,
  refund_value: zeroBag,
  store_credit_value: null,
  breakdown: {
    items_subtotal: zeroBag,
    tax: zeroBag,
    return_fee: zeroBag,
    bonus: zeroBag,
    upsell: zeroBag,
    total: zeroBag,
  },
  created_at: null,
}

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

/** Memoised: the request for the flow in the store. */
export const selectReturnRequest = createSelector(
  [
    (state: { returnFlow: ReturnFlowState }) => state.returnFlow.items,
    (state: { returnFlow: ReturnFlowState }) => state.returnFlow.upsell,
    (state: { returnFlow: ReturnFlowState }) => state.returnFlow.refundMethod,
  ],
  (items, upsell, refundMethod) => returnRequest({ items, upsell, refundMethod }),
)
