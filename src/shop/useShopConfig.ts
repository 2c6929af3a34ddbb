import { useEffect, useMemo, useReducer } from 'react'
import { useGetConfigQuery } from '../api/configEndpoints'
import { env } from '../app/env'
import { cssColors, needsCssColors, readableTextOn } from './color'
import { previewParser, resolveShopConfig, type ShopConfig } from './shopConfig'
import { configId, subdomainFromHost } from './subdomain'
import { useLaunch } from './useLaunch'

export interface ShopConfigState {
  config: ShopConfig | null
  preview: boolean
  /** the session's `lang` (its configuration variant and the portal's words) */
  lang: string | null
  testMode: boolean
  isLoading: boolean
  isError: boolean
  retry: () => void
}

/** The shop's configuration for this host and launch (language, override), fetched once a day. */
export function useShopConfig(): ShopConfigState {
  const launch = useLaunch()
  const id = configId(subdomainFromHost(window.location.hostname, env.defaultSubdomain), launch.lang)
  const { data, isLoading, isFetching, isError, refetch } = useGetConfigQuery({ id })
  // A preview waits for its parser and the reader of any CSS colour; a colour other than a hex
  // one (a name from another API) waits for that reader. Both are chunks of their own.
  const chunks = [
    ...(launch.configOverride !== null ? [previewParser, cssColors] : []),
    ...(data !== undefined && needsCssColors(buttonColorOf(data)) ? [cssColors] : []),
  ]
  const waitingForChunks = chunks.some((chunk) => !chunk.settled())
  const [, chunksLoaded] = useReducer((count: number) => count + 1, 0)
  useEffect(() => {
    if (waitingForChunks) void Promise.all(chunks.map((chunk) => chunk.load())).then(chunksLoaded)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waitingForChunks])
  const resolved = useMemo(
    () => (data === undefined || waitingForChunks ? null : resolveShopConfig(data, launch.configOverride, readableTextOn)),
    [data, launch.configOverride, waitingForChunks],
  )
  useEffect(() => {
    resolved?.warnings.forEach((warning) => console.warn(warning))
  }, [resolved])
  return {
    config: resolved?.config ?? null,
    preview: launch.configOverride !== null,
    lang: launch.lang,
    testMode: launch.testMode,
    isLoading: isLoading || waitingForChunks || (isError && isFetching),
    isError: isError && !isFetching,
    retry: () => void refetch(),
  }
}

/** The fetched configuration's button colour, whatever its type (it is sanitised later). */
function buttonColorOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>).button_color : undefined
}
