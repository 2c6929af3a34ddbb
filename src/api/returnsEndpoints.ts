import type {
  Catalogue,
  ReturnInstructionsAnswer,
  ReturnOrder,
  ReturnRequest,
  ReturnStatus,
  SupportReference,
  SupportReferenceRequest,
  SupportToken,
} from '../../contract/api'
import { apiUrl, portalApi } from './portalApi'

export interface SubmitRequest {
  body: ReturnRequest
  /** the same key for every retry of one submit: the server makes one return of them */
  idempotencyKey: string
}

export const returnsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    submitReturn: build.mutation<ReturnOrder, SubmitRequest>({
      query: ({ body, idempotencyKey }) => ({
        url: apiUrl('/portal-registration/returns'),
        method: 'POST',
        body,
        headers: { 'idempotency-key': idempotencyKey },
      }),
    }),
    getCatalogue: build.query<Catalogue, void>({
      query: () => apiUrl('/portal-registration/catalogue'),
    }),
    getReturnInstructions: build.query<ReturnInstructionsAnswer, { returnId: string }>({
      query: ({ returnId }) => apiUrl(`/portal-registration/returns/${encodeURIComponent(returnId)}/instructions`),
    }),
    /** A return's status from its kept link: signed, no session token (read-only, this return only). */
    getReturnStatus: build.query<ReturnStatus, { returnId: string; signature: string }>({
      query: ({ returnId, signature }) =>
        apiUrl(
          `/portal-registration/returns/${encodeURIComponent(returnId)}/status?signature=${encodeURIComponent(signature)}`,
        ),
    }),
    /** A read-only token for the support code: a mutation, as each call mints a new token. */
    createSupportToken: build.mutation<SupportToken, void>({
      query: () => ({ url: apiUrl('/portal-registration/support-token'), method: 'POST' }),
    }),
    /** Keeps the support code for the shop's staff; answers the short reference the shopper gives them. */
    createSupportReference: build.mutation<SupportReference, SupportReferenceRequest>({
      query: (body) => ({ url: apiUrl('/portal-registration/support-references'), method: 'POST', body }),
    }),
  }),
})

export const {
  useGetCatalogueQuery,
  useGetReturnInstructionsQuery,
  useGetReturnStatusQuery,
  useCreateSupportTokenMutation,
  useCreateSupportReferenceMutation,
} = returnsApi
