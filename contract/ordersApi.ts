/**
 * The Orders API (docs/api.md: Orders API): how a shop's commerce platform sends Rebound its
 * orders, catalogue and stock, with a key of the shop (`Authorization: Bearer rbk_…`).
 */
import { Type, type Static } from '@sinclair/typebox'

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
