import fc from 'fast-check'
import { formatMoney } from '../../components/format'
import { completeFlow, readPersisted, spoiledPersistedText } from '../../testing/persisted'
import { exchangeOptions, isExchangeable } from './eligibility'
import { needsQuote, nextStep, refundValue, type Step } from './navigation'
import { returnRequest } from './returnRequest'
import { restoreReturnFlow } from './restore'
import type { MoneyBag, ReturnOrder } from '../../../contract/api'
import type { ReturnFlowState } from './returnFlowSlice'

/**
 * restoreReturnFlow against whatever sessionStorage may hold: a complete flow spoiled in every
 * way, and JSON of any shape. The result must be a flow the screens can read, field by field.
 */

const money = (bag: MoneyBag) => [formatMoney(bag.shop_money), formatMoney(bag.presentment_money)]
const returnOrder = (order: ReturnOrder) => [
  ...money(order.refund_value),
  ...(order.store_credit_value ? money(order.store_credit_value) : []),
  ...Object.values(order.breakdown).flatMap((part) => (typeof part === 'object' ? money(part) : [])),
  ...order.items.map(
    (item) =>
      `${item.title} ${item.variant_title ?? ''} ${item.reason_label} ${item.exchange_variant_title ?? ''} ${item.quantity.toFixed(0)}`,
  ),
]

/** Reads every field the screens read, as they read it: throws where a screen would. */
function readAsScreens(flow: ReturnFlowState): unknown[] {
  const seen: unknown[] = [flow.launch.lang?.toLowerCase(), flow.launch.testMode]
  const order = flow.order
  if (!order) return seen
  const data = order.exchange_data
  for (const line of order.line_items) {
    seen.push(
      line.title.trim(),
      line.variant_title?.trim(),
      ...money(line.price),
      line.returnable_quantity.toFixed(0),
      line.product_src?.startsWith('https:'),
    )
    for (const id of exchangeOptions(line, data))
      seen.push(data!.variants[id]!.title.trim(), ...money(data!.variants[id]!.price), data!.variants[id]!.available)
  }
  seen.push(...order.return_reasons.map((reason) => `${reason.label.trim()} ${reason.comment_required}`))
  for (const item of flow.items) {
    const line = order.line_items.find((candidate) => candidate.id === item.lineItemId)!
    seen.push(
      line.title,
      item.quantity <= line.returnable_quantity,
      item.reason?.comment.trim(),
      isExchangeable(line, data),
    )
    if (item.exchange?.kind === 'exchange') seen.push(data!.variants[item.exchange.variantId]!.title.trim())
  }
  if (flow.quote) seen.push(...returnOrder(flow.quote))
  if (flow.submitted) seen.push(...returnOrder(flow.submitted), flow.submitted.id!.trim(), flow.submitted.name!.trim())
  const steps: Step[] = [
    { kind: 'products' },
    ...flow.items.flatMap((item): Step[] => [
      { kind: 'return-reason', lineItemId: item.lineItemId },
      { kind: 'exchange', lineItemId: item.lineItemId },
    ]),
    { kind: 'upsell-offer' },
    { kind: 'upsell-explore' },
    { kind: 'refund-method' },
    { kind: 'confirm' },
  ]
  for (const multiplier of [null, 1.1])
    for (const step of steps) seen.push(nextStep({ flow, multiplier }, step), needsQuote({ flow, multiplier }, step))
  seen.push(refundValue(flow), JSON.stringify(returnRequest(flow)))
  return seen
}

/** The restored flow is valid, readable by every screen, and restoring it again changes nothing. */
function expectSound(stored: unknown) {
  const restored = restoreReturnFlow(stored)
  expect(() => readAsScreens(restored)).not.toThrow()
  expect(restoreReturnFlow(JSON.parse(JSON.stringify(restored)))).toEqual(restored)
  const lines = new Set(restored.order?.line_items.map((line) => line.id))
  expect(restored.items.every((item) => lines.has(item.lineItemId))).toBe(true)
  expect(new Set(restored.items.map((item) => item.lineItemId)).size).toBe(restored.items.length)
}

test('the complete flow is restored as it was (the ground for the properties below)', () => {
  expect(
    restoreReturnFlow(
      readPersisted(
        JSON.stringify(Object.fromEntries([...Object.entries(completeFlow()).map(([k, v]) => [k, JSON.stringify(v)])])),
      ),
    ),
  ).toEqual(completeFlow())
  expect(() => readAsScreens(completeFlow())).not.toThrow()
})

test('a complete flow spoiled one to three times (fields changed or removed, text cut, another version): a sound flow', () => {
  fc.assert(
    fc.property(spoiledPersistedText, (text) => expectSound(readPersisted(text))),
    { numRuns: 4000 },
  )
})

test('JSON of any shape, and objects with the flow’s field names holding anything: a sound flow', () => {
  const flowShaped = fc.record(
    {
      launch: fc.jsonValue(),
      order: fc.jsonValue(),
      items: fc.jsonValue(),
      upsell: fc.jsonValue(),
      refundMethod: fc.jsonValue(),
      quote: fc.jsonValue(),
      idempotencyKey: fc.jsonValue(),
      submitted: fc.jsonValue(),
    },
    { requiredKeys: [] },
  )
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue(), flowShaped, fc.anything()), (value) => expectSound(value)),
    { numRuns: 2000 },
  )
})
