/**
 * A URL we may use: http or https only, resolved against the page (relative paths allowed). No
 * imports and no DOM types: the API resolves a logo exactly as the page will (firstPaintHints).
 */
export function safeUrl(
  value: string,
  base = (globalThis as { document?: { baseURI: string } }).document?.baseURI ?? 'http://localhost/',
): string | null {
  const trimmed = value.trim()
  if (trimmed === '' || trimmed.length > 4096) return null
  try {
    const url = new URL(trimmed, base)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}
