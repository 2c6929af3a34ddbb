const EMAIL = /([^\s@"'<>]{1,64})@([^\s@"'<>]{1,255})/g

/** "jane@example.com" → "j***@example.com": enough to tell sessions apart, not to contact anyone. */
export function maskEmail(text: string): string {
  return text.replace(EMAIL, (_match, local: string, domain: string) => `${local.slice(0, 1)}***@${domain}`)
}

/**
 * A copy of `value` with every e-mail address in its strings masked (keys and shape kept). Used
 * wherever state leaves the shopper's tab: Redux DevTools and the support code.
 */
export function maskEmails<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return maskEmail(value) as T
  if (depth > 12 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return (value as unknown[]).map((item) => maskEmails(item, depth + 1)) as T
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) copy[key] = maskEmails(item, depth + 1)
  return copy as T
}
