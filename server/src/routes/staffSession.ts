import fp from 'fastify-plugin'
import type { PortalContext } from '../context'
import { mayDo, type StaffAction } from '../domain/roles'
import { Refusal } from '../services/refusal'
import { signedIn, type StaffSignedIn } from '../services/staffSessions'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in staff member, set by staffSession's hook before any route of its scope runs:
     * null only on the console's routes outside it (sign-in, sign-out), which do not read it.
     */
    staff: StaffSignedIn
  }
  interface FastifyContextConfig {
    /** the action a signed-in console route is (domain/roles.ts); the session hook checks it */
    staffAction?: StaffAction
  }
}

/** The session cookie: only for the console's paths, never sent by another site's page. */
export const SESSION_COOKIE = 'rebound_staff'

/** 403 `not_allowed`: the staff member's role in this shop does not hold the route's action. */
export const notAllowed = (message: string) => new Refusal(403, { error: 'not_allowed', message })

/**
 * The console's signed-in calls, as a plugin registered beside them in their own scope (the
 * cookie plugin registered above it): every request carries a live session of a staff member of
 * this host's shop, or is a 401 `not_signed_in` (a 403 for another shop's staff) before its body
 * is read; and the staff member's role holds the route's action (domain/roles.ts), or it is a 403
 * `not_allowed`. A route that names no action is refused to every role: deny by default.
 */
export const staffSession = fp<{ context: PortalContext }>(
  (app, { context }, done) => {
    app.decorateRequest('staff', null as unknown as StaffSignedIn)
    app.addHook('onRequest', async (request) => {
      request.staff = await signedIn(context, request.hostname, request.cookies[SESSION_COOKIE])
      const action = request.routeOptions.config.staffAction
      if (!action) throw notAllowed('This call names no staff action, so no role may make it.')
      const { role } = request.staff
      if (!mayDo(role, action))
        throw notAllowed(`Your role (${role}) cannot do this (${action}). Ask an owner of the shop.`)
    })
    done()
  },
  { name: 'staff-session' },
)
