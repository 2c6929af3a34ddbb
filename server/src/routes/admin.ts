import { timingSafeEqual, createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { PortalContext } from '../context'
import { importShop } from '../import/importShop'
import { errorSchema } from './errors'

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * POST /admin/shops: the operator import over HTTP, for a running server (PGlite allows one
 * process on its directory). Only when ADMIN_TOKEN is set, and only with it.
 */
export async function adminRoutes(app: FastifyInstance, context: PortalContext, adminToken: string) {
  app.post(
    '/admin/shops',
    {
      bodyLimit: 20 * 1024 * 1024,
      schema: { response: { '4xx': errorSchema } },
      // Checked on arrival, before the body is read: without the token, nobody gets the server to
      // take in and parse 20 MB.
      onRequest: async (request, reply) => {
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
        if (!timingSafeEqual(digest(given), digest(adminToken))) return reply.code(401).send({ error: 'unauthorised', message: 'A valid admin token is required.' })
      },
    },
    async (request, reply) => {
      const result = await importShop(context.db, request.body, context.now())
      if (!result.ok) return reply.code(400).send({ error: 'invalid_shop_file', message: result.errors.join('\n') })
      context.shops.forget()
      return reply.code(201).send(result)
    },
  )
}
