import { env } from '../app/env'
import type { PortalConfig } from '../../contract/api'
import { hostUrl, portalApi } from './portalApi'

export interface ConfigRequest {
  /** `{subdomain}` or `{subdomain}-{lang}` */
  id: string
}

const configApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getConfig: build.query<PortalConfig, ConfigRequest>({
      query: ({ id }) => hostUrl(env.configUrl, `/portal-registration/config/${encodeURIComponent(id)}`),
    }),
  }),
})

/** The injected endpoints: the boot starts the configuration's query before React renders. */
export { configApi }
