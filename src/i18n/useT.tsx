import { useLingui } from '@lingui/react'
import type { MessageId, UiLocale } from './i18n'

/** Values of an ICU message: `{count}`, `{name}`… */
export type MessageValues = Record<string, string | number>

/** A message by its id (a typo is a type error), in the portal's current language. */
export type Translate = (id: MessageId, values?: MessageValues) => string

/** The translate function of the current language; the component re-renders when it changes. */
export function useT(): Translate {
  return useLingui()._
}

/** The portal's language, for Intl formatting of money, percentages and dates. */
export function useLocale(): UiLocale {
  return useLingui().i18n.locale as UiLocale
}
