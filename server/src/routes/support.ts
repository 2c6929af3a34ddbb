import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { SupportReference, SupportReferenceRequest, SupportToken } from '../../../contract/api'
import { issueToken } from '../domain/token'
import { invalidRequest } from '../services/refusal'
import { keepSupportCode } from '../services/supportReferences'
import { refuseReadOnly } from './auth'
import { replies, routes } from './typed'

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0

/** No body at all, or `{}`: a JSON schema cannot say "absent or empty", so this is checked by hand. */
function emptyBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  done(
    request.body === undefined || isEmptyObject(request.body) ? undefined : invalidRequest('body: must be empty or {}'),
  )
}

/**
 * POST /portal-registration/support-token: a read-only token for the presented token's order and
 * shop, ending when it ends. The shopper's support code carries it, so whoever replays the code
 * sees the session and cannot submit a return. A read-only token gives a read-only token again.
 */
export const supportRoutes = routes(async (app, context) => {
  // Its own scope: the parser below must not change how the other routes answer odd bodies.
  await app.register((scope, _options, done) => {
    // A body of any other media type is a 400 like any other body but {}, not the usual 415.
    scope.addContentTypeParser('*', (_request, _payload, done) =>
      done(Object.assign(new Error('body: must be empty or {}'), { statusCode: 400 }), undefined),
    )

    scope.post(
      '/support-token',
      {
        preValidation: emptyBody,
        schema: { response: replies({ 200: SupportToken }) },
      },
      async (request, reply) => {
        const claims = request.claims
        // The same expiry, never a fresh one: a copied code must not outlive the shopper's session.
        const body: SupportToken = {
          token: issueToken(context.secret, { ...claims, readOnly: true }),
          token_expires_at: new Date(claims.expires * 1000).toISOString(),
        }
        return reply.header('cache-control', 'no-store').send(body)
      },
    )
    done()
  })

  // POST /portal-registration/support-references {code}: the shopper's support code kept for the
  // shop's staff, who open it in the back office by the short reference answered (docs/support.md).
  // Only the session's own shopper keeps one (a replay's read-only token cannot), and only a code
  // this portal made for this session: its shop, a read-only token of its order.
  app.post(
    '/support-references',
    {
      bodyLimit: 80 * 1024,
      onRequest: refuseReadOnly,
      preHandler: app.rateLimit({ max: 30, timeWindow: 60_000, groupId: 'support-references' }),
      schema: { body: SupportReferenceRequest, response: replies({ 201: SupportReference }) },
    },
    async (request, reply) => {
      const kept = await keepSupportCode(context, request.claims, request.body.code, context.now())
      return reply.code(201).header('cache-control', 'no-store').send(kept)
    },
  )
})
