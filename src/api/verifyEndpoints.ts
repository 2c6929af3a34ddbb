import type { VerifiedOrder, VerifyRequest } from '../../contract/api'
import { apiUrl, portalApi } from './portalApi'

export const verifyApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    verifyOrder: build.mutation<VerifiedOrder, VerifyRequest>({
      query: (body) => ({ url: apiUrl('/portal-registration/verify'), method: 'POST', body }),
    }),
  }),
})

export const { useVerifyOrderMutation } = verifyApi
