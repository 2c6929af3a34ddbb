import type { DevToolsEnhancerOptions } from '@reduxjs/toolkit'

const EMAIL = /([^\s@"'<>]{1,64})@([^\s@"'<>]{1,255})/g

/** "jane@example.com" → "j***@example.com": enough to tell sessions apart, not to contact anyone. */
export function maskEmail(text: string): string {
  return text.replace(EMAIL, (_match, local: string, domain: string) => `${local.slice(0, 1)}***@${domain}`)
}

/** A copy of `value` with every e-mail address in its strings masked (keys and shape kept). */
export function maskEmails<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return maskEmail(value) as T
  if (depth > 12 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => maskEmails(item, depth + 1)) as T
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) copy[key] = maskEmails(item, depth + 1)
  return copy as T
}

const FLAG = 'rebound:devtools'

/**
 * Redux DevTools: in development with traces; in production only after `?devtools=1` (kept for the
 * tab's session, `?devtools=0` turns it off), and then with every e-mail masked.
 */
export function devToolsOptions(production: boolean, search: string, storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null): boolean | DevToolsEnhancerOptions {
  if (!production) return { name: 'Rebound', trace: true, traceLimit: 25 }
  const asked = new URLSearchParams(search).get('devtools')
  try {
    if (asked === '1') storage?.setItem(FLAG, '1')
    if (asked === '0') storage?.removeItem(FLAG)
  } catch {
    // Storage may be unavailable (private mode): the flag then lasts for this page only.
  }
  const enabled = asked === '1' || (asked !== '0' && storage?.getItem(FLAG) === '1')
  if (!enabled) return false
  return { name: 'Rebound', trace: false, actionSanitizer: (action) => maskEmails(action), stateSanitizer: (state) => maskEmails(state) }
}
