/**
 * The back office's Orders API keys (docs/back-office.md: API keys): the shop's keys listed, one
 * made (its token answered this once), one revoked. For the signed-in staff of this shop only.
 */
import { Type } from '@sinclair/typebox'
import { ApiKeyList, ApiKeyParams, CreatedApiKey, NewApiKey } from '../../../contract/staff'
import { staffAuthor } from '../services/audit'
import { apiKeyView, createApiKey, revokeShopApiKey, shopApiKeys } from '../services/apiKeys'
import { replies, routes } from './typed'

export const staffApiKeyRoutes = routes((app, context) => {
  app.get(
    '/api-keys',
    { config: { staffAction: 'apiKeys.manage' }, schema: { response: replies({ 200: ApiKeyList }) } },
    async (request) => ({
      keys: await shopApiKeys(context.db, request.staff.shop),
    }),
  )

  app.post(
    '/api-keys',
    {
      config: { staffAction: 'apiKeys.manage' },
      schema: { body: NewApiKey, response: replies({ 201: CreatedApiKey }) },
    },
    async (request, reply) => {
      const { shop, member } = request.staff
      const { label } = request.body
      const { key, token } = await createApiKey(
        context.db,
        shop,
        label,
        member.email,
        context.now(),
        staffAuthor(request),
      )
      return reply.code(201).send({ ...apiKeyView(key), token })
    },
  )

  app.delete(
    '/api-keys/:id',
    {
      config: { staffAction: 'apiKeys.manage' },
      schema: { params: ApiKeyParams, response: replies({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await revokeShopApiKey(context.db, request.staff.shop, request.params.id, context.now(), staffAuthor(request))
      return reply.code(204).send(null)
    },
  )
})
