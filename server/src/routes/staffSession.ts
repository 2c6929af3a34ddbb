import fp from 'fastify-plugin'
import type { PortalContext } from '../context'
import type { StaffAction } from '../domain/roles'
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
      request.staff = await signedIn(context, request.hostname, request.cookies[SESSION_COOKIE])
    })
    done()
  },
  { name: 'staff-session' },
)
