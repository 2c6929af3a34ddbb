/**
 * Staff roles and what each may do (docs/back-office.md, "Roles"). Every signed-in console route
 * names the one action it is (`config: { staffAction }`), and the session hook lets the request
 * through only when the staff member's role in this shop holds it; a route that names none is
 * refused. The console reads the same table to hide what a role cannot do.
 */
export const ROLES = ['owner', 'admin', 'agent', 'warehouse'] as const
export type Role = (typeof ROLES)[number]

export const STAFF_ACTIONS = [
  /** the session, the shop's reasons: what every signed-in page needs */
  'console.use',
  /** the returns list, one return, its photos */
  'returns.read',
  /** receive a parcel and record its inspection, with photos */
  'returns.receive',
  /** move items by hand (in transit, received, refunded) */
  'returns.move',
  /** write a note on a return */
  'returns.note',
  /** cancel a return not yet received, or close one with a reason */
  'returns.cancel',
  /** the returns CSV, and bulk export */
  'returns.export',
  'insights.read',
  'emails.read',
  'emails.resend',
  /** approve or reject a return held for review (an agent: up to the shop's amount) */
  'reviews.decide',
  'support.open',
  'policy.read',
  'policy.write',
  'webhooks.manage',
  /** the store actions page and its retries */
  'engine.manage',
  'storeConnection.manage',
  'apiKeys.manage',
  'staff.manage',
  'audit.read',
] as const
export type StaffAction = (typeof STAFF_ACTIONS)[number]

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
