/**
 * A portal's configuration by its id (docs/rules.md §11.1): the shop's, with the fields of the
 * language variant the id names over it; read by the configuration route and the portal page's
 * first-paint hints.
 */
import type { PortalConfig } from '../../../contract/api'
import type { PortalContext } from '../context'
import type { Shop } from '../domain/shop'

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
