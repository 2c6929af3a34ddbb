import { useEffect } from 'react'
import { activateLocale, type UiLocale } from './i18n'

/**
 * Keeps the portal's words in the session's language: boot activates it before the first render;
 * this follows a change (a start screen opened with another `lang`, a support code loaded).
 */
export function useUiLocale(locale: UiLocale) {
  useEffect(() => {
    void activateLocale(locale)
  }, [locale])
}
