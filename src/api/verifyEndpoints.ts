import { env } from '../app/env'
import type { VerifiedOrder, VerifyRequest } from '../../contract/api'
import { hostUrl, portalApi } from './portalApi'

const verifyApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    verifyOrder: build.mutation<VerifiedOrder, VerifyRequest>({
      query: (body) => ({ url: hostUrl(env.apiUrl, '/portal-registration/verify'), method: 'POST', body }),
    }),
  }),
})

export const { useVerifyOrderMutation } = verifyApi
