/**
 * The policy editor's form state (docs/lifecycle.md): the saved policy as staff edit it, and the
 * policy to PUT from what they typed. Numbers stay text until saved; the server judges the rest.
 */
import { INSPECTION_CONDITIONS } from '../../contract/constants'
import type { ReviewRules, ShopPolicy } from '../../contract/policy'

type Condition = (typeof INSPECTION_CONDITIONS)[number]

/** A rule by tag as typed; `days` only for a window. Numbers stay text until saved. */
export interface TagRow {
  key: number
  tag: string
  days: string
  label: string
}

/** The policy as the form holds it while staff type. */
export interface Draft {
  windows: TagRow[]
  finalSale: TagRow[]
  emails: string
  orderNames: string
  limit: { on: boolean; returns: string; days: string }
  overAmount: string
  photoReasons: string[]
  frequent: { on: boolean; returns: string; days: string }
  answerWithin: string
  deductions: Record<Condition, string>
  /** reasons for which the shop takes no return fee */
  feeWaived: string[]
  /** conditions that hold an exchange, besides wrong item and missing, which always do (decision 0055) */
  hold: Condition[]
}

let lastKey = 0
export const row = (tag = '', days = '', label = ''): TagRow => ({ key: ++lastKey, tag, days, label })
const text = (value: number | undefined) => (value === undefined ? '' : String(value))

/** The saved policy as the form shows it. */
export function draftOf(policy: ShopPolicy): Draft {
  const review = policy.review ?? {}
  return {
    windows: (policy.windows ?? []).map((rule) => row(rule.tag, String(rule.days), rule.label)),
    finalSale: (policy.final_sale ?? []).map((rule) => row(rule.tag, '', rule.label)),
    emails: (policy.blocked?.emails ?? []).join('\n'),
    orderNames: (policy.blocked?.order_names ?? []).join('\n'),
    limit: { on: Boolean(policy.limit), returns: text(policy.limit?.returns), days: text(policy.limit?.days) },
    overAmount: review.over_amount ?? '',
    photoReasons: review.photo_reasons ?? [],
    frequent: {
      on: Boolean(review.frequent),
      returns: text(review.frequent?.returns),
      days: text(review.frequent?.days),
    },
    answerWithin: text(review.answer_within_days),
    deductions: Object.fromEntries(
      INSPECTION_CONDITIONS.map((condition) => [condition, text(policy.deductions?.[condition])]),
    ) as Record<Condition, string>,
    feeWaived: policy.waive_fee_reasons ?? [],
    hold: policy.hold ?? [],
  }
}

/** One entry a line, trimmed, without blanks or repeats. */
const lines = (value: string) => [
  ...new Set(
    value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  ),
]

/** The whole policy to PUT: empty parts left out, and the server decides whether the rest is right. */
export function policyOf(draft: Draft): ShopPolicy {
  const policy: ShopPolicy = {}
  if (draft.windows.length > 0)
    policy.windows = draft.windows.map((rule) => ({
      tag: rule.tag.trim(),
      days: Number(rule.days),
      label: rule.label.trim(),
    }))
  if (draft.finalSale.length > 0)
    policy.final_sale = draft.finalSale.map((rule) => ({ tag: rule.tag.trim(), label: rule.label.trim() }))
  const emails = lines(draft.emails)
  const orderNames = lines(draft.orderNames)
  if (emails.length > 0 || orderNames.length > 0)
    policy.blocked = {
      ...(emails.length > 0 ? { emails } : {}),
      ...(orderNames.length > 0 ? { order_names: orderNames } : {}),
    }
  if (draft.limit.on) policy.limit = { returns: Number(draft.limit.returns), days: Number(draft.limit.days) }
  const review: ReviewRules = {}
  if (draft.overAmount.trim()) review.over_amount = draft.overAmount.trim()
  if (draft.photoReasons.length > 0) review.photo_reasons = draft.photoReasons
  if (draft.frequent.on)
    review.frequent = { returns: Number(draft.frequent.returns), days: Number(draft.frequent.days) }
  if (draft.answerWithin.trim()) review.answer_within_days = Number(draft.answerWithin)
  if (Object.keys(review).length > 0) policy.review = review
  const deductions = INSPECTION_CONDITIONS.filter((condition) => draft.deductions[condition].trim() !== '')
  if (deductions.length > 0)
    policy.deductions = Object.fromEntries(
      deductions.map((condition) => [condition, Number(draft.deductions[condition])]),
    )
  if (draft.feeWaived.length > 0) policy.waive_fee_reasons = draft.feeWaived
  if (draft.hold.length > 0) policy.hold = INSPECTION_CONDITIONS.filter((condition) => draft.hold.includes(condition))
  return policy
}

/**
 * The tags the draft's rules name that no product of the shop carries, in the order typed: a rule
 * with one applies to no product (tags match exactly), which is worth a word before saving.
 */
export function unknownTags(draft: Draft, known: readonly string[]): string[] {
  const carried = new Set(known)
  const named = [...draft.windows, ...draft.finalSale].map((rule) => rule.tag.trim()).filter(Boolean)
  return [...new Set(named)].filter((tag) => !carried.has(tag))
}
