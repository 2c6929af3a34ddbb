/**
 * The shop file's shape as a TypeBox schema (JSON Schema, draft-07), with the types the import is
 * written against derived from it. The parts that are shapes of the Portal API come from the
 * contract's schemas (apiShapes.ts); so do the variant options here.
 */
import { Type, type Static } from '@sinclair/typebox'
import { RefundMethod, ReturnItemState, VariantOption, oneOf } from '../../../contract/api'
import { REFUND_METHODS, WEBHOOK_EVENTS } from '../../../contract/constants'
import { ShopPolicy, Tag } from '../../../contract/policy'
import { ENGINE_URL_PATTERN } from '../../../contract/staff'
import { AddressFile, ConfigFile, ConfigVariantFile, ReasonFile, RefundTimingsFile } from './apiShapes'
import { LIMITS } from './limits'
import {
  Amount,
  DateText,
  Email,
  Fields,
  Id,
  Keyed,
  List,
  NonEmpty,
  OrNull,
  Quantity,
  TaxRate,
  Text,
  Url,
  textLimits,
  urlLimits,
  withLimits,
} from './shopFileFields'

export const ShopSettings = Fields({
  /** days after fulfilment during which items can be returned */
  return_window_days: Type.Integer({
    minimum: 0,
    maximum: LIMITS.returnWindowDays,
    errorMessage: `must be a whole number of days from 0 to ${LIMITS.returnWindowDays}`,
  }),
  /** charged once per return that refunds something (never for exchanges only); "0.00" for none */
  return_fee: Amount,
  /** whether line prices include tax (EU style) or tax is added on top (US style) */
  prices_include_tax: Type.Boolean(),
  /** offer the upsell (exchange for something new) after the items */
  upsell_enabled: Type.Boolean(),
  /**
   * items refunded (not exchanged) whose price per unit paid (after the order discount, as verify
   * shows it) is below this amount are refunded without being sent back. Absent: every item comes back.
   */
  keep_item_below: Type.Optional(Amount),
  /** when the money arrives per refund method, shown on confirm and the status page; absent: no timing words */
  refund_timing: Type.Optional(RefundTimingsFile),
})
export type ShopSettings = Static<typeof ShopSettings>

const option = VariantOption.properties
export const CatalogueVariantFile = Fields({
  id: Id,
  /** e.g. "M / Blue"; defaults to the option values joined by " / " */
  title: Type.Optional(Text(LIMITS.title)),
  options: List(
    Fields({
      name: withLimits(option.name, textLimits(100, true)),
      value: withLimits(option.value, textLimits(100, true)),
    } satisfies typeof option),
    LIMITS.optionsPerVariant,
  ),
  /** unit price as the shop shows it (tax included when prices_include_tax) */
  price: Amount,
  /** in stock (default true) */
  available: Type.Optional(Type.Boolean()),
  image_src: Type.Optional(OrNull(Url)),
})
export type CatalogueVariantFile = Static<typeof CatalogueVariantFile>

export const CatalogueProductFile = Fields({
  id: Id,
  title: NonEmpty(LIMITS.title),
  image_src: Type.Optional(OrNull(Url)),
  /** offered in upsell exploration (default true) */
  upsell: Type.Optional(Type.Boolean()),
  /** items of this product can be exchanged for its other variants (default true) */
  exchangeable: Type.Optional(Type.Boolean()),
  /** what the shop's policy names products by: final sale and return windows (docs/lifecycle.md) */
  tags: Type.Optional(Type.Array(Tag, { maxItems: LIMITS.tagsPerProduct, uniqueItems: true })),
  variants: List(CatalogueVariantFile, LIMITS.variantsPerProduct, true),
})
export type CatalogueProductFile = Static<typeof CatalogueProductFile>

export const LineItemFile = Fields({
  id: Id,
  /** a variant of the catalogue, or null for a custom item */
  variant_id: OrNull(Id),
  /** defaults to the catalogue product's title */
  title: Type.Optional(NonEmpty(LIMITS.title)),
  /** defaults to the catalogue variant's title */
  variant_title: Type.Optional(OrNull(Text(LIMITS.title))),
  /** defaults to the variant's image, then the product's */
  product_src: Type.Optional(OrNull(Url)),
  quantity: Quantity,
  /** unit price paid before the order discount, as the shop shows it */
  price: Amount,
  /** e.g. "0.19"; "0" for none */
  tax_rate: TaxRate,
  final_sale: Type.Optional(Type.Boolean()),
  /** on an exchange order: the variant this line was exchanged from */
  exchange_variant_id: Type.Optional(OrNull(Id)),
})
export type LineItemFile = Static<typeof LineItemFile>

export const ReturnLineFile = Fields({ line_item_id: Id, quantity: Quantity })
export type ReturnLineFile = Static<typeof ReturnLineFile>

const refundMethodMessage = { errorMessage: `must be null or one of ${REFUND_METHODS.map((m) => `"${m}"`).join(', ')}` }

/** A return made before the import, priced as a shopper's submit would be, with how far it got. */
export const TrackedReturnFile = Fields({
  /** when it was submitted */
  created_at: DateText,
  refund_method: Type.Optional(
    Type.Union([withLimits(RefundMethod, refundMethodMessage), Type.Null()], refundMethodMessage),
  ),
  items: List(
    Fields({
      ...ReturnLineFile.properties,
      reason_id: NonEmpty(64),
      comment: Type.Optional(Text()),
      exchange_variant_id: Type.Optional(OrNull(Id)),
    }),
    LIMITS.lineItemsPerOrder,
    true,
  ),
  /** when each later state was reached by all its items: { "in_transit": "now-2d" } */
  progress: Type.Optional(
    Type.Partial(Type.Record(Type.Exclude(ReturnItemState, Type.Literal('requested')), DateText), {
      additionalProperties: false,
    }),
  ),
})
export type TrackedReturnFile = Static<typeof TrackedReturnFile>

export const OrderFile = Fields({
  /** e.g. "#1001"; matched ignoring a leading #, case and surrounding spaces */
  name: NonEmpty(64),
  email: Email,
  processed_at: DateText,
  /** null: not fulfilled yet */
  fulfilled_at: OrNull(DateText),
  /** where the order was shipped, in the address fields of return_address: the label's sender */
  shipping_address: Type.Optional(AddressFile),
  /** order-level discount, allocated across the lines in proportion to their totals */
  discount: Type.Optional(Amount),
  line_items: List(LineItemFile, LIMITS.lineItemsPerOrder, true),
  /** returns made before the import (e.g. an order that already has one): the units each took */
  returns: Type.Optional(List(List(ReturnLineFile, LIMITS.lineItemsPerOrder, true), LIMITS.returnsPerOrder)),
  /** returns made before the import with reasons and a refund, priced as a shopper's submit, and how far they got */
  tracked_returns: Type.Optional(List(TrackedReturnFile, LIMITS.returnsPerOrder)),
})
export type OrderFile = Static<typeof OrderFile>

/** Where the shop's systems hear of returns (docs/events.md), signed with `secret`. */
export const WebhookFile = Fields({
  /** http(s) to a public address: checked, after DNS, when the file is imported */
  url: Url,
  secret: Type.String({
    pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}$',
    errorMessage: 'must be a Standard Webhooks secret: "whsec_" and at least 24 bytes in base64',
  }),
  events: Type.Array(oneOf(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
})
export type WebhookFile = Static<typeof WebhookFile>

/**
 * The shop's commerce engine (decision 0075): where refunds, store credit, exchanges and restocks
 * are carried out. Its address is the shop's own system, so a private one is allowed; the key is
 * stored sealed, never answered.
 */
export const CommerceFile = Fields({
  engine: Type.Literal('medusa', { errorMessage: 'must be "medusa"' }),
  url: Type.String({
    ...urlLimits,
    pattern: ENGINE_URL_PATTERN,
    errorMessage: 'must be an http(s) URL, without a user or password in it',
  }),
  /** Medusa: a secret API key (sk_…) */
  api_key: Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '^\\S+$',
    errorMessage: 'must be the secret API key, without spaces',
  }),
  sales_channel_id: NonEmpty(200),
  stock_location_id: NonEmpty(200),
  region_id: Type.Optional(NonEmpty(200)),
})
export type CommerceFile = Static<typeof CommerceFile>

/** The sender of the shoppers' e-mails: an address, or a name and an address ("Acme <returns@acme.example>"). */
export const EmailSenderFile = Fields({
  from: Type.String({
    maxLength: LIMITS.email + 100,
    pattern: '^(?:[^<>\\r\\n"]{1,100} <[^\\s<>@]+@[^\\s<>@]+\\.[^\\s<>@]+>|[^\\s<>@]+@[^\\s<>@]+\\.[^\\s<>@]+)$',
    errorMessage: 'must be an e-mail address, or a name and one, like "Acme Returns <returns@acme.example>"',
  }),
  reply_to: Type.Optional(Email),
})

export const ShopFile = Fields(
  {
    /** the portal id in the URL: `acme` for acme.localhost or acme.returns.example.com */
    shop: Type.String({ minLength: 1, maxLength: 63 }),
    /** ISO 4217 code of every amount in this file */
    currency_code: Type.String({ pattern: '^[A-Z]{3}$', errorMessage: 'must be an ISO 4217 currency code like "EUR"' }),
    settings: ShopSettings,
    config: ConfigFile,
    config_variants: Type.Optional(Keyed(ConfigVariantFile, { maxProperties: LIMITS.languages })),
    return_reasons: List(ReasonFile, LIMITS.returnReasons, true),
    /** return reasons' labels per language: { de: { too_small: 'Zu klein' } } */
    return_reason_variants: Type.Optional(
      Keyed(Keyed(NonEmpty(LIMITS.title), { maxProperties: LIMITS.reasonsInAll }), {
        maxProperties: LIMITS.languages,
      }),
    ),
    return_address: AddressFile,
    /** products: what orders were bought from, what exchanges and upsells offer */
    catalogue: List(CatalogueProductFile, LIMITS.products),
    orders: List(OrderFile, LIMITS.orders),
    /** the sender of the shoppers' e-mails; without it, Rebound's own address */
    email: Type.Optional(EmailSenderFile),
    /** endpoints for signed webhooks; absent: those added in the back office stay */
    webhooks: Type.Optional(List(WebhookFile, LIMITS.webhooks)),
    /** the return policy (docs/lifecycle.md); absent: the one the back office set stays */
    policy: Type.Optional(ShopPolicy),
    /** the shop's commerce engine; absent: the one set in the back office stays */
    commerce: Type.Optional(CommerceFile),
  },
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://rebound.example/schemas/shop-file.json',
    title: 'Rebound shop file',
  },
)
export type ShopFile = Static<typeof ShopFile>
