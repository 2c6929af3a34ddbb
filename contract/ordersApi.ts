/**
 * The Orders API (docs/api.md: Orders API): how a shop's commerce platform sends Rebound its
 * orders, catalogue and stock, with a key of the shop (`Authorization: Bearer rbk_…`).
 */
import { Type, type Static } from '@sinclair/typebox'
import { oneOf } from './api'

/** The path of one shop's calls: `/api/v1/shops/{shop}/…` (docs/decisions/0074-orders-api-keys.md). */
export const ORDERS_API_PREFIX = '/api/v1/shops'

/** A shop as its path names it: the shop file's `shop` (at most 63 characters). */
export const OrdersApiShopParams = Type.Object({ shop: Type.String({ minLength: 1, maxLength: 63 }) })
export type OrdersApiShopParams = Static<typeof OrdersApiShopParams>

/** GET /api/v1/shops/{shop}: the key's shop and the key, to check an integration's set-up. */
export const OrdersApiShop = Type.Object({
  shop: Type.String(),
  currency_code: Type.String(),
  /** the label staff gave the key that made this call */
  key_label: Type.String(),
})
export type OrdersApiShop = Static<typeof OrdersApiShop>

/** PUT and DELETE /api/v1/shops/{shop}/orders/{name}: the order's name, URL-encoded (`#1001` is `%231001`). */
export const OrdersApiOrderParams = Type.Object({
  ...OrdersApiShopParams.properties,
  name: Type.String({ minLength: 1 }),
})
export type OrdersApiOrderParams = Static<typeof OrdersApiOrderParams>

/** What a PUT of an order, a product or stock did: added, written over, or nothing (the same as stored). */
export const UPSERT_RESULTS = ['created', 'updated', 'unchanged'] as const
const UpsertResult = oneOf(UPSERT_RESULTS)

/** PUT /api/v1/shops/{shop}/orders/{name}: the order's name as stored, and what the call did. */
export const OrderPut = Type.Object({ name: Type.String(), result: UpsertResult })
export type OrderPut = Static<typeof OrderPut>

/** PUT /api/v1/shops/{shop}/catalogue/products/{id} */
export const OrdersApiProductParams = Type.Object({
  ...OrdersApiShopParams.properties,
  id: Type.String({ minLength: 1 }),
})
export type OrdersApiProductParams = Static<typeof OrdersApiProductParams>

/** The product's id, and what the call did. */
export const ProductPut = Type.Object({ id: Type.String(), result: UpsertResult })
export type ProductPut = Static<typeof ProductPut>

/** Variants set at most in one stock call. */
export const STOCK_MAX_VARIANTS = 1000

/** PUT /api/v1/shops/{shop}/stock: each variant on sale or not (decision 0050: a flag, not a count). */
export const StockUpdate = Type.Object(
  {
    variants: Type.Array(
      Type.Object(
        { id: Type.String({ minLength: 1, maxLength: 128 }), available: Type.Boolean() },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: STOCK_MAX_VARIANTS },
    ),
  },
  { additionalProperties: false },
)
export type StockUpdate = Static<typeof StockUpdate>

/** The variants the call named, and how many of them it changed. */
export const StockUpdated = Type.Object({ variants: Type.Integer(), changed: Type.Integer() })
export type StockUpdated = Static<typeof StockUpdated>

/**
 * A refusal of the Orders API: `{error, message}` as every error of the API, and for a body
 * refused, `errors`: each problem on a line of its own, starting with the field it is about
 * (`line_items[0].price: must be a decimal amount like "25.00"`), as the shop file's import
 * reports them. `message` is the same lines joined.
 */
export const OrdersApiError = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Array(Type.String())),
})
export type OrdersApiError = Static<typeof OrdersApiError>
