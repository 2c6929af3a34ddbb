import type { RefundMethod, ReturnOrder, ReturnOrderItem, ReturnProblem, ReturnRequest } from '../../../contract/api'
import { isLeaf, reasonPath } from '../../../contract/reasonTree'
import { indexCatalogue } from './catalogue'
import { keepsItem } from './keepItems'
import { moneyBag, type Minor } from '../../../contract/money'
import { orderPricing, unitPricesPaid } from './orderPricing'
import { computeRefund, type RefundFigures } from './refund'
import { feeWaived, refusedByRule } from './policy'
import type { Order, Shop } from './shop'

/** A request that cannot be priced: each problem names its field, e.g. `items[0].quantity`. */
export interface RequestProblems {
  problems: ReturnProblem[]
}

export const problem = (field: string, what: ReturnProblem['problem'], message: string): ReturnProblem => ({
  field,
  problem: what,
  message,
})

/** The problems as one line of words: `items[0].quantity: at most 1 can be returned; …`. */
export const problemsInWords = (problems: readonly ReturnProblem[]) =>
  problems.map(({ field, message }) => `${field}: ${message}`).join('; ')

export interface PricedReturn {
  order: ReturnOrder
  /** what the return takes from each line, for the ledger of returned units */
  lines: { lineItemId: string; quantity: number; exchangeVariantId: string | null }[]
  /** what one unit of each line of the order cost after its share of the discount, by line id (unitPricesPaid) */
  unitPaid: ReadonlyMap<string, Minor>
}

/**
 * Checks a return request against the order as it is now (units still returnable, the policy's
 * final-sale and window rules, the shop's reasons, exchange options, stock, the upsell's price
 * against the credit) and prices it.
 */
export function priceReturn(
  shop: Shop,
  order: Order,
  returned: Map<string, number>,
  request: ReturnRequest,
  /** a preview's multiplier (quotes only): docs/decisions/0042-previewed-bonus.md */
  previewMultiplier: number | undefined,
  /** when the request is made: a window rule's end is judged at it */
  now: Date,
): PricedReturn | RequestProblems {
  const problems: ReturnProblem[] = []
  const fail = (field: string, what: ReturnProblem['problem'], message: string) =>
    void problems.push(problem(field, what, message))
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const currency = shop.currency_code
  const lines = new Map(order.line_items.map((line) => [line.id, line]))
  const seen = new Set<string>()
  const items: ReturnOrderItem[] = []
  const pricing = orderPricing(shop, order)
  const paid = unitPricesPaid(pricing)
  const threshold = shop.settings.keep_item_below

  request.items.forEach((item, index) => {
    const at = `items[${index}]`
    const line = lines.get(item.line_item_id)
    if (!line) return fail(`${at}.line_item_id`, 'unknown_item', 'no such item in this order')
    if (seen.has(line.id)) return fail(`${at}.line_item_id`, 'listed_twice', 'this item is listed twice')
    seen.add(line.id)
    // As verify decides it (docs/lifecycle.md): a final-sale rule, or a window rule that has ended.
    const refused = line.final_sale === true || refusedByRule(shop, line, order.fulfilled_at, now)
    const left = refused ? 0 : Math.max(0, line.quantity - (returned.get(line.id) ?? 0))
    if (left === 0) fail(`${at}.line_item_id`, 'not_returnable', 'this item can no longer be returned')
    else if (item.quantity > left) fail(`${at}.quantity`, 'too_many', `at most ${left} can be returned`)
    // Only a leaf of the reasons' tree is a reason; its label names the way to it ("Not as described: Wrong item sent").
    const path = reasonPath(shop.return_reasons, item.reason_id)
    const reason = path?.at(-1) ?? null
    if (!reason) fail(`${at}.reason_id`, 'unknown_reason', "not one of the shop's return reasons")
    else if (!isLeaf(reason)) fail(`${at}.reason_id`, 'reason_has_sub_reasons', 'has sub-reasons; choose one of them')
    const comment = item.comment?.trim() || null
    if (reason?.comment_required && !comment) fail(`${at}.comment`, 'comment_required', 'this reason needs a comment')
    const exchangeId = item.exchange_variant_id ?? null
    let exchangeTitle: string | null = null
    if (exchangeId !== null) {
      const product = line.variant_id ? catalogue.product(line.variant_id) : null
      const target = catalogue.variant(exchangeId)
      const offered =
        product && product.exchangeable !== false && product.variants.some((variant) => variant.id === exchangeId)
      if (!offered || exchangeId === line.variant_id || !target)
        fail(`${at}.exchange_variant_id`, 'exchange_not_offered', 'not an exchange option of this item')
      else if (!target.available) fail(`${at}.exchange_variant_id`, 'out_of_stock', 'out of stock')
      exchangeTitle = target?.title ?? null
    }
    const variant = line.variant_id ? catalogue.variant(line.variant_id) : null
    items.push({
      line_item_id: line.id,
      title: line.title ?? variant?.product_title ?? 'Item',
      variant_title: line.variant_title !== undefined ? line.variant_title : (variant?.title ?? null),
      quantity: item.quantity,
      reason_id: item.reason_id,
      reason_label: path ? path.map((step) => step.label).join(': ') : item.reason_id,
      comment,
      exchange_variant_id: exchangeId,
      exchange_variant_title: exchangeTitle,
      keep: keepsItem({ unitPaid: paid.get(line.id)!, threshold, exchanged: exchangeId !== null }),
    })
  })

  const upsellId = request.upsell_variant_id ?? null
  const upsell = upsellId === null ? null : catalogue.variant(upsellId)
  if (upsellId !== null) {
    const product = catalogue.product(upsellId)
    if (!shop.settings.upsell_enabled) fail('upsell_variant_id', 'no_upsell', 'this shop offers no upsell')
    else if (!upsell || product?.upsell === false) fail('upsell_variant_id', 'not_in_catalogue', 'not in the catalogue')
    else if (!upsell.available) fail('upsell_variant_id', 'out_of_stock', 'out of stock')
  }
  if (problems.length > 0) return { problems }

  const shopMultiplier = shop.config.gift_card_value_multiplier
  const previewed = previewMultiplier !== undefined && previewMultiplier !== shopMultiplier
  const multiplier = previewed ? previewMultiplier : shopMultiplier
  const refundInput = {
    order: pricing,
    returned: items.map((item) => ({
      lineId: item.line_item_id,
      quantity: item.quantity,
      exchanged: item.exchange_variant_id !== null,
      kept: item.keep === true,
    })),
    returnFee: shop.settings.return_fee,
    multiplier: typeof multiplier === 'number' ? String(multiplier) : null,
    refundMethod: request.refund_method ?? null,
    upsellPrice: upsell ? catalogue.price(upsell.id)! : 0,
  }
  const charged = computeRefund(refundInput)
  // A fee the shop waives for the reasons it marks: priced as none, and said to be waived.
  const waived = charged.returnFee > 0 && feeWaived(shop.policy, shop.return_reasons, items)
  const figures = waived ? computeRefund({ ...refundInput, returnFee: 0 }) : charged
  if (upsell && upsellCostsTooMuch(figures))
    return {
      problems: [problem('upsell_variant_id', 'costs_more_than_credit', 'costs more than the credit of this return')],
    }

  const priced = withTiming(toReturnOrder(items, request.refund_method ?? null, figures, currency, waived), shop)
  const answer = previewed ? { ...priced, preview_multiplier: previewMultiplier } : priced
  return {
    // The new item as the catalogue has it now: kept with the return, its status page shows it.
    order: upsell
      ? {
          ...answer,
          new_item: {
            variant_id: upsell.id,
            product_title: upsell.product_title,
            title: upsell.title,
            price: upsell.price,
            image_src: upsell.image_src,
          },
        }
      : answer,
    lines: items.map((item) => ({
      lineItemId: item.line_item_id,
      quantity: item.quantity,
      exchangeVariantId: item.exchange_variant_id,
    })),
    unitPaid: paid,
  }
}

/** The shop's refund timing rides on the quote and the return; a shop without one adds nothing. */
function withTiming(order: ReturnOrder, shop: Shop): ReturnOrder {
  const timing = shop.settings.refund_timing
  return timing && Object.keys(timing).length > 0 ? { ...order, refund_timing: timing } : order
}

function upsellCostsTooMuch(figures: RefundFigures): boolean {
  return figures.upsell > figures.credit
}

function toReturnOrder(
  items: ReturnOrderItem[],
  method: RefundMethod | null,
  figures: RefundFigures,
  currency: string,
  feeWaived: boolean,
): ReturnOrder {
  const bag = (minor: Minor) => moneyBag(minor, currency)
  return {
    id: null,
    name: null,
    status: 'quote',
    items,
    refund_method: method,
    refund_value: bag(figures.refundValue),
    store_credit_value: figures.storeCreditValue === null ? null : bag(figures.storeCreditValue),
    breakdown: {
      items_subtotal: bag(figures.itemsSubtotal),
      tax: bag(figures.tax),
      return_fee: bag(figures.returnFee),
      ...(feeWaived ? { return_fee_waived: true } : {}),
      bonus: bag(figures.bonus),
      upsell: bag(figures.upsell),
      total: bag(figures.total),
      kept_items: bag(figures.keptValue),
    },
    created_at: null,
  }
}
