import type { DevToolsEnhancerOptions } from '@reduxjs/toolkit'

const FLAG = 'rebound:devtools'

/**
 * Redux DevTools: in development with traces; in production only after `?devtools=1` (kept for the
 * tab's session, `?devtools=0` turns it off), and then with every e-mail masked.
 */
export function devToolsOptions(
  production: boolean,
  search: string,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
): boolean | DevToolsEnhancerOptions {
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
  // The masker is a chunk of its own, fetched only when the tools are on (the start screen's
  // bundle does without it); until it is in, actions show their type only, and no state.
  let mask: (<T>(value: T) => T) | null = null
  void import(/* webpackChunkName: "mask-emails" */ '../support/maskEmails').then(
    (module) => (mask = module.maskEmails),
  )
  return {
    name: 'Rebound',
    trace: false,
    actionSanitizer: (action) => (mask ? mask(action) : ({ type: action.type } as typeof action)),
    stateSanitizer: (state) => (mask ? mask(state) : ({} as typeof state)),
  }
}
