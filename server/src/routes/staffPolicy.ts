import { ShopPolicy } from '../../../contract/policy'
import { StaffPolicy } from '../../../contract/staff'
import { schemaCheck } from '../import/schemaErrors'
import { staffAuthor } from '../services/audit'
import { MAX_POLICY_PROBLEMS, readPolicy, savePolicyOf } from '../services/staffPolicy'
import { replies, routes } from './typed'

/**
 * The body checked as the shop file's `policy` is, in the same words: the API's own validator does
 * not know the contract's `errorMessage` annotations. A refusal is the error handler's 400.
 */
const checkPolicy = schemaCheck(ShopPolicy, 'the policy')
const validatePolicy = () => (body: unknown) => {
  const checked = checkPolicy(body)
  return checked.ok
    ? { value: checked.value }
    : { error: new Error(checked.errors.slice(0, MAX_POLICY_PROBLEMS).join('; ')) }
}

/**
 * GET and PUT /admin/api/policy (docs/lifecycle.md): the shop's return policy, edited whole. A
 * policy saved is checked as the shop file's is, and verify and submit follow it at once.
 */
export const staffPolicyRoutes = routes((app, context) => {
  app.get(
    '/policy',
    { config: { staffAction: 'policy.read' }, schema: { response: replies({ 200: StaffPolicy }) } },
    async (request) => readPolicy(context, request.staff.shop),
  )

  app.put(
    '/policy',
    {
      config: { staffAction: 'policy.write' },
      schema: { body: ShopPolicy, response: replies({ 200: StaffPolicy }) },
      validatorCompiler: validatePolicy,
    },
    async (request) => {
      const { member, shop } = request.staff
      const saved = await savePolicyOf(context, shop, request.body, staffAuthor(request))
      request.log.info({ shop, staff: member.email }, 'return policy saved')
      return saved
    },
  )
})
