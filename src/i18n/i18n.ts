import { i18n, type Messages } from '@lingui/core'
import { messages as english } from './catalogs/en'
import type sourceCatalog from './catalogs/en.json'

/** Every message of the portal's own words; the English catalog is the source (lingui.config.js). */
export type MessageId = keyof typeof sourceCatalog

/** The languages of the portal's own words. A `lang` outside them shows English words. */
export const UI_LOCALES = ['en', 'de', 'fr', 'es'] as const
export type UiLocale = (typeof UI_LOCALES)[number]

/**
 * English is in the main bundle: it is the words of every fallback, so a language whose chunk
 * cannot load still leaves a readable portal. Other languages are small chunks of their own.
 */
const loaders: Record<Exclude<UiLocale, 'en'>, () => Promise<{ messages: Messages }>> = {
  de: () => import(/* webpackChunkName: "i18n-de" */ './catalogs/de'),
  fr: () => import(/* webpackChunkName: "i18n-fr" */ './catalogs/fr'),
  es: () => import(/* webpackChunkName: "i18n-es" */ './catalogs/es'),
}

i18n.load('en', english)

/** The portal's language for a `lang` query value: its primary subtag when we have it ('de-AT' → 'de'). */
export function uiLocale(lang: string | null | undefined): UiLocale {
  const primary = (lang ?? '').trim().toLowerCase().split('-')[0]
  return (UI_LOCALES as readonly string[]).includes(primary ?? '') ? (primary as UiLocale) : 'en'
}

const loading = new Map<UiLocale, Promise<void>>([['en', Promise.resolve()]])
let wanted: UiLocale = 'en'

/** Fetches a language's catalog once; a failed fetch may be tried again later. */
function loadCatalog(locale: UiLocale): Promise<void> {
  let pending = loading.get(locale)
  if (!pending) {
    pending = loaders[locale as Exclude<UiLocale, 'en'>]().then(
      ({ messages }) => i18n.load(locale, messages),
      (error: unknown) => {
        loading.delete(locale)
        throw error
      },
    )
    loading.set(locale, pending)
  }
  return pending
}

/**
 * Shows the portal's words in a language, and sets `<html lang>` to it. The last language asked
 * for wins when two loads overlap; a catalog that cannot load leaves English (with a warning).
 */
export async function activateLocale(locale: UiLocale): Promise<void> {
  wanted = locale
  let shown = locale
  try {
    await loadCatalog(locale)
  } catch (error) {
    console.warn(`The ${locale} words could not be loaded; showing English.`, error)
    shown = 'en'
  }
  // A later call (the shopper's language changed meanwhile) decides.
  if (wanted !== locale) return
  if (i18n.locale !== shown) i18n.activate(shown)
  document.documentElement.lang = shown
}

export { i18n }
