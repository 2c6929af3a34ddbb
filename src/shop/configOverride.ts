import type { PortalConfig } from '../../contract/api'
import { sanitizeConfig } from './sanitizeConfig'

/** Longest `config` query value we decode. */
export const MAX_OVERRIDE_LENGTH = 16_384

/** Fields an override may not change: it restyles a portal, it cannot point it at another shop. */
const IDENTITY_FIELDS = ['shop', 'portal_id'] as const

/** Decodes standard or URL-safe base64 (padding optional) as UTF-8, or null. */
export function decodeBase64Utf8(value: string): string | null {
  // URLSearchParams turns '+' into ' '; put it back before decoding.
  const normalized = value.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
  if (!/^[A-Za-z0-9+/]*$/.test(normalized) || normalized.length % 4 === 1) return null
  try {
    const binary = atob(normalized + '='.repeat((4 - (normalized.length % 4)) % 4))
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

export interface ConfigOverride {
  config: Partial<PortalConfig>
  warnings: string[]
}

/**
 * Parses the `config` query parameter: base64 of a JSON object whose fields are merged over the
 * fetched configuration. Whatever does not decode, or has the wrong type, is ignored with a
 * warning, field by field.
 * @example parseConfigOverride(btoa('{"button_color":"#0a0"}')).config // { button_color: '#00aa00' }
 */
export function parseConfigOverride(param: string): ConfigOverride {
  if (param.length > MAX_OVERRIDE_LENGTH) {
    return { config: {}, warnings: [`config override: ignored, longer than ${MAX_OVERRIDE_LENGTH} characters`] }
  }
  const json = decodeBase64Utf8(param)
  if (json === null) return { config: {}, warnings: ['config override: ignored, not base64 of UTF-8 text'] }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return { config: {}, warnings: ['config override: ignored, not JSON'] }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { config: {}, warnings: ['config override: ignored, not a JSON object'] }
  }
  const { config, warnings } = sanitizeConfig(value as Record<string, unknown>, 'config override')
  for (const field of IDENTITY_FIELDS) {
    if (field in config) {
      delete config[field]
      warnings.push(`config override: ignored "${field}": an override cannot change the shop`)
    }
  }
  return { config, warnings }
}

/** Encodes a configuration override for the `config` query parameter (URL-safe base64). */
export function encodeConfigOverride(override: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(override))
  const binary = Array.from(bytes, (b) => String.fromCharCode(b)).join('')
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
