import { ConfigIdParams, PortalConfig } from '../../../contract/api'
import { CONFIG_ID_PATTERN } from '../../../contract/constants'
import { resolvePortalConfig } from '../services/portalConfig'
import { Refusal } from '../services/refusal'
import { replies, routes } from './typed'

/** Whether `id` is one the configuration route answers for (others are a 400). */
export const isConfigId = (id: string) => CONFIG_ID_PATTERN.test(id)

export const configRoutes = routes((app, context) => {
  app.get(
    '/config/:id',
    {
      schema: { params: ConfigIdParams, response: replies({ 200: PortalConfig }) },
    },
    async (request, reply) => {
      const resolved = await resolvePortalConfig(context, request.params.id)
      if (!resolved)
        throw new Refusal(404, { error: 'unknown_portal', message: `No portal is called ${request.params.id}` })
      // Browsers may keep it briefly; the portal itself keeps it for 24 hours (docs/rules.md §13.1).
      // Content-Language names the language of the shop's texts: the portal's words follow it.
      return reply
        .header('cache-control', 'public, max-age=60')
        .header('content-language', resolved.language)
        .send(resolved.config)
    },
  )
})
