import { i18n, type Messages } from '@lingui/core'
import type flowCatalog from './catalogs/flow/en.json'
import { messages as englishStart } from './catalogs/start/en'
import type startCatalog from './catalogs/start/en.json'

/** Every message of the portal's own words; the English catalogs are the source (lingui.config.js). */
export type MessageId = keyof typeof startCatalog | keyof typeof flowCatalog

/** The languages of the portal's own words. A `lang` outside them shows English words. */
export const UI_LOCALES = ['en', 'de', 'fr', 'es'] as const
export type UiLocale = (typeof UI_LOCALES)[number]

type Catalog = () => Promise<{ messages: Messages }>

/**
 * The start screen's English words are in the main bundle: they are every fallback, so a language
 * whose chunk cannot load still leaves a readable start screen and frame. Everything else is a
 * small chunk: the start words of other languages, and each language's words of the later steps,
 * which come with the first later step's chunk (see withFlowWords).
 */
const startCatalogs: Record<Exclude<UiLocale, 'en'>, Catalog> = {
  de: () => import(/* webpackChunkName: "i18n-start-de" */ './catalogs/start/de'),
  fr: () => import(/* webpackChunkName: "i18n-start-fr" */ './catalogs/start/fr'),
  es: () => import(/* webpackChunkName: "i18n-start-es" */ './catalogs/start/es'),
}
const flowCatalogs: Record<UiLocale, Catalog> = {
  en: () => import(/* webpackChunkName: "i18n-flow-en" */ './catalogs/flow/en'),
  de: () => import(/* webpackChunkName: "i18n-flow-de" */ './catalogs/flow/de'),
  fr: () => import(/* webpackChunkName: "i18n-flow-fr" */ './catalogs/flow/fr'),
  es: () => import(/* webpackChunkName: "i18n-flow-es" */ './catalogs/flow/es'),
}

// A copy: Lingui merges later catalogs into the first object it is given for a language.
i18n.load('en', { ...englishStart })

/** The portal's language for a `lang` query value: its primary subtag when we have it ('de-AT' → 'de'). */
export function uiLocale(lang: string | null | undefined): UiLocale {
  const primary = (lang ?? '').trim().toLowerCase().split('-')[0]
  return (UI_LOCALES as readonly string[]).includes(primary ?? '') ? (primary as UiLocale) : 'en'
}

const loading = new Map<string, Promise<void>>([['start:en', Promise.resolve()]])

/** Fetches one catalog once, merging it into the language's messages; a failure may be retried. */
function load(part: 'start' | 'flow', locale: UiLocale): Promise<void> {
  const key = `${part}:${locale}`
  let pending = loading.get(key)
  if (!pending) {
    const fetch = part === 'start' ? startCatalogs[locale as Exclude<UiLocale, 'en'>] : flowCatalogs[locale]
    pending = fetch().then(
      ({ messages }) => i18n.load(locale, messages),
      (error: unknown) => {
        loading.delete(key)
        throw error
      },
    )
    loading.set(key, pending)
  }
  return pending
}

/** The language asked for last, and whether a later step has needed its words yet. */
let wanted: UiLocale = 'en'
let flowNeeded = false

/**
 * The later steps' words in the session's language (complete: English fills any gap at compile
 * time). A screen's loader waits for them, so a step never renders a message id; a failure fails
 * the screen's load (reload once, then the error boundary), like its own chunk.
 */
export function loadFlowWords(): Promise<void> {
  flowNeeded = true
  return load('flow', wanted)
}

/** A screen's chunk that resolves once the later steps' words are there too. */
export function withFlowWords<T>(chunk: Promise<T>): Promise<T> {
  return Promise.all([chunk, loadFlowWords()]).then(([module]) => module)
}

/**
 * Shows the portal's words in a language, and sets `<html lang>` to it. The last language asked
 * for wins when two loads overlap; a language whose words cannot load leaves English (with a
 * warning).
 */
export async function activateLocale(locale: UiLocale): Promise<void> {
  wanted = locale
  let shown = locale
  try {
    await Promise.all([locale === 'en' ? undefined : load('start', locale), flowNeeded ? loadFlowWords() : undefined])
  } catch (error) {
    console.warn(`The ${locale} words could not be loaded; showing English.`, error)
    shown = 'en'
    if (flowNeeded) await load('flow', 'en').catch(() => undefined)
  }
  // A later call (the shopper's language changed meanwhile) decides.
  if (wanted !== locale) return
  if (i18n.locale !== shown) i18n.activate(shown)
  document.documentElement.lang = shown
}

export { i18n }
