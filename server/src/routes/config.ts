import { ConfigIdParams, PortalConfig } from '../../../contract/api'
import { CONFIG_ID_PATTERN } from '../../../contract/constants'
import type { PortalContext } from '../context'
import type { Shop } from '../domain/shop'
import { Refusal } from '../services/refusal'
import { replies, routes } from './typed'

/** Whether `id` is one the configuration route answers for (others are a 400). */
export const isConfigId = (id: string) => CONFIG_ID_PATTERN.test(id)

/** A configuration and the language of the shop's texts in it: its variant's, else English. */
export interface ResolvedConfig {
  config: PortalConfig
  language: string
}

/** The configuration of `id`: the shop's base one, with the language variant's fields over it. */
export async function resolvePortalConfig(context: PortalContext, id: string): Promise<ResolvedConfig | null> {
  const key = id.toLowerCase()
  const exact = await context.shops.find(key)
  if (exact) return configOf(exact, null)
  // The language may have a region ('demo-de-at') and the shop a dash ('my-shop-de'): the longest
  // shop id that exists wins, at most three tries.
  for (
    let dash = key.lastIndexOf('-'), tries = 0;
    dash > 0 && tries < 3;
    dash = key.lastIndexOf('-', dash - 1), tries++
  ) {
    const base = await context.shops.find(key.slice(0, dash))
    // A language the shop has no variant for falls back to its base configuration (docs/rules.md §11.1).
    if (base) return configOf(base, key.slice(dash + 1))
  }
  return null
}

/**
 * The variant of the language ('de-at'), else of its primary subtag ('de'), over the base; the
 * base's texts are read as English (docs/decisions/0071-portal-words-fall-back-whole.md).
 */
function configOf(shop: Shop, lang: string | null): ResolvedConfig {
  const variants = shop.config_variants
  const primary = lang?.split('-')[0]
  const language =
    lang && Object.hasOwn(variants, lang) ? lang : primary && Object.hasOwn(variants, primary) ? primary : null
  const variant = language === null ? undefined : variants[language]
  return {
    config: { ...shop.config, ...variant, shop: shop.id, portal_id: shop.config.portal_id },
    language: language ?? 'en',
  }
}

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
