/**
 * A shop's staff managed by its owners in the console (docs/back-office.md, "Roles"; decision
 * 0081): the list, invites by e-mail with a role, role changes, resets and removals, never
 * leaving the shop without an owner; the invitee's acceptance; the agents' review limit. Each
 * change is written to the audit log in its transaction.
 */
import type { InviteAcceptance, NewStaffInvite, ReviewLimitChange, StaffList } from '../../../contract/staff'
import { fromMinor, moneyOf, toMinor } from '../../../contract/money'
import { subdomainFromHost } from '../../../contract/subdomain'
import type { PortalContext } from '../context'
import { emailKey } from '../domain/normalize'
import { hashPassword, passwordProblem } from '../domain/passwords'
import type { Role } from '../domain/roles'
import type { Queryable } from '../storage/database'
import { STAFF_LINK_PURPOSE, withdrawStaffInviteEmails, writeStaffEmail, type StaffEmailKind } from '../storage/outbox'
import { seal, sealingKey } from '../storage/sealed'
import {
  changeRole,
  listStaff,
  removeFromShop,
  resetMember,
  setPasswordFromLink,
  staffEmail,
  startSession,
} from '../storage/staff'
import {
  agentReviewLimit,
  createInvite,
  inviteShop,
  pendingInvites,
  setAgentReviewLimit,
  takeInvite,
  withdrawInvite,
  type InviteKind,
} from '../storage/staffInvites'
import { audit, staffActor } from './audit'
import { invalidRequest, notFound, Refusal } from './refusal'
import { sessionLimits, type StaffSignedIn } from './staffSessions'

/** How long an invite or a set-password link works. */
export const INVITE_TTL_MS = 72 * 60 * 60 * 1000

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null)

/** Where the change came from: the staff member and their address. */
export interface Change {
  staff: StaffSignedIn
  address: string
  /** this host's origin (`https://demo.example.com`): the links in e-mails open the console here */
  origin: string
}

const lastOwner = () =>
  new Refusal(409, {
    error: 'last_owner',
    message: 'The shop must keep an owner: make someone else owner first.',
  })

async function currencyOf(context: PortalContext, shopId: string): Promise<string> {
  return (await context.shops.find(shopId))?.currency_code ?? 'EUR'
}

/** The shop's staff (with their role and last sign-in), its pending invites and the agents' review limit. */
export async function staffList(context: PortalContext, shopId: string): Promise<StaffList> {
  const now = context.now()
  const [members, invites, limit, currency] = await Promise.all([
    listStaff(context.db, shopId),
    pendingInvites(context.db, shopId, now),
    agentReviewLimit(context.db, shopId),
    currencyOf(context, shopId),
  ])
  return {
    members: members.map((member) => ({
      id: member.id,
      email: member.email,
      role: member.roles[shopId] ?? 'warehouse',
      last_sign_in_at: iso(member.last_sign_in_at),
    })),
    invites: invites.map((invite) => ({
      email: invite.email,
      role: invite.role,
      invited_by: invite.invited_by,
      created_at: iso(invite.created_at)!,
      expires_at: iso(invite.expires_at)!,
    })),
    review_limit: limit === null ? null : moneyOf(limit, currency),
  }
}

/**
 * Writes a link (an invite, or a set-password link) and its e-mail in the caller's transaction:
 * the token leaves only in the e-mail, in the address's fragment (`#token=`), which browsers never
 * send, so no server log sees it.
 */
async function sendLink(
  tx: Queryable,
  context: PortalContext,
  change: Change,
  to: { email: string; role: Role; kind: InviteKind },
): Promise<{ expiresAt: Date; link: string }> {
  const now = context.now()
  const { shop, member } = change.staff
  const { token, expiresAt } = await createInvite(tx, {
    shopId: shop,
    email: to.email,
    role: to.role,
    kind: to.kind,
    invitedBy: member.email,
    now,
    ttlMs: INVITE_TTL_MS,
  })
  const link = `${change.origin}/admin/invite#token=${token}`
  const kind: StaffEmailKind = to.kind === 'invite' ? 'staff_invite' : 'staff_reset'
  const key = sealingKey(context.secret, STAFF_LINK_PURPOSE)
  await writeStaffEmail(
    tx,
    shop,
    emailKey(to.email),
    (id) => ({
      kind,
      shop,
      role: to.role,
      invited_by: member.email,
      expires_at: expiresAt.toISOString(),
      link_sealed: seal(key, link, id),
    }),
    now,
  )
  return { expiresAt, link }
}

/**
 * The link as the owner who made it may see it: only where this server sends no e-mail, so that
 * a shop without SMTP can still invite (decision 0081); the e-mail carries it otherwise.
 */
const handedLink = (context: PortalContext, link: string): string | null => (context.events.smtp ? null : link)

/** Invites an e-mail to the shop with a role; 409 `already_staff` for one of its staff. */
export async function inviteStaff(
  context: PortalContext,
  change: Change,
  invite: NewStaffInvite,
): Promise<{ link: string | null }> {
  const { shop } = change.staff
  const email = emailKey(invite.email)
  const staff = await listStaff(context.db, shop)
  if (staff.some((member) => member.email === email))
    throw new Refusal(409, { error: 'already_staff', message: `${email} already works for this shop.` })
  const link = await context.db.transaction(async (tx) => {
    const sent = await sendLink(tx, context, change, { email, role: invite.role, kind: 'invite' })
    const expiresAt = sent.expiresAt
    await audit(tx, {
      shopId: shop,
      at: context.now(),
      actor: staffActor(change.staff),
      address: change.address,
      kind: 'staff.invited',
      subject: email,
      detail: { role: invite.role, expires_at: expiresAt.toISOString() },
    })
    return sent.link
  })
  context.events.nudge()
  return { link: handedLink(context, link) }
}

/**
 * Withdraws a pending invite: its link stops working (it reads as any link that does not open),
 * and its e-mail, when not sent yet, is withdrawn too; 404 `not_found` when this e-mail has none.
 */
export async function withdrawStaffInvite(context: PortalContext, change: Change, email: string): Promise<void> {
  const { shop } = change.staff
  await context.db.transaction(async (tx) => {
    const withdrawn = await withdrawInvite(tx, shop, email)
    if (!withdrawn) throw notFound(`${email} has no pending invite.`)
    await withdrawStaffInviteEmails(tx, shop, emailKey(email), context.now())
    await audit(tx, {
      shopId: shop,
      at: context.now(),
      actor: staffActor(change.staff),
      address: change.address,
      kind: 'invite.withdrawn',
      subject: emailKey(email),
      detail: { role: withdrawn.role },
    })
  })
}

/** Changes a member's role; 409 `last_owner` when it would leave the shop without an owner. */
export async function changeStaffRole(context: PortalContext, change: Change, id: string, role: Role): Promise<void> {
  const { shop } = change.staff
  await context.db.transaction(async (tx) => {
    const outcome = await changeRole(tx, shop, id, role)
    if (outcome === 'missing') throw notFound('No such staff member.')
    if (outcome === 'last_owner') throw lastOwner()
    if (outcome.before === role) return
    const email = await staffEmail(tx, id)
    await audit(tx, {
      shopId: shop,
      at: context.now(),
      actor: staffActor(change.staff),
      address: change.address,
      kind: 'staff.role_changed',
      subject: email ?? id,
      detail: { before: outcome.before, after: role },
    })
  })
}

/**
 * Resets a member: their password stops working, their sessions end, and a fresh set-password
 * link goes to them by e-mail. No password is ever shown.
 */
export async function resetStaff(context: PortalContext, change: Change, id: string): Promise<{ link: string | null }> {
  const { shop } = change.staff
  const link = await context.db.transaction(async (tx) => {
    const member = await resetMember(tx, shop, id)
    if (!member) throw notFound('No such staff member.')
    const sent = await sendLink(tx, context, change, { email: member.email, role: member.role, kind: 'reset' })
    const expiresAt = sent.expiresAt
    await audit(tx, {
      shopId: shop,
      at: context.now(),
      actor: staffActor(change.staff),
      address: change.address,
      kind: 'staff.reset',
      subject: member.email,
      detail: { expires_at: expiresAt.toISOString() },
    })
    return sent.link
  })
  context.events.nudge()
  return { link: handedLink(context, link) }
}

/** Takes the shop from a member (their sessions end); 409 `last_owner` for the shop's last owner. */
export async function removeStaffMember(context: PortalContext, change: Change, id: string): Promise<void> {
  const { shop } = change.staff
  await context.db.transaction(async (tx) => {
    const outcome = await removeFromShop(tx, shop, id)
    if (outcome === 'missing') throw notFound('No such staff member.')
    if (outcome === 'last_owner') throw lastOwner()
    await audit(tx, {
      shopId: shop,
      at: context.now(),
      actor: staffActor(change.staff),
      address: change.address,
      kind: 'staff.removed',
      subject: outcome.email,
      detail: { role: outcome.role },
    })
  })
}

/** Sets the amount agents may decide reviews up to (null: no limit). */
export async function changeReviewLimit(
  context: PortalContext,
  change: Change,
  body: ReviewLimitChange,
): Promise<void> {
  const { shop, member } = change.staff
  const currency = await currencyOf(context, shop)
  let limit: number | null = null
  if (body.amount !== null) {
    try {
      limit = toMinor(body.amount, currency)
    } catch (error) {
      throw invalidRequest(`amount: ${(error as Error).message}`)
    }
  }
  await context.db.transaction(async (tx) => {
    const before = await setAgentReviewLimit(tx, shop, limit, context.now(), member.email)
    if (before === limit) return
    const words = (minor: number | null) => (minor === null ? null : fromMinor(minor, currency))
    await audit(tx, {
      shopId: shop,
      at: context.now(),
      actor: staffActor(change.staff),
      address: change.address,
      kind: 'shop.review_limit_changed',
      subject: null,
      detail: { before: words(before), after: words(limit), currency_code: currency },
    })
  })
}

/** The refusal of a link that does not open: unknown, of another shop, used or past its time alike. */
const badLink = () =>
  new Refusal(400, {
    error: 'invalid_invite',
    message:
      'This link does not work: it was used already, it expired, it was withdrawn, or it is not for this shop. Ask an owner for a new one.',
  })

/**
 * An invitee (or a member after a reset) sets their password with the link's token, once, and is
 * signed in on this host's shop. The password follows the rules of `npm run staff` (12 to 256
 * characters); every other session of the account ends.
 */
export async function acceptInvite(
  context: PortalContext,
  hostname: string,
  body: InviteAcceptance,
  address: string,
): Promise<{ session: string; staff: StaffSignedIn }> {
  const problem = passwordProblem(body.password)
  if (problem) throw invalidRequest(`password: ${problem}`)
  const named = subdomainFromHost(hostname, '')
  const hash = await hashPassword(body.password)
  const now = context.now()
  const staff = await context.db.transaction(async (tx) => {
    const shop = named === '' ? await inviteShop(tx, body.token) : named
    const invite = shop ? await takeInvite(tx, shop, body.token, now) : null
    if (!invite || !shop) throw badLink()
    const member = await setPasswordFromLink(
      tx,
      { shopId: shop, email: invite.email, role: invite.role, mustBeStaff: invite.kind === 'reset' },
      hash,
      now,
    )
    if (!member) throw badLink()
    const signedIn: StaffSignedIn = { member, shop, role: member.roles[shop] ?? 'warehouse' }
    await audit(tx, {
      shopId: shop,
      at: now,
      actor: staffActor(signedIn),
      address,
      kind: invite.kind === 'invite' ? 'staff.invite_accepted' : 'staff.password_set',
      subject: invite.email,
      detail: invite.kind === 'invite' ? { role: signedIn.role, invited_by: invite.invited_by } : {},
    })
    return signedIn
  })
  const session = await startSession(context.db, staff.member.id, now, sessionLimits(context))
  return { session, staff }
}
