/**
 * The checks of a return policy (docs/lifecycle.md) that its schema cannot express, the same for
 * the shop file's `policy` and the back office's editor: amounts in the shop's currency, reasons
 * that are the shop's, rules that would never apply, and blocked entries that match nothing.
 */
import type { ReturnReason } from '../../../contract/api'
import type { ShopPolicy } from '../../../contract/policy'
import { allReasons } from '../../../contract/reasonTree'
import { orderNameKey } from '../domain/normalize'
import type { Segment } from './errorLines'
import type { FieldChecks } from './fieldChecks'

const EMAIL = /^[^\s@]+@[^\s@]+$/

/** Every error of `policy` at `base` (`['policy']` in the shop file, `[]` for the editor's body). */
export function policyErrors(
  policy: ShopPolicy,
  reasons: readonly ReturnReason[],
  base: Segment[],
  { amount, fail }: FieldChecks,
): void {
  const review = policy.review
  if (review?.over_amount !== undefined) amount([...base, 'review', 'over_amount'], review.over_amount)
  if (review?.photo_reasons) {
    const ids = new Set(allReasons(reasons).map((reason) => reason.id))
    review.photo_reasons.forEach((id, i) => {
      if (!ids.has(id))
        fail([...base, 'review', 'photo_reasons', i], `"${id}" is not the id of one of the shop's return reasons`)
    })
  }
  if (policy.waive_fee_reasons) {
    const ids = new Set(allReasons(reasons).map((reason) => reason.id))
    policy.waive_fee_reasons.forEach((id, i) => {
      if (!ids.has(id))
        fail([...base, 'waive_fee_reasons', i], `"${id}" is not the id of one of the shop's return reasons`)
    })
  }
  for (const list of ['windows', 'final_sale'] as const) {
    const first = new Map<string, number>()
    policy[list]?.forEach((rule, i) => {
      const earlier = first.get(rule.tag)
      if (earlier === undefined) first.set(rule.tag, i)
      else
        fail(
          [...base, list, i, 'tag'],
          `"${rule.tag}" has a rule already (${list}[${earlier}]); only the first applies`,
        )
    })
  }
  policy.blocked?.emails?.forEach((email, i) => {
    if (!EMAIL.test(email.trim()))
      fail([...base, 'blocked', 'emails', i], 'must be an e-mail address like "jane@example.com"')
  })
  policy.blocked?.order_names?.forEach((name, i) => {
    if (orderNameKey(name) === '') fail([...base, 'blocked', 'order_names', i], 'must be an order name like "#1001"')
  })
}
