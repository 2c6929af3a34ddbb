/**
 * The operator import format: one JSON file per shop, loaded by `npm run import-shop -- file.json`
 * and, for the demo shops, on the first start. Documented in README ("Importing a shop").
 *
 * Amounts are decimal strings in the shop's currency ("25.00"). Dates are ISO 8601 timestamps or,
 * for demo and test files, times relative to the import: "now-5d", "now-12h", "now".
 */
import type {
  Address,
  PortalConfig,
  RefundMethod,
  RefundTimings,
  ReturnItemState,
  ReturnReason,
} from '../../../contract/api'

export interface ShopFile {
  /** the portal id in the URL: `acme` for acme.localhost or acme.returns.example.com */
  shop: string
  /** ISO 4217 code of every amount in this file */
  currency_code: string
  settings: ShopSettings
  /** the portal configuration (portal-spec.md §3); `shop` is taken from above */
  config: Omit<PortalConfig, 'shop'>
  /** language variants, served at /portal-registration/config/{shop}-{lang}: fields over `config` */
  config_variants?: Record<string, Partial<Omit<PortalConfig, 'shop' | 'portal_id'>>>
  return_reasons: ReturnReason[]
  /** return reasons' labels per language: { de: { too_small: 'Zu klein' } } */
  return_reason_variants?: Record<string, Record<string, string>>
  return_address: Address
  /** products: what orders were bought from, what exchanges and upsells offer */
  catalogue: CatalogueProductFile[]
  orders: OrderFile[]
}

export interface ShopSettings {
  /** days after fulfilment during which items can be returned */
  return_window_days: number
  /** charged once per return that refunds something (never for exchanges only); "0.00" for none */
  return_fee: string
  /** whether line prices include tax (EU style) or tax is added on top (US style) */
  prices_include_tax: boolean
  /** offer the upsell (exchange for something new) after the items */
  upsell_enabled: boolean
  /**
   * items refunded (not exchanged) whose price per unit paid (after the order discount, as verify
   * shows it) is below this amount are refunded without being sent back. Absent: every item comes back.
   */
  keep_item_below?: string
  /** when the money arrives per refund method, shown on confirm and the status page; absent: no timing words */
  refund_timing?: RefundTimings
}

export interface CatalogueProductFile {
  id: string
  title: string
  image_src?: string | null
  /** offered in upsell exploration (default true) */
  upsell?: boolean
  /** items of this product can be exchanged for its other variants (default true) */
  exchangeable?: boolean
  variants: CatalogueVariantFile[]
}

export interface CatalogueVariantFile {
  id: string
  /** e.g. "M / Blue"; defaults to the option values joined by " / " */
  title?: string
  options: { name: string; value: string }[]
  /** unit price as the shop shows it (tax included when prices_include_tax) */
  price: string
  /** in stock (default true) */
  available?: boolean
  image_src?: string | null
}

export interface OrderFile {
  /** e.g. "#1001"; matched ignoring a leading #, case and surrounding spaces */
  name: string
  email: string
  processed_at: string
  /** null: not fulfilled yet */
  fulfilled_at: string | null
  /** order-level discount, allocated across the lines in proportion to their totals */
  discount?: string
  line_items: LineItemFile[]
  /** returns made before the import (e.g. an order that already has one): the units each took */
  returns?: ReturnLineFile[][]
  /** returns made before the import with reasons and a refund, priced as a shopper's submit, and how far they got */
  tracked_returns?: TrackedReturnFile[]
}

export interface ReturnLineFile {
  line_item_id: string
  quantity: number
}

/** A return made before the import, priced as a shopper's submit would be, with how far it got. */
export interface TrackedReturnFile {
  /** when it was submitted */
  created_at: string
  refund_method?: RefundMethod | null
  items: (ReturnLineFile & { reason_id: string; comment?: string; exchange_variant_id?: string | null })[]
  /** when each later state was reached by all its items: { "in_transit": "now-2d" } */
  progress?: Partial<Record<Exclude<ReturnItemState, 'requested'>, string>>
}

export interface LineItemFile {
  id: string
  /** a variant of the catalogue, or null for a custom item */
  variant_id: string | null
  /** defaults to the catalogue product's title */
  title?: string
  /** defaults to the catalogue variant's title */
  variant_title?: string | null
  /** defaults to the variant's image, then the product's */
  product_src?: string | null
  quantity: number
  /** unit price paid before the order discount, as the shop shows it */
  price: string
  /** e.g. "0.19"; "0" for none */
  tax_rate: string
  final_sale?: boolean
  /** on an exchange order: the variant this line was exchanged from */
  exchange_variant_id?: string | null
}
