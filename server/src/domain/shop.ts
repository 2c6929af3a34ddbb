/**
 * The shapes of a shop and its orders as the rules read them (docs/architecture.md): the domain
 * defines them, storage maps its rows to them, and the import's shop-file types, derived from its
 * schema, are checked against them (server/src/import/shopFile.ts). The settings' and the orders'
 * amounts are minor units of the shop's currency, read where they enter
 * (docs/decisions/0096-orders-settings-minor.md); the catalogue's are decimal strings
 * ("25.00"), as the shop file gives them.
 */
import type {
  Address,
  PortalConfig,
  RefundMethod,
  RefundTiming,
  ReturnReason,
  VariantOption,
} from '../../../contract/api'
import type { Minor } from '../../../contract/money'
import type { ShopPolicy } from '../../../contract/policy'

/** The shop's settings (docs/shop-file.md), their amounts in minor units of the shop's currency. */
export interface ShopSettings {
  /** days after fulfilment during which items can be returned */
  return_window_days: number
  /** charged once per return that refunds something (never for exchanges only); 0 for none */
  return_fee: Minor
  /** whether line prices include tax (EU style) or tax is added on top (US style) */
  prices_include_tax: boolean
  /** offer the upsell (exchange for something new) after the items */
  upsell_enabled: boolean
  /** items refunded below this price per unit paid are not sent back; null: every item comes back */
  keep_item_below: Minor | null
  /** when the money arrives per refund method; absent: no timing words */
  refund_timing?: Partial<Record<RefundMethod, RefundTiming>> | undefined
}

/**
 * The settings as the shop file gives them and storage keeps them: amounts as decimal strings
 * ("3.95"), `keep_item_below` absent for none. Read into ShopSettings where they enter
 * (domain/shopMoney.ts).
 */
export interface ShopSettingsFile extends Omit<ShopSettings, 'return_fee' | 'keep_item_below'> {
  return_fee: string
  keep_item_below?: string | undefined
}

export interface CatalogueVariant {
  id: string
  /** defaults to the option values joined by " / " */
  title?: string | undefined
  options: VariantOption[]
  /** unit price as the shop shows it (tax included when prices_include_tax) */
  price: string
  /** in stock (default true) */
  available?: boolean | undefined
  image_src?: string | null | undefined
}

export interface CatalogueProduct {
  id: string
  title: string
  image_src?: string | null | undefined
  /** offered in upsell exploration (default true) */
  upsell?: boolean | undefined
  /** items of this product can be exchanged for its other variants (default true) */
  exchangeable?: boolean | undefined
  /** what the shop's policy names products by */
  tags?: string[] | undefined
  variants: CatalogueVariant[]
}

/** A line of an order. */
export interface LineItem {
  id: string
  /** a variant of the catalogue, or null for a custom item */
  variant_id: string | null
  title?: string | undefined
  variant_title?: string | null | undefined
  product_src?: string | null | undefined
  quantity: number
  /** unit price paid before the order discount, as the shop shows it, in minor units */
  price: Minor
  /** e.g. "0.19"; "0" for none */
  tax_rate: string
  final_sale?: boolean | undefined
  /** on an exchange order: the variant this line was exchanged from */
  exchange_variant_id?: string | null | undefined
}

/**
 * A line as the shop file gives it and storage keeps it: its price a decimal string ("25.00").
 * Read into a LineItem where it enters (domain/shopMoney.ts).
 */
export interface LineItemFile extends Omit<LineItem, 'price'> {
  price: string
}

/** The portal's configuration as the shop sets it: the contract's, its `shop` taken from the shop's id. */
export type ShopConfig = Omit<PortalConfig, 'shop'>

/** The sender of the shoppers' e-mails. */
export interface EmailSender {
  from: string
  reply_to?: string | undefined
}

/** A shop: its file without the orders. */
export interface Shop {
  id: string
  currency_code: string
  settings: ShopSettings
  config: ShopConfig
  /** fields over `config` per language */
  config_variants: Record<string, Omit<ShopConfig, 'portal_id'>>
  return_reasons: ReturnReason[]
  /** return reasons' labels per language: { de: { too_small: 'Zu klein' } } */
  return_reason_variants: Record<string, Record<string, string>>
  return_address: Address
  catalogue: CatalogueProduct[]
  /** the shop's sender for shoppers' e-mails; null: Rebound's own address */
  email: EmailSender | null
  /** the return policy (docs/lifecycle.md): `{}` is the shop's settings alone */
  policy: ShopPolicy
  /**
   * the policy's `review.over_amount` in minor units, read with the policy (reviewOverMinor), not
   * each time the review rules run; null when the policy has no such rule
   */
  review_over_minor: Minor | null
}

/** An order of a shop. */
export interface Order {
  id: string
  shop_id: string
  name: string
  email_key: string
  processed_at: Date
  fulfilled_at: Date | null
  /** the order's discount, in minor units; 0 for none */
  discount: Minor
  line_items: LineItem[]
  /** where the order was shipped: the label's sender; null for an order without one */
  shipping_address: Address | null
}
