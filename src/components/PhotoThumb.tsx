import { useEffect, useState } from 'react'
import { photoUrl } from '../api/photosEndpoints'
import './PhotoThumb.css'

/** An image's bytes as a data: URL: the portal's CSP allows data: images, not blob: ones. */
export function dataUrl(bytes: ArrayBuffer, type: string): string {
  const view = new Uint8Array(bytes)
  let binary = ''
  // In slices: String.fromCharCode takes its bytes as arguments, and a 5 MB photo is too many.
  for (let at = 0; at < view.length; at += 0x8000) binary += String.fromCharCode(...view.subarray(at, at + 0x8000))
  return `data:${type};base64,${btoa(binary)}`
}

/**
 * The preview of an uploaded photo: fetched with the order's token (an <img> cannot send it).
 * Without a preview (a support replay, which may not fetch photos, or a failed call) a neutral
 * tile keeps the same name.
 */
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'failed' names the one string that is not a URL
type Preview = string | null | 'failed'

function usePhotoPreview(id: string | null, token: string | null): Preview {
  const [url, setUrl] = useState<Preview>(null)
  useEffect(() => {
    if (!id || !token) return
    const controller = new AbortController()
    fetch(photoUrl(id), { headers: { authorization: `Bearer ${token}` }, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status))
        const type = response.headers.get('content-type') ?? ''
        // Only the image types the API stores: nothing else becomes an image here.
        if (!/^image\/(jpeg|png|webp)$/.test(type)) throw new Error(type)
        const url = dataUrl(await response.arrayBuffer(), type)
        if (!controller.signal.aborted) setUrl(url)
      })
      .catch(() => {
        if (!controller.signal.aborted) setUrl('failed')
      })
    return () => controller.abort()
  }, [id, token])
  return url
}

interface PhotoThumbProps {
  alt: string
  /** a local data: URL (a file just chosen); else the photo is fetched by id */
  src?: string | null
  id?: string | null
  token?: string | null
}

export function PhotoThumb({ alt, src = null, id = null, token = null }: PhotoThumbProps) {
  const fetched = usePhotoPreview(src ? null : id, token)
  const url = src ?? (fetched === 'failed' ? null : fetched)
  if (url) return <img className="photo-thumb" src={url} alt={alt} width={72} height={72} />
  return (
    <span className="photo-thumb photo-thumb--empty" role="img" aria-label={alt}>
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M9 4 7.2 6H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-3.2L15 4H9Zm3 4.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Z"
        />
      </svg>
    </span>
  )
}
