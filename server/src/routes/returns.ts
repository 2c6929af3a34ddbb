import { QuoteRequest, InvalidReturn, ReturnOrder, ReturnRequest, SubmitHeaders } from '../../../contract/api'
import { emailLanguage } from '../email/renderEmail'
import { quoteReturn, submitReturn } from '../services/submitReturn'
import { refuseReadOnly } from './auth'
import { requestLanguage } from './language'
import { replies, routes } from './typed'

/**
 * Quote and submit (the token's order only; a read-only token quotes but never submits). Submit
 * is idempotent by its Idempotency-Key (services/submitReturn.ts).
 */
export const returnRoutes = routes((app, context) => {
  app.post(
    '/returns/quote',
    {
      schema: { body: QuoteRequest, response: replies({ 200: ReturnOrder, 422: InvalidReturn }) },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await quoteReturn(context, request.claims, request.body)),
  )

  app.post(
    '/returns',
    {
      onRequest: refuseReadOnly,
      schema: {
        body: ReturnRequest,
        headers: SubmitHeaders,
        response: replies({ 200: ReturnOrder, 201: ReturnOrder, 422: InvalidReturn }),
      },
    },
    async (request, reply) => {
      const outcome = await submitReturn(context, request.claims, request.body, {
        key: request.headers['idempotency-key'],
        language: emailLanguage(requestLanguage(request)),
      })
      return reply
        .code(outcome.created ? 201 : 200)
        .header('cache-control', 'no-store')
        .send(outcome.order)
    },
  )
})
