import { ShopPolicy } from '../../../contract/policy'
import { StaffPolicy } from '../../../contract/staff'
import type { PortalContext } from '../context'
import { minorDigits } from '../../../contract/money'
import { fieldChecks } from '../import/fieldChecks'
import { policyErrors } from '../import/policyChecks'
import { schemaCheck } from '../import/schemaErrors'
import { savePolicy, type ShopRecord } from '../storage/shops'
import { invalidRequest, notFound } from '../services/refusal'
import { replies, type Api } from './typed'

/** Problems named at most in one answer: a list of thousands of bad entries is not read whole. */
const MAX_PROBLEMS = 10

/**
 * The body checked as the shop file's `policy` is, in the same words: the API's own validator does
 * not know the contract's `errorMessage` annotations. A refusal is the error handler's 400.
 */
const checkPolicy = schemaCheck(ShopPolicy, 'the policy')
const validatePolicy = () => (body: unknown) => {
  const checked = checkPolicy(body)
  return checked.ok ? { value: checked.value } : { error: new Error(checked.errors.slice(0, MAX_PROBLEMS).join('; ')) }
}

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

/**
 * GET and PUT /admin/api/policy (docs/lifecycle.md): the shop's return policy, edited whole. A
 * policy saved is checked as the shop file's is, and verify and submit follow it at once.
 */
export function staffPolicyRoutes(app: Api, context: PortalContext): void {
  app.get('/admin/api/policy', { schema: { response: replies({ 200: StaffPolicy }) } }, async (request) => {
    const shop = await context.shops.find(request.staff.shop)
    if (!shop) throw notFound('This shop has not been imported.')
    return staffPolicy(shop, shop.policy)
  })

  app.put(
    '/admin/api/policy',
    {
      schema: { body: ShopPolicy, response: replies({ 200: StaffPolicy }) },
      validatorCompiler: validatePolicy,
    },
    async (request) => {
      const { member, shop: shopId } = request.staff
      const shop = await context.shops.find(shopId)
      if (!shop) throw notFound('This shop has not been imported.')
      const checks = fieldChecks(shop.currency_code, minorDigits(shop.currency_code), context.now())
      policyErrors(request.body, shop.return_reasons, [], checks)
      if (checks.errors.length > 0) throw invalidRequest(checks.errors.slice(0, MAX_PROBLEMS).join('; '))
      if (!(await savePolicy(context.db, shop.id, request.body))) throw notFound('This shop has not been imported.')
      // Verify's kept answers are for the shop object they were made with: a new one makes new answers.
      context.shops.forget()
      request.log.info({ shop: shop.id, staff: member.email }, 'return policy saved')
      return staffPolicy(shop, request.body)
    },
  )
}
