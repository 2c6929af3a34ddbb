import type { UploadedPhoto } from '../../contract/api'
import { apiUrl, portalApi } from './portalApi'

/** A photo file's bytes and type (image/jpeg, image/png or image/webp). */
export interface PhotoUpload {
  bytes: ArrayBuffer
  type: string
}

const photosApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** The image itself as the body (the API checks its bytes): evidence for a return reason. */
    uploadPhoto: build.mutation<UploadedPhoto, PhotoUpload>({
      query: ({ bytes, type }) => ({
        url: apiUrl('/portal-registration/photos'),
        method: 'POST',
        body: bytes,
        headers: { 'content-type': type },
      }),
    }),
  }),
})

export const { useUploadPhotoMutation } = photosApi

/** The URL the order's own photo is previewed from (with the order's token, never in an <img> src). */
export const photoUrl = (id: string) => apiUrl(`/portal-registration/photos/${encodeURIComponent(id)}`)
