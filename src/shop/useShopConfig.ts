import { useEffect, useMemo, useReducer } from 'react'
import { configApi } from '../api/configEndpoints'
import type { Launch } from '../../contract/launch'
import { useAppDispatch } from '../app/hooks'
import { cssColors, needsCssColors, readableTextOn } from './color'
import { previewParser, resolveShopConfig, type ShopConfig } from './shopConfig'

export interface ShopConfigState {
  config: ShopConfig | null
  /** a `config` override was given ('unread': nothing of it could be used, docs/rules.md §15.2) */
  preview: boolean | 'unread'
  /** the session's `lang` (its configuration variant and the portal's words) */
  lang: string | null
  /**
   * the language of the portal's words: `lang`, unless the configuration says the shop's texts are
   * in another (no variant for `lang`: English), so the screen is in one language throughout
   */
  wordsLang: string | null
  testMode: boolean
  isLoading: boolean
  isError: boolean
  retry: () => void
}

/**
 * The shop's configuration for this launch (language, override), fetched once a day: `id` is the
 * configuration this host's shop has in the launch's language. Both come from the app's wiring
 * (Shell), which reads the return flow: the shop's configuration takes nothing from it.
 */
export function useShopConfig(launch: Launch, id: string): ShopConfigState {
  const dispatch = useAppDispatch()
  const {
    data: answer,
    isUninitialized,
    isLoading,
    isFetching,
    isError,
  } = configApi.endpoints.getConfig.useQueryState({ id })
  const data = answer?.config
  // docs/rules.md §4.6, "Retry is disabled": a configuration that failed to load (the boot asked
  // for it already) is not asked for again by this screen subscribing; only the shopper's Try again asks.
  configApi.endpoints.getConfig.useQuerySubscription({ id }, { skip: isError })
  // A preview waits for its parser and the reader of any CSS colour; a colour other than a hex
  // one (a name from another API) waits for that reader. Both are chunks of their own.
  const preview = launch.configOverride !== null
  const colours = preview || (data !== undefined && needsCssColors(buttonColorOf(data)))
  const chunks = useMemo(() => (preview ? [previewParser, cssColors] : colours ? [cssColors] : []), [preview, colours])
  const waitingForChunks = chunks.some((chunk) => !chunk.settled())
  const [, chunksLoaded] = useReducer((count: number) => count + 1, 0)
  useEffect(() => {
    if (waitingForChunks) void Promise.all(chunks.map((chunk) => chunk.load())).then(chunksLoaded)
  }, [chunks, waitingForChunks])
  const resolved = useMemo(
    () =>
      data === undefined || waitingForChunks ? null : resolveShopConfig(data, launch.configOverride, readableTextOn),
    [data, launch.configOverride, waitingForChunks],
  )
  // An answer without the shop's identity (null, [], {}) cannot verify an order: docs/rules.md
  // §12 counts it as a failed configuration fetch, not as a portal for no shop.
  const unusable = resolved !== null && (resolved.config.shop === '' || resolved.config.portal_id === '')
  useEffect(() => {
    resolved?.warnings.forEach((warning) => console.warn(warning))
    if (unusable) console.warn('configuration: no shop or portal_id')
  }, [resolved, unusable])
  return {
    config: unusable ? null : (resolved?.config ?? null),
    preview: resolved?.preview ?? preview,
    lang: launch.lang,
    wordsLang: answer?.textsLanguage ?? launch.lang,
    testMode: launch.testMode,
    isLoading: isUninitialized || isLoading || waitingForChunks || ((isError || unusable) && isFetching),
    isError: (isError || unusable) && !isFetching,
    retry: () =>
      void dispatch(configApi.endpoints.getConfig.initiate({ id }, { forceRefetch: true, subscribe: false })),
  }
}

/** The fetched configuration's button colour, whatever its type (it is sanitised later). */
function buttonColorOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>).button_color : undefined
}
