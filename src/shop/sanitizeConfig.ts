import { CONFIG_TEXT_FIELDS, CONFIG_URL_FIELDS } from '../api/configFields'
import type { PortalConfig } from '../../contract/api'
import { safeColor } from './color'
import { safeUrl } from '../../contract/safeUrl'

export { safeUrl }

/** Longest text we show from a configuration; longer ones are cut (a layout, not a novel). */
export const MAX_TEXT_LENGTH = 2000

type TextField = (typeof CONFIG_TEXT_FIELDS)[number]
type UrlField = (typeof CONFIG_URL_FIELDS)[number]
const TEXT_FIELDS: ReadonlySet<string> = new Set(CONFIG_TEXT_FIELDS)
const URL_FIELDS: ReadonlySet<string> = new Set(CONFIG_URL_FIELDS)

/** Removes control characters (keeping line breaks) and cuts very long texts. */
export function safeText(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, '')
  return clean.length > MAX_TEXT_LENGTH ? `${clean.slice(0, MAX_TEXT_LENGTH)}…` : clean
}

export interface SanitizedConfig {
  config: Partial<PortalConfig>
  /** one line per field that was ignored, naming the field and why */
  warnings: string[]
}

/**
 * Keeps, field by field, what is safe to show from a configuration object (fetched or an
 * override): texts as plain text, http(s) URLs, valid CSS colours, a sane multiplier. Unknown
 * keys and fields of the wrong type are dropped with a warning; nothing is ever thrown.
 */
export function sanitizeConfig(raw: Record<string, unknown>, source: string): SanitizedConfig {
  const config: Partial<Record<keyof PortalConfig, unknown>> = {}
  const warnings: string[] = []
  const ignore = (key: string, why: string) => warnings.push(`${source}: ignored "${key.slice(0, 60)}": ${why}`)

  for (const [key, value] of Object.entries(raw)) {
    if (TEXT_FIELDS.has(key)) {
      if (typeof value === 'string') config[key as TextField] = safeText(value)
      else ignore(key, 'expected text')
    } else if (URL_FIELDS.has(key)) {
      const url = typeof value === 'string' ? safeUrl(value) : null
      if (url) config[key as UrlField] = url
      else ignore(key, 'expected an http(s) URL')
    } else if (key === 'button_color') {
      const color = typeof value === 'string' ? safeColor(value) : null
      if (color) config.button_color = color
      else ignore(key, 'expected a CSS colour')
    } else if (key === 'gift_card_value_multiplier') {
      if (value === null) config.gift_card_value_multiplier = null
      else if (typeof value === 'number' && Number.isFinite(value) && value >= 1 && value <= 10)
        config.gift_card_value_multiplier = value
      else ignore(key, 'expected a number from 1 to 10, or null')
    } else {
      ignore(key, 'not a configuration field')
    }
  }
  return { config: config as Partial<PortalConfig>, warnings }
}
