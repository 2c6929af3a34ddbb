import type { InspectionPreview, InspectionRequest, ReceiveFound, StaffPhoto } from '../../contract/staff'
import { staffApi } from './api'

/** A photo of an item as the warehouse took it: the image itself is the body (the API checks its bytes). */
export interface InspectionPhotoUpload {
  returnId: string
  lineItemId: string
  bytes: ArrayBuffer
  /** image/jpeg, image/png or image/webp */
  type: string
}

export interface InspectionArgs {
  returnId: string
  body: InspectionRequest
}

const returnPath = (id: string) => `returns/${encodeURIComponent(id)}`

/** Receiving and inspection (docs/lifecycle.md), on the console's one API. */
const receivingApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    /** The return a scanned drop-off code (RB-…) or a typed return number (#1001-R1) names. */
    findReturnByCode: build.query<ReceiveFound, string>({
      query: (code) => `receive?${new URLSearchParams({ code }).toString()}`,
      // Each scan asks again: a return found a moment ago may have been received since.
      keepUnusedDataFor: 0,
    }),
    uploadInspectionPhoto: build.mutation<StaffPhoto, InspectionPhotoUpload>({
      query: ({ returnId, lineItemId, bytes, type }) => ({
        url: `${returnPath(returnId)}/photos?${new URLSearchParams({ line_item_id: lineItemId }).toString()}`,
        method: 'POST',
        body: bytes,
        headers: { 'content-type': type },
      }),
    }),
    /** What the inspection would deduct and restock: a read, though it is sent as a POST. */
    previewInspection: build.query<InspectionPreview, InspectionArgs>({
      query: ({ returnId, body }) => ({ url: `${returnPath(returnId)}/inspection/preview`, method: 'POST', body }),
      keepUnusedDataFor: 0,
    }),
    inspectReturn: build.mutation<unknown, InspectionArgs>({
      query: ({ returnId, body }) => ({ url: `${returnPath(returnId)}/inspection`, method: 'POST', body }),
      // The items move on, a refund may be issued, e-mails and webhooks may go out.
      invalidatesTags: (_result, error, { returnId }) =>
        error ? [] : ['Returns', { type: 'Return', id: returnId }, 'Emails', 'Webhooks'],
    }),
  }),
})

export const {
  useLazyFindReturnByCodeQuery,
  useUploadInspectionPhotoMutation,
  useLazyPreviewInspectionQuery,
  useInspectReturnMutation,
} = receivingApi
