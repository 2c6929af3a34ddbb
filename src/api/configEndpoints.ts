import { env } from '../app/env'
import type { PortalConfig } from '../../contract/api'
import { hostUrl, portalApi } from './portalApi'

export interface ConfigRequest {
  /** `{subdomain}` or `{subdomain}-{lang}` */
  id: string
}

/** The configuration as fetched (sanitised later), and the language of the shop's texts in it. */
export interface ConfigAnswer {
  config: PortalConfig
  /**
   * The answer's Content-Language, when it names one: the portal's words follow it, so they are
   * never in a language the shop's texts are not (docs/decisions/0071-portal-words-fall-back-whole.md).
   */
  textsLanguage: string | null
}

const configApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getConfig: build.query<ConfigAnswer, ConfigRequest>({
      query: ({ id }) => hostUrl(env.configUrl, `/portal-registration/config/${encodeURIComponent(id)}`),
      transformResponse: (config: PortalConfig, meta) => ({
        config,
        textsLanguage: meta?.response?.headers.get('content-language') ?? null,
      }),
    }),
  }),
})

/** The injected endpoints: the boot starts the configuration's query before React renders. */
export { configApi }
