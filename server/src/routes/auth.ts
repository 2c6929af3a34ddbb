import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PortalContext } from '../context'
import { readToken, type TokenClaims } from '../domain/token'

declare module 'fastify' {
  interface FastifyRequest {
    claims: TokenClaims | null
  }
}

/**
 * An onRequest hook for the calls after verify: a valid, unexpired `Authorization: Bearer` token,
 * or 401 `session_expired` (the portal then offers to start again). It runs before the body is read
 * or validated: without a token, nothing about the body (its fields, its size) is answered.
 */
export function requireToken(context: PortalContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? ''
    const match = /^Bearer ([A-Za-z0-9_.-]{1,1024})$/.exec(header)
    const claims = match ? readToken(context.secret, match[1]!, context.now()) : null
    if (!claims)
      return reply
        .code(401)
        .send({ error: 'session_expired', message: 'Your session has expired. Please start your return again.' })
    request.claims = claims
  }
}

/**
 * An onRequest hook after requireToken for the calls that change something: a support replay's
 * read-only token is refused with 403 `read_only_session` before the body or the database.
 */
export async function refuseReadOnly(request: FastifyRequest, reply: FastifyReply) {
  if (request.claims?.readOnly) {
    return reply
      .code(403)
      .send({ error: 'read_only_session', message: 'This is a read-only support session: it cannot submit a return.' })
  }
}
