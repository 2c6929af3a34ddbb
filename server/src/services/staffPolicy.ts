/**
 * The shop's return policy as staff edit it (docs/lifecycle.md): read with what its editor offers,
 * and saved whole after the same checks as the shop file's `policy`, in the same words.
 */
import type { ShopPolicy } from '../../../contract/policy'
import type { StaffPolicy } from '../../../contract/staff'
import { minorDigits } from '../../../contract/money'
import type { PortalContext } from '../context'
import { fieldChecks } from '../import/fieldChecks'
import { policyErrors } from '../import/policyChecks'
import { savePolicy, type ShopRecord } from '../storage/shops'
import { audit, changedFields, type Author } from './audit'
import { invalidRequest, notFound } from './refusal'

/** Problems named at most in one answer: a list of thousands of bad entries is not read whole. */
export const MAX_POLICY_PROBLEMS = 10

const notImported = () => notFound('This shop has not been imported.')

/** The policy with what its editor offers: the catalogue's tags, the shop's window and currency. */
function staffPolicy(shop: ShopRecord, policy: ShopPolicy): StaffPolicy {
  const tags = new Set(shop.catalogue.flatMap((product) => product.tags ?? []))
  return {
    policy,
    tags: [...tags].sort((a, b) => a.localeCompare(b, 'en')),
    return_window_days: shop.settings.return_window_days,
    currency_code: shop.currency_code,
  }
}

/** The shop's policy as its editor shows it. */
export async function readPolicy(context: Pick<PortalContext, 'shops'>, shopId: string): Promise<StaffPolicy> {
  const shop = await context.shops.find(shopId)
  if (!shop) throw notImported()
  return staffPolicy(shop, shop.policy)
}

/**
 * Saves the shop's policy whole, checked against its reasons and currency as the shop file's is;
 * verify and submit follow it at once (the shops' cache is dropped). What changed is written to
 * the audit log with the save, in its transaction.
 */
export async function savePolicyOf(
  context: Pick<PortalContext, 'shops' | 'db' | 'now'>,
  shopId: string,
  policy: ShopPolicy,
  by: Author,
): Promise<StaffPolicy> {
  const shop = await context.shops.find(shopId)
  if (!shop) throw notImported()
  const now = context.now()
  const checks = fieldChecks(shop.currency_code, minorDigits(shop.currency_code), now)
  policyErrors(policy, shop.return_reasons, [], checks)
  if (checks.errors.length > 0) throw invalidRequest(checks.errors.slice(0, MAX_POLICY_PROBLEMS).join('; '))
  const saved = await context.db.transaction(async (tx) => {
    const before = await savePolicy(tx, shop.id, policy)
    if (!before) return false
    const detail = policyChanges(before, policy)
    if (Object.keys(detail.after).length > 0 || detail.blocked)
      await audit(tx, { shopId: shop.id, at: now, ...by, kind: 'policy.changed', detail })
    return true
  })
  if (!saved) throw notImported()
  // Verify's kept answers are for the shop object they were made with: a new one makes new answers.
  context.shops.forget()
  return staffPolicy(shop, policy)
}

/**
 * The policy's fields that changed, before and after; the blocked lists (thousands of e-mails at
 * most) as the entries added and removed, not twice whole.
 */
function policyChanges(before: ShopPolicy, after: ShopPolicy) {
  const { blocked: was, ...restBefore } = before
  const { blocked: is, ...restAfter } = after
  const changes: ReturnType<typeof changedFields> & {
    blocked?: Record<string, { added: string[]; removed: string[] }>
  } = changedFields(restBefore, restAfter)
  for (const list of ['emails', 'order_names'] as const) {
    const old = new Set(was?.[list] ?? [])
    const now = new Set(is?.[list] ?? [])
    const added = [...now].filter((entry) => !old.has(entry))
    const removed = [...old].filter((entry) => !now.has(entry))
    if (added.length > 0 || removed.length > 0) changes.blocked = { ...changes.blocked, [list]: { added, removed } }
  }
  return changes
}
