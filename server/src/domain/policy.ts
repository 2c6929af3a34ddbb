/**
 * The shop's return policy as decisions (docs/lifecycle.md): what a product's tags make of its
 * lines, who may not return online, which returns wait for review and by when staff answer. Pure
 * functions of the policy and what the caller read; the routes only carry their answers.
 */
import type { ReturnReason } from '../../../contract/api'
import type { ShopPolicy } from '../../../contract/policy'
import { reasonPath } from '../../../contract/reasonTree'
import type { ReviewFlag } from '../../../contract/staff'
import { indexCatalogue } from './catalogue'
import { formatMoney, fromMinor, toMinor, type Minor } from '../../../contract/money'
import { emailKey, orderNameKey } from './normalize'
import { addDays } from './returnStatus'
import type { LineItem, Shop } from './shop'

const DAY_MS = 24 * 60 * 60 * 1000

/** What the policy makes of a line, by its product's tags. */
export interface LineRule {
  /** the label of the final-sale rule that makes it never returnable; null when none does */
  finalSale: string | null
  /** days after fulfilment it may be returned: the first window rule's for its tags, else the shop's */
  days: number
  /** the label of the window rule that set `days`; null for the shop's own window */
  window: string | null
}

/**
 * The rule of a line whose product has `tags`: the first final-sale rule with one of them, and the
 * first window rule's days (else the shop's `returnWindowDays`), each with its label.
 * @example lineRule({ windows: [{ tag: 'sale', days: 14, label: 'Sale' }] }, 30, ['sale']) // { finalSale: null, days: 14, window: 'Sale' }
 */
export function lineRule(policy: ShopPolicy, returnWindowDays: number, tags: readonly string[]): LineRule {
  const has = (rule: { tag: string }) => tags.includes(rule.tag)
  const finalSale = tags.length > 0 ? policy.final_sale?.find(has) : undefined
  const window = tags.length > 0 ? policy.windows?.find(has) : undefined
  return {
    finalSale: finalSale?.label ?? null,
    days: window?.days ?? returnWindowDays,
    window: window?.label ?? null,
  }
}

/** The rule of a line of the shop's order, by its catalogue product's tags (a line without one has none). */
export function ruleOfLine(shop: Shop, variantId: string | null): LineRule {
  const product = variantId ? indexCatalogue(shop.catalogue, shop.currency_code).product(variantId) : null
  return lineRule(shop.policy, shop.settings.return_window_days, product?.tags ?? [])
}

/** The last moment (ms since the epoch) a line of `days` fulfilled at `fulfilledAt` may be returned. */
export const windowEnd = (fulfilledAt: Date, days: number): number => fulfilledAt.getTime() + days * DAY_MS

/**
 * Whether a rule of the policy makes the line not returnable: a final-sale rule, or a window rule
 * that has ended at `now` (not judged without it). The shop's own window is verify's to judge.
 */
export function refusedByRule(shop: Shop, line: LineItem, fulfilledAt: Date | null, now?: Date): boolean {
  const rule = ruleOfLine(shop, line.variant_id)
  if (rule.finalSale !== null) return true
  return (
    rule.window !== null &&
    fulfilledAt !== null &&
    now !== undefined &&
    now.getTime() > windowEnd(fulfilledAt, rule.days)
  )
}

/** The blocked lists as verify compares them, made once per policy (they may hold thousands). */
const blockedKeys = new WeakMap<object, { emails: Set<string>; names: Set<string> }>()
function blockedOf(blocked: NonNullable<ShopPolicy['blocked']>) {
  let keys = blockedKeys.get(blocked)
  if (!keys) {
    keys = {
      emails: new Set((blocked.emails ?? []).map(emailKey)),
      names: new Set((blocked.order_names ?? []).map(orderNameKey)),
    }
    blockedKeys.set(blocked, keys)
  }
  return keys
}

/** Where the limit's period starts at `now`; null when the policy sets no limit. */
export function limitSince(policy: ShopPolicy, now: Date): Date | null {
  return policy.limit ? new Date(now.getTime() - policy.limit.days * DAY_MS) : null
}

/**
 * Whether the shop refuses this shopper online: a blocked e-mail or order name (compared as verify
 * compares them), or `recentReturns` (theirs since `limitSince`) at the limit already.
 */
export function shopperRefused(
  policy: ShopPolicy,
  shopper: { email: string; orderName: string; recentReturns: number },
): boolean {
  if (policy.blocked) {
    const { emails, names } = blockedOf(policy.blocked)
    if (emails.has(emailKey(shopper.email)) || names.has(orderNameKey(shopper.orderName))) return true
  }
  return policy.limit !== undefined && shopper.recentReturns >= policy.limit.returns
}

export interface ReviewInput {
  currency: string
  /** what the returned items are worth: unit price paid × quantity, exchanged items included */
  itemsValueMinor: number
  items: { reason_id: string; photos: number }[]
  /** the shop's reasons, in its own language (staff read the flags) */
  reasons: ReturnReason[]
  /** the shopper's returns in the frequent period, this one included */
  shopperReturns: number
}

const money = (minor: number, currency: string) =>
  formatMoney({ amount: fromMinor(minor, currency), currency_code: currency })
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`
const quoted = (labels: string[]) => labels.map((label) => `“${label}”`).join(', ')

/**
 * The policy's `review.over_amount` in minor units of the shop's currency, or null when it has
 * none: read once where the policy is read (storage/shops.ts, the import), as the shop's
 * `review_over_minor` (docs/decisions/0096-orders-settings-minor.md).
 * @example reviewOverMinor({ review: { over_amount: '200.00' } }, 'EUR') === 20000
 */
export function reviewOverMinor(policy: ShopPolicy, currency: string): Minor | null {
  const over = policy.review?.over_amount
  return over === undefined ? null : toMinor(over, currency)
}

/**
 * The review rules a priced return matches, each with words for staff; none: it need not wait.
 * @example reviewFlags({ policy: { review: { over_amount: '200.00' } }, review_over_minor: 20000 }, { currency: 'EUR', itemsValueMinor: 25000, … }) // [{ rule: 'over_amount', message: 'Worth €250.00, over the €200.00 that needs review' }]
 */
export function reviewFlags(shop: Pick<Shop, 'policy' | 'review_over_minor'>, input: ReviewInput): ReviewFlag[] {
  const rules = shop.policy.review
  if (!rules) return []
  const flags: ReviewFlag[] = []
  const over = shop.review_over_minor
  if (over !== null) {
    if (input.itemsValueMinor > over)
      flags.push({
        rule: 'over_amount',
        message: `Worth ${money(input.itemsValueMinor, input.currency)}, over the ${money(over, input.currency)} that needs review`,
      })
  }
  const photoReasons = new Set(rules.photo_reasons ?? [])
  if (photoReasons.size > 0) {
    const labels = new Set<string>()
    for (const item of input.items) {
      if (item.photos === 0) continue
      const path = reasonPath(input.reasons, item.reason_id)
      if (path?.some((reason) => photoReasons.has(reason.id))) labels.add(path.at(-1)!.label)
    }
    if (labels.size > 0) flags.push({ rule: 'photos', message: `Photos for ${quoted([...labels])}` })
  }
  const frequent = rules.frequent
  if (frequent && input.shopperReturns > frequent.returns)
    flags.push({
      rule: 'frequent',
      message: `${input.shopperReturns} returns in ${days(frequent.days)} (more than ${frequent.returns})`,
    })
  return flags
}

/** The day (YYYY-MM-DD, UTC) the shopper is told to expect an answer by: `answer_within_days` business days (2 when absent). */
export function answerBy(policy: ShopPolicy, createdAt: Date): string {
  return addDays(createdAt, policy.review?.answer_within_days ?? 2, true)
    .toISOString()
    .slice(0, 10)
}

/**
 * Whether the shop waives its return fee for this return: an item is returned for a reason the
 * policy marks (`waive_fee_reasons`; a parent covers its sub-reasons). The parcel carries an item
 * the shop got wrong, so it costs the shopper nothing (decision 0062).
 * @example feeWaived({ waive_fee_reasons: ['damaged'] }, reasons, [{ reason_id: 'damaged' }]) // true
 */
export function feeWaived(
  policy: ShopPolicy,
  reasons: readonly ReturnReason[],
  items: readonly { reason_id: string }[],
): boolean {
  const marked = new Set(policy.waive_fee_reasons ?? [])
  if (marked.size === 0) return false
  return items.some((item) => reasonPath(reasons, item.reason_id)?.some((reason) => marked.has(reason.id)) ?? false)
}
