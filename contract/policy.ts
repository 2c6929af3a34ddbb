/**
 * A shop's return policy (docs/lifecycle.md): return windows and final sale by product tag, who
 * may not return online, when a return waits for review, and what an inspection deducts. Written
 * once for the shop file, the back office's editor and the server's decisions; the shopper's
 * portal never imports it.
 */
import { Type, type Static } from '@sinclair/typebox'
import { INSPECTION_CONDITIONS } from './constants'

/** An amount as the shop file writes one: "200.00" in the shop's currency. */
const Amount = Type.String({
  pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,4})?$',
  maxLength: 20,
  errorMessage: 'must be an amount like "200.00"',
})

/** A product tag, as the catalogue gives products: "swimwear", "final-sale". */
export const Tag = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\s,][^,\\r\\n]*$',
  errorMessage: 'must be a tag of 1 to 64 characters, without commas or line breaks',
})

/** What the shopper reads of a rule that made an item not returnable: "Swimwear", "Sale items". */
const RuleLabel = Type.String({ minLength: 1, maxLength: 100 })

const Days = (maximum: number) =>
  Type.Integer({ minimum: 0, maximum, errorMessage: `must be a whole number of days from 0 to ${maximum}` })

/** Products with `tag` may be returned for `days` after fulfilment, instead of the shop's window. */
export const WindowRule = Type.Object({ tag: Tag, days: Days(3650), label: RuleLabel }, { additionalProperties: false })
export type WindowRule = Static<typeof WindowRule>

/** Products with `tag` are never returnable. */
export const FinalSaleRule = Type.Object({ tag: Tag, label: RuleLabel }, { additionalProperties: false })
export type FinalSaleRule = Static<typeof FinalSaleRule>

/** At most `returns` returns by one shopper (the orders' e-mail) within `days`. */
export const ShopperLimit = Type.Object(
  { returns: Type.Integer({ minimum: 1, maximum: 1000 }), days: Type.Integer({ minimum: 1, maximum: 3650 }) },
  { additionalProperties: false },
)
export type ShopperLimit = Static<typeof ShopperLimit>

export const ReviewRules = Type.Object(
  {
    /** a return whose returned items are worth more than this (the order's prices paid, tax included as shown) */
    over_amount: Type.Optional(Amount),
    /** a return with an item returned for one of these reasons (or a sub-reason of one) that carries photos */
    photo_reasons: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 200, uniqueItems: true }),
    ),
    /** a shopper with more than `returns` returns within `days`, this one included */
    frequent: Type.Optional(ShopperLimit),
    /** business days staff take to answer, told to the shopper (2 when absent) */
    answer_within_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
  },
  { additionalProperties: false },
)
export type ReviewRules = Static<typeof ReviewRules>

/** The percent of an item's refund an inspection deducts, per condition found (absent: none). */
export const Deductions = Type.Partial(
  Type.Object(
    Object.fromEntries(
      INSPECTION_CONDITIONS.map((condition) => [condition, Type.Integer({ minimum: 0, maximum: 100 })]),
    ) as {
      [K in (typeof INSPECTION_CONDITIONS)[number]]: ReturnType<typeof Type.Integer>
    },
    { additionalProperties: false },
  ),
)
export type Deductions = Static<typeof Deductions>

/**
 * The whole policy; every part optional, and an empty object is the shop's settings alone. In the
 * shop file as `policy`, edited whole in the back office (GET and PUT /admin/api/policy).
 */
export const ShopPolicy = Type.Object(
  {
    /** the first rule whose tag a product has sets its window; the shop's return_window_days for others */
    windows: Type.Optional(Type.Array(WindowRule, { maxItems: 100 })),
    /** products with any of these tags are never returnable; before any window */
    final_sale: Type.Optional(Type.Array(FinalSaleRule, { maxItems: 100 })),
    /** shoppers who may not return online: told only the shop's default error, never why */
    blocked: Type.Optional(
      Type.Object(
        {
          emails: Type.Optional(
            Type.Array(Type.String({ minLength: 3, maxLength: 254 }), { maxItems: 10_000, uniqueItems: true }),
          ),
          order_names: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 10_000, uniqueItems: true }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /** returns a shopper may make in a period; over it, verify answers as for a blocked shopper */
    limit: Type.Optional(ShopperLimit),
    /** when a return waits for staff before its label */
    review: Type.Optional(ReviewRules),
    /** what an inspection takes off an item's refund, per condition */
    deductions: Type.Optional(Deductions),
    /**
     * ids of return reasons (a parent covers its sub-reasons) for which the shop takes no return
     * fee: a return with an item sent back for one of them is free (decision 0062)
     */
    waive_fee_reasons: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 200, uniqueItems: true }),
    ),
    /**
     * conditions that hold an exchange for a staff decision (its new item is not sent) besides
     * `wrong_item` and `missing`, which always do (decision 0055)
     */
    hold: Type.Optional(
      Type.Array(Type.Union(INSPECTION_CONDITIONS.map((condition) => Type.Literal(condition))), {
        maxItems: INSPECTION_CONDITIONS.length,
        uniqueItems: true,
      }),
    ),
  },
  { additionalProperties: false },
)
export type ShopPolicy = Static<typeof ShopPolicy>
