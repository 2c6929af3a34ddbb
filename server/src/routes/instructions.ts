import { LabelQuery, ReturnIdParams, ReturnInstructionsAnswer } from '../../../contract/api'
import { instructionsFor, labelOf } from '../services/instructions'
import { requestLanguage } from './language'
import { Bytes, replies, routes } from './typed'

/** Return instructions, for the token's order only. */
export const instructionRoutes = routes((app, context) => {
  app.get(
    '/returns/:id/instructions',
    {
      // address, label and QR code are absent when nothing is sent back (every item kept)
      schema: { params: ReturnIdParams, response: replies({ 200: ReturnInstructionsAnswer }) },
    },
    async (request, reply) => {
      const { body, cacheable } = await instructionsFor(
        context,
        request.claims,
        request.params.id,
        requestLanguage(request),
      )
      return reply
        .headers({ 'cache-control': cacheable ? 'private, max-age=300' : 'no-store', vary: 'accept-language' })
        .send(body)
    },
  )
})

/** The label PDF behind its signed link (no token: the link is the shopper's). */
export const labelRoutes = routes((app, context) => {
  app.get(
    '/returns/:id/label.pdf',
    { schema: { params: ReturnIdParams, querystring: LabelQuery, response: replies({ 200: Bytes }) } },
    async (request, reply) => {
      const { expires, signature } = request.query
      const { pdf, fileName } = await labelOf(context, request.params.id, { expires: Number(expires), signature })
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'private, max-age=3600')
        .send(Buffer.from(pdf))
    },
  )
})
