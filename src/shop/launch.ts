import { parseLang } from './subdomain'

/** What the start screen was opened with; later screens keep it (language, Test Mode, Preview). */
export interface Launch {
  lang: string | null
  testMode: boolean
  /** the raw `config` query value, decoded and checked where it is used */
  configOverride: string | null
}

/** The query parameters a start screen URL may carry (portal-spec.md §2). */
export function launchFromSearch(search: URLSearchParams): Launch {
  const config = search.get('config')
  return {
    lang: parseLang(search.get('lang')),
    testMode: search.get('testMode') === '1',
    configOverride: config === null || config.trim() === '' ? null : config,
  }
}
