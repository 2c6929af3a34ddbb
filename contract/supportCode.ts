/**
 * A support code's payload: the shopper's flow and route, so support staff open the same screen
 * with the same choices. A code comes from anyone: its flow goes through the same restore as
 * sessionStorage, then every field the screens read is checked against the stricter schemas here
 * (src/support/supportShape.ts), and each choice against what the order offers (as code).
 *
 * Like `./returnFlow`, never imported by value by the portal's start bundle.
 */
import { Type, type Static } from '@sinclair/typebox'
import { LineItem } from './api'
import { PHOTOS_PER_ITEM } from './constants'
import { readBack, ReturnFlowState } from './returnFlow'

/** A currency code (ISO 4217): three capital letters. */
const Currency = Type.String({ pattern: '^[A-Z]{3}$' })

const strict = readBack({
  /** a decimal amount as the API writes it ("45.00", "-3.5"): never "NaN" or "1e999" */
  money: Type.Object({ amount: Type.String({ pattern: '^-?\\d{1,15}(\\.\\d{1,4})?$' }), currency_code: Currency }),
  currency: Currency,
  count: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  /** 1 to 3 when asked for, absent otherwise */
  photosAsked: Type.Integer({ minimum: 1, maximum: PHOTOS_PER_ITEM }),
  ineligibility: LineItem.properties.ineligible_reason,
})

/** A replayed flow: it has an order, and its order and return orders have the API's exact shape. */
export const SupportFlow = Type.Object({
  ...ReturnFlowState.properties,
  order: strict.order,
  quote: Type.Union([strict.returnOrder, Type.Null()]),
  submitted: Type.Union([strict.returnOrder, Type.Null()]),
})
export type SupportFlow = Static<typeof SupportFlow>

/**
 * A version 1 support code (`RB1.` + base64url(raw deflate(JSON)))'s payload: the shop whose portal
 * made it, the route (one of the flow's), and the flow with the read-only token in place of the
 * order's, no idempotency key and every e-mail masked.
 */
export const SupportCodePayload = Type.Object({
  v: Type.Literal(1),
  shop: Type.String(),
  path: Type.String(),
  flow: SupportFlow,
})
export type SupportCodePayload = Static<typeof SupportCodePayload>
