import { ReturnIdParams, ReturnStatus, StatusQuery } from '../../../contract/api'
import { readReturnStatus } from '../services/returnStatus'
import { replies, routes } from './typed'

/**
 * GET /portal-registration/returns/{id}/status?signature=…: a submitted return's progress for
 * the link its shopper keeps. The signature grants reading this page and nothing else.
 */
export const statusRoutes = routes((app, context) => {
  app.get(
    '/returns/:id/status',
    {
      schema: { params: ReturnIdParams, querystring: StatusQuery, response: replies({ 200: ReturnStatus }) },
    },
    async (request, reply) => {
      const status = await readReturnStatus(context, request.params.id, request.query.signature)
      return reply.header('cache-control', 'no-store').send(status)
    },
  )
})
