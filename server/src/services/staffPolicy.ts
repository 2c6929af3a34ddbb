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
 * verify and submit follow it at once (the shops' cache is dropped).
 */
export async function savePolicyOf(
  context: Pick<PortalContext, 'shops' | 'db' | 'now'>,
  shopId: string,
  policy: ShopPolicy,
): Promise<StaffPolicy> {
  const shop = await context.shops.find(shopId)
  if (!shop) throw notImported()
  const checks = fieldChecks(shop.currency_code, minorDigits(shop.currency_code), context.now())
  policyErrors(policy, shop.return_reasons, [], checks)
  if (checks.errors.length > 0) throw invalidRequest(checks.errors.slice(0, MAX_POLICY_PROBLEMS).join('; '))
  if (!(await savePolicy(context.db, shop.id, policy))) throw notImported()
  // Verify's kept answers are for the shop object they were made with: a new one makes new answers.
  context.shops.forget()
  return staffPolicy(shop, policy)
}
