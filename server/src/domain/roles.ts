/**
 * Staff roles and what each may do (docs/back-office.md, "Roles"). Every signed-in console route
 * names the one action it is (`config: { staffAction }`), and the session hook lets the request
 * through only when the staff member's role in this shop holds it; a route that names none is
 * refused. The console reads the same table to hide what a role cannot do.
 */
import { STAFF_ACTIONS, STAFF_ROLES, type Role, type StaffAction } from '../../../contract/constants'

// The lists are the contract's: the console reads the same names (its session says the role's actions).
export const ROLES = STAFF_ROLES
export { STAFF_ACTIONS }
export type { Role, StaffAction }

const EVERY_ROLE: readonly Role[] = ROLES
const OWNER: readonly Role[] = ['owner']
const ADMINS: readonly Role[] = ['owner', 'admin']
const AGENTS: readonly Role[] = ['owner', 'admin', 'agent']

/** Who may do what: the table docs/back-office.md shows. */
export const ROLE_ACTIONS: Record<StaffAction, readonly Role[]> = {
  'console.use': EVERY_ROLE,
  'returns.read': EVERY_ROLE,
  'returns.receive': EVERY_ROLE,
  'returns.move': AGENTS,
  'returns.note': AGENTS,
  'returns.cancel': AGENTS,
  'returns.export': AGENTS,
  'insights.read': AGENTS,
  'emails.read': AGENTS,
  'emails.resend': AGENTS,
  'reviews.decide': AGENTS,
  'support.open': AGENTS,
  'policy.read': AGENTS,
  'policy.write': ADMINS,
  'webhooks.manage': ADMINS,
  'engine.manage': ADMINS,
  'storeConnection.manage': OWNER,
  'apiKeys.manage': OWNER,
  'staff.manage': OWNER,
  'audit.read': ADMINS,
}

export const mayDo = (role: Role, action: StaffAction): boolean => ROLE_ACTIONS[action].includes(role)

/** Every action a role may do, in the table's order: what the session tells the console. */
export const actionsOf = (role: Role): StaffAction[] => STAFF_ACTIONS.filter((action) => mayDo(role, action))
