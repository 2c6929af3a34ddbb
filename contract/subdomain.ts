const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * The shop's subdomain from the page's host name (docs/rules.md §2.2): the first label when the host
 * has three or more labels or ends in `.localhost`; otherwise the default.
 * @example subdomainFromHost('acme.returns.example.com', 'demo') // 'acme'
 */
export function subdomainFromHost(hostname: string, fallback: string): string {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '')
  // An IP address has no subdomain, however many dots it has.
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':') || host.startsWith('[')) return fallback
  const labels = host.split('.')
  const first = labels[0] ?? ''
  const qualifies = labels.length >= 3 || (labels.length === 2 && labels[1] === 'localhost')
  return qualifies && LABEL.test(first) ? first : fallback
}

/** The configuration id to fetch: `{subdomain}` or `{subdomain}-{lang}` (docs/rules.md §11.1). */
export function configId(subdomain: string, lang: string | null): string {
  return lang ? `${subdomain}-${lang}` : subdomain
}

/**
 * The `lang` query value as given (docs/rules.md §11.1: the configuration id is the subdomain, a
 * dash and that value; the API matches it in any case), or null when it is not a language tag we
 * can put in a URL path ('german', '../acme'). `de_DE`, as some systems write it, is `de-DE`.
 */
export function parseLang(value: string | null): string | null {
  if (value === null) return null
  const lang = value.trim().replace('_', '-')
  return /^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$/i.test(lang) ? lang : null
}
