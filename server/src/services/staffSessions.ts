/**
 * Staff sessions (docs/back-office.md): sign-in with its lockout, the session a cookie carries,
 * and the shop the console works on.
 */
import { subdomainFromHost } from '../../../contract/subdomain'
import type { PortalContext } from '../context'
import { passwordMatches } from '../domain/passwords'
import type { Role } from '../domain/roles'
import {
  LOCKOUT,
  clearSignInFailures,
  endSession,
  findStaffByEmail,
  lockedUntil,
  noteSignIn,
  reserveSignInAttempt,
  startSession,
  useSession,
  type StaffMember,
} from '../storage/staff'
import { audit, staffActor, type AuditActor } from './audit'
import { Refusal } from './refusal'

/** Who is signed in to the console, the shop this host is, and their role in it. */
export interface StaffSignedIn {
  member: StaffMember
  shop: string
  role: Role
}

/** 403 `forbidden`: the staff member is not one of this host's shop. */
const notThisShop = () => new Refusal(403, { error: 'forbidden', message: 'This account does not work for this shop.' })

/**
 * The shop the console works on: the host's subdomain (demo.localhost → demo). A host that names
 * none (an address) is the staff member's first shop.
 */
function shopOf(hostname: string, member: StaffMember): string | null {
  const named = subdomainFromHost(hostname, '')
  if (named === '') return member.shops[0] ?? null
  return member.shops.includes(named) ? named : null
}

/** A session's limits: idle, and since sign-in. */
export const sessionLimits = ({ limits }: PortalContext) => ({
  idleMs: limits.staffIdleSeconds * 1000,
  maxMs: limits.staffSessionSeconds * 1000,
})

/**
 * Signs a staff member in on the host's shop: the session's value for its cookie, and who it is.
 * Ten wrong passwords lock the account for 15 minutes (a 429 with its retry-after). Each sign-in,
 * each failed one and each lockout is written to the host's shop's audit log, from `address`.
 */
export async function signIn(
  context: PortalContext,
  hostname: string,
  email: string,
  password: string,
  address: string,
): Promise<{ session: string; staff: StaffSignedIn }> {
  const now = context.now()
  // Never the password: the e-mail as typed, which names who tried.
  const typed: AuditActor = { kind: 'staff', id: null, label: email.trim().toLowerCase() }
  const failed = async (actor: AuditActor, shop: string | null, reason: string, kind = 'session.sign_in_failed') => {
    // A host that names no imported shop has no log to write to.
    if (shop && (await context.shops.find(shop)))
      await audit(context.db, { shopId: shop, at: now, actor, address, kind, detail: { reason } })
  }
  // The try is taken before the password is checked, so a burst cannot check more than ten.
  const tries = await reserveSignInAttempt(context.db, email, now)
  if (tries === null) {
    const locked = await lockedUntil(context.db, email, now)
    const seconds = locked ? Math.ceil((locked.getTime() - now.getTime()) / 1000) : 1
    const member = await findStaffByEmail(context.db, email)
    await failed(member ? memberActor(member) : typed, hostShop(hostname, member), 'locked')
    throw new Refusal(
      429,
      { error: 'locked', message: 'Too many wrong passwords for this account. Please wait 15 minutes and try again.' },
      { 'retry-after': String(Math.max(1, seconds)) },
    )
  }
  // An unknown e-mail is checked against a stand-in hash: the same work, the same answer.
  // A wrong password leaves its try counted.
  const member = await findStaffByEmail(context.db, email)
  if (!(await passwordMatches(member?.password_hash ?? null, password)) || !member) {
    const actor = member ? memberActor(member) : typed
    const shop = hostShop(hostname, member)
    await failed(actor, shop, member ? 'wrong_password' : 'unknown_email')
    if (tries >= LOCKOUT.failures) await failed(actor, shop, 'too_many_wrong_passwords', 'session.locked_out')
    throw new Refusal(401, { error: 'invalid_credentials', message: 'The e-mail or password is not right.' })
  }
  await clearSignInFailures(context.db, email)
  const shop = shopOf(hostname, member)
  if (!shop) {
    await failed(memberActor(member), hostShop(hostname, member), 'not_this_shop')
    throw notThisShop()
  }
  await noteSignIn(context.db, member.id, now)
  const session = await startSession(context.db, member.id, now, sessionLimits(context))
  await audit(context.db, { shopId: shop, at: now, actor: memberActor(member), address, kind: 'session.signed_in' })
  return { session, staff: { member, shop, role: member.roles[shop] ?? 'warehouse' } }
}

const memberActor = (member: StaffMember): AuditActor => staffActor({ member, shop: '', role: 'warehouse' })

/**
 * The shop whose audit log hears of a failed sign-in: the host's, or where the host names none,
 * the staff member's first (an unknown e-mail on such a host is written nowhere).
 */
function hostShop(hostname: string, member: StaffMember | null): string | null {
  const named = subdomainFromHost(hostname, '')
  return named !== '' ? named : (member?.shops[0] ?? null)
}

/** The staff member of a live session on the host's shop; refused otherwise (401, or 403 for another shop's). */
export async function signedIn(
  context: PortalContext,
  hostname: string,
  session: string | undefined,
): Promise<StaffSignedIn> {
  const member = session ? await useSession(context.db, session, context.now(), sessionLimits(context)) : null
  if (!member) throw new Refusal(401, { error: 'not_signed_in', message: 'Please sign in.' })
  const shop = shopOf(hostname, member)
  if (!shop) throw notThisShop()
  return { member, shop, role: member.roles[shop] ?? 'warehouse' }
}

/** Ends the session, if there is one, written to the audit log as the staff member's sign-out. */
export async function signOut(
  context: PortalContext,
  hostname: string,
  session: string | undefined,
  address: string,
): Promise<void> {
  if (!session) return
  const ending = await signedIn(context, hostname, session).catch(() => null)
  await endSession(context.db, session)
  if (ending)
    await audit(context.db, {
      shopId: ending.shop,
      at: context.now(),
      actor: staffActor(ending),
      address,
      kind: 'session.signed_out',
    })
}
