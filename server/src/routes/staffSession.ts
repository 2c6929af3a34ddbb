import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { subdomainFromHost } from '../../../contract/subdomain'
import type { PortalContext } from '../context'
import { Refusal } from '../services/refusal'
import { useSession, type StaffMember } from '../storage/staff'

/** Who is signed in to the console, and the shop this host is. */
export interface StaffSignedIn {
  member: StaffMember
  shop: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in staff member, set by staffSession's hook before any route of its scope runs:
     * null only on the console's routes outside it (sign-in, sign-out), which do not read it.
     */
    staff: StaffSignedIn
  }
}

/** The session cookie: only for the console's paths, never sent by another site's page. */
export const SESSION_COOKIE = 'rebound_staff'

/** 403 `forbidden`: the staff member signed in is not one of this host's shop. */
export const notThisShop = () =>
  new Refusal(403, { error: 'forbidden', message: 'This account does not work for this shop.' })

/**
 * The shop the console works on: the host's subdomain (demo.localhost → demo). A host that names
 * none (an address) is the staff member's first shop.
 */
export function shopOf(request: FastifyRequest, member: StaffMember): string | null {
  const named = subdomainFromHost(request.hostname, '')
  if (named === '') return member.shops[0] ?? null
  return member.shops.includes(named) ? named : null
}

/** A session's limits (docs/back-office.md): idle, and since sign-in. */
export const sessionLimits = ({ limits }: PortalContext) => ({
  idleMs: limits.staffIdleSeconds * 1000,
  maxMs: limits.staffSessionSeconds * 1000,
})

/**
 * The console's signed-in calls, as a plugin registered beside them in their own scope (the
 * cookie plugin registered above it): every request carries a live session of a staff member of
 * this host's shop, or is a 401 `not_signed_in` (a 403 for another shop's staff) before its body
 * is read.
 */
export const staffSession = fp<{ context: PortalContext }>(
  (app, { context }, done) => {
    app.decorateRequest('staff', null as unknown as StaffSignedIn)
    app.addHook('onRequest', async (request) => {
      const value = request.cookies[SESSION_COOKIE]
      const member = value ? await useSession(context.db, value, context.now(), sessionLimits(context)) : null
      if (!member) throw new Refusal(401, { error: 'not_signed_in', message: 'Please sign in.' })
      const shop = shopOf(request, member)
      if (!shop) throw notThisShop()
      request.staff = { member, shop }
    })
    done()
  },
  { name: 'staff-session' },
)
