import type { PortalConfig } from '../../contract/api'
import { optionalChunk } from '../app/optionalChunk'
import { sanitizeConfig } from './sanitizeConfig'

/** The configuration as the screens use it: every text present, colours resolved. */
export interface ShopConfig extends PortalConfig {
  button_color: string
  /** a text colour readable on button_color */
  button_text_color: string
}

/** The portal's own words where a shop leaves a text out. */
const FALLBACK_TEXTS = {
  document_title_text: 'Returns',
  start_return_message: 'Start your return',
  order_placeholder_text: 'Order number',
  start_return_button_message: 'Start return',
  default_error_message: 'Something went wrong',
} satisfies Partial<PortalConfig>

/** docs/rules.md §13.3: the default button colour is black. */
export const DEFAULT_BUTTON_COLOR = '#000000'

export interface ResolvedConfig {
  config: ShopConfig
  /** an override was given: show the Preview marker; 'unread' when nothing of it could be used */
  preview: boolean | 'unread'
  warnings: string[]
}

/** The `config` parameter's parser: a chunk of its own, fetched for previews only. */
export const previewParser = optionalChunk(
  'The preview (config parameter) parser',
  () => import(/* webpackChunkName: "preview" */ './configOverride'),
)

/**
 * Sanitises the fetched configuration, merges the override over it (docs/rules.md §11.1) and fills
 * in defaults. With an override, previewParser and cssColors are loaded first (useShopConfig).
 */
export function resolveShopConfig(
  fetched: unknown,
  overrideParam: string | null,
  readableTextOn: (background: string) => string,
): ResolvedConfig {
  const base = sanitizeConfig(
    typeof fetched === 'object' && fetched !== null ? (fetched as Record<string, unknown>) : {},
    'configuration',
  )
  const parse = previewParser.current()?.parseConfigOverride
  const override =
    overrideParam === null
      ? { config: {}, warnings: [] }
      : (parse?.(overrideParam) ?? {
          config: {},
          warnings: ['config override: ignored, its parser could not be loaded'],
        })
  const merged = { ...FALLBACK_TEXTS, shop: '', portal_id: '', ...base.config, ...override.config }
  const buttonColor = merged.button_color ?? DEFAULT_BUTTON_COLOR
  return {
    config: { ...merged, button_color: buttonColor, button_text_color: readableTextOn(buttonColor) },
    preview: overrideParam !== null && (Object.keys(override.config).length > 0 || 'unread'),
    warnings: [...base.warnings, ...override.warnings],
  }
}
