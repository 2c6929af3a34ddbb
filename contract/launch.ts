import { parseLang } from './subdomain'

import type { Launch } from './returnFlow'

export type { Launch }

/** The query parameters a start screen URL may carry (docs/rules.md §5). */
export function launchFromSearch(search: URLSearchParams): Launch {
  const config = search.get('config')
  return {
    lang: parseLang(search.get('lang')),
    testMode: search.get('testMode') === '1',
    configOverride: config === null || config.trim() === '' ? null : config,
  }
}
