import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { PortalContext } from '../context'
import { readToken, type TokenClaims } from '../domain/token'
import { Refusal } from '../services/refusal'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The shopper's token (docs/api.md), set by shopperToken's hook before any route of its scope
     * runs: null only on the routes outside it, which do not read it.
     */
    claims: TokenClaims
  }
}

/**
 * The shopper's calls after verify, as a plugin registered beside them in their own scope: every
 * request carries a valid, unexpired `Authorization: Bearer` token, or is a 401 `session_expired`
 * (the portal then offers to start again). Its hook runs on arrival, before the body is read or
 * validated: without a token, nothing about the body (its fields, its size) is answered.
 */
export const shopperToken = fp<{ context: PortalContext }>(
  (app, { context }, done) => {
    app.decorateRequest('claims', null as unknown as TokenClaims)
    app.addHook('onRequest', (request, _reply, next) => {
      const header = request.headers.authorization ?? ''
      const match = /^Bearer ([A-Za-z0-9_.-]{1,1024})$/.exec(header)
      const claims = match ? readToken(context.secret, match[1]!, context.now()) : null
      if (!claims)
        return next(
          new Refusal(401, {
            error: 'session_expired',
            message: 'Your session has expired. Please start your return again.',
          }),
        )
      request.claims = claims
      next()
    })
    done()
  },
  { name: 'shopper-token' },
)

/**
 * A route's onRequest hook after shopperToken's, for the calls that change something: a support
 * replay's read-only token is refused with 403 `read_only_session` before the body or the database.
 */
export function refuseReadOnly(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  if (!request.claims.readOnly) return done()
  done(
    new Refusal(403, {
      error: 'read_only_session',
      message: 'This is a read-only support session: it cannot submit a return.',
    }),
  )
}
