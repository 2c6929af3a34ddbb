import { readMinor } from '../../../contract/money'
import { paths } from '../../../contract/paths'
import { isExchangeable } from './eligibility'
import type { ChosenItem, ReturnFlowState } from './returnFlowSlice'

/*
 * All of the flow's navigation: where a URL is (stepAt), which launch and configuration it goes
 * with, the step after each step, Back without history, and when the next step waits for a quote.
 *
 * Where-the-shopper-is lives in ./location, re-exported here: the boot, the shell and the routes
 * import it from there, so that the start screen's bundle takes it without the flow's rules.
 */
export { configIdFor, FLOW_ROUTES, launchAt, stepAt, type FlowRoute } from './location'

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

/** docs/rules.md §7.5: a chosen item whose exchange step did not end in an exchange. */
const notExchanged = (item: ChosenItem) => item.exchange?.kind !== 'exchange'

/** The refund value of the stored return order in minor units, or null when unknown. */
export function refundValue(flow: NavigationInput['flow']): number | null {
  const money = flow.quote?.refund_value.presentment_money
  return money ? readMinor(money) : null
}

/**
 * Rules 3 and 4 choose between the refund method and confirm by the refund value only when the
 * shop offers store credit (a multiplier) and some item is refunded. A new item from the upsell
 * exchanges no item (an item is exchanged only when its own exchange step ends in an exchange).
 */
const valueDecides = ({ flow, multiplier }: NavigationInput) => multiplier != null && flow.items.some(notExchanged)

/**
 * Rules 3 and 4 of "any other step" (docs/rules.md §7.3): what is left to refund is the quote's
 * refund value, zero when a new item takes the whole credit; unknown, the shopper is asked.
 */
function refundOrConfirm(input: NavigationInput): string {
  const value = refundValue(input.flow)
  return valueDecides(input) && (value === null || value > 0) ? paths.refundMethod.build() : paths.confirm.build()
}

/** The route a step leads to, or null where rules 3 and 4 decide (refundOrConfirm). */
type Route = string | null

/** The "any other step" rules (docs/rules.md §7.3) after the item at `index` (-1: before the first). */
function afterItem({ flow }: NavigationInput, index: number): Route {
  const next = flow.items[index + 1]
  if (next) return paths.returnReason.build(next.lineItemId)
  const upsellEnabled = flow.order?.exchange_data?.upsell_enabled === true
  if (upsellEnabled && flow.items.some(notExchanged)) return paths.upsellOffer.build()
  return null
}

/** The route after `current` as the rules give it, before any refund value is read. */
function routeAfter(input: NavigationInput, current: Step): Route {
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
      return null
    case 'upsell-explore':
      return null
    case 'refund-method':
      return paths.confirm.build()
    case 'confirm':
      return paths.returnInstruction.build()
  }
}

/**
 * The route that follows a step: docs/rules.md §7
 * (items in order-line order; the upsell steps go on with rules 3 and 4 and never lead back).
 * @example nextStep({ flow, multiplier: 1.1 }, { kind: 'return-reason', lineItemId: tee.id }) // '/return-item/…/exchange'
 */
export function nextStep(input: NavigationInput, current: Step): string {
  return routeAfter(input, current) ?? refundOrConfirm(input)
}

/**
 * True when the route after `current` hangs on a refund value the flow does not know yet: rules
 * 3 and 4 decide it, by the value, and no quote of the current choices is stored. The step then
 * asks the server for a quote before moving on.
 */
export function needsQuote(input: NavigationInput, current: Step): boolean {
  return routeAfter(input, current) === null && valueDecides(input) && refundValue(input.flow) === null
}

/** The last chosen item's last step: its exchange step, or its reason step when it has none. */
function lastItemStep({ items, order }: BackInput): string {
  const last = items.at(-1)
  if (!last) return paths.products.build()
  const line = order?.line_items.find((candidate) => candidate.id === last.lineItemId)
  return line && isExchangeable(line, order?.exchange_data)
    ? paths.exchange.build(last.lineItemId)
    : paths.returnReason.build(last.lineItemId)
}

/** The step before the refund method (and before confirm without one): the upsell step taken, else the last item's. */
function beforeRefundMethod(flow: BackInput): string {
  if (flow.upsell?.kind === 'accepted') return paths.upsellExplore.build()
  if (flow.upsell?.kind === 'declined') return paths.upsellOffer.build()
  return lastItemStep(flow)
}

type BackInput = Pick<ReturnFlowState, 'items' | 'order' | 'upsell' | 'refundMethod'>

/**
 * Where Back goes from a step when the browser has no earlier step of this session (a fresh tab,
 * a link): the step before it by the choices made, so never a step the shopper did not see.
 */
export function previousStep(flow: BackInput, current: Step): string {
  switch (current.kind) {
    case 'products':
      return paths.start.build()
    case 'return-reason':
      return paths.products.build()
    case 'exchange':
      return paths.returnReason.build(current.lineItemId)
    case 'upsell-offer':
      return lastItemStep(flow)
    case 'upsell-explore':
      return paths.upsellOffer.build()
    case 'refund-method':
      return beforeRefundMethod(flow)
    case 'confirm':
      return flow.refundMethod ? paths.refundMethod.build() : beforeRefundMethod(flow)
  }
}
