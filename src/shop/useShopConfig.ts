import { useEffect, useMemo } from 'react'
import { useGetConfigQuery } from '../api/configEndpoints'
import { env } from '../app/env'
import { readableTextOn } from './contrast'
import { resolveShopConfig, type ShopConfig } from './shopConfig'
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
  const resolved = useMemo(
    () => (data === undefined ? null : resolveShopConfig(data, launch.configOverride, readableTextOn)),
    [data, launch.configOverride],
  )
  useEffect(() => {
    resolved?.warnings.forEach((warning) => console.warn(warning))
  }, [resolved])
  return {
    config: resolved?.config ?? null,
    preview: launch.configOverride !== null,
    lang: launch.lang,
    testMode: launch.testMode,
    isLoading: isLoading || (isError && isFetching),
    isError: isError && !isFetching,
    retry: () => void refetch(),
  }
}
