/**
 * Deflate and base64url with what the platform has (CompressionStream, btoa): no library, so the
 * support code costs the bundle only this file.
 */

/** Runs `bytes` through a transform stream; past `limit` output bytes it stops reading and gives null. */
async function pipeThrough(
  transform: CompressionStream | DecompressionStream,
  bytes: Uint8Array<ArrayBuffer>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const writer = transform.writable.getWriter()
  // Not awaited: the writes settle only as the output is read, and reject when reading stops early
  // or the input is not deflate. Either way the reader below learns of it.
  writer.write(bytes).catch(() => undefined)
  writer.close().catch(() => undefined)
  const reader = transform.readable.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      // A zip bomb inflates a thousandfold: stop at the limit rather than hold it all in memory.
      await reader.cancel().catch(() => undefined)
      return null
    }
    chunks.push(value)
  }
  const joined = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    joined.set(chunk, offset)
    offset += chunk.byteLength
  }
  return joined
}

/** Raw deflate (RFC 1951, no header): the smallest of the three formats CompressionStream offers. */
export async function deflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return (await pipeThrough(new CompressionStream('deflate-raw'), bytes, Number.POSITIVE_INFINITY))!
}

/** Inflates raw deflate, or null once the output passes `limit` bytes. Rejects on input that is not deflate. */
export function inflateRaw(bytes: Uint8Array<ArrayBuffer>, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  return pipeThrough(new DecompressionStream('deflate-raw'), bytes, limit)
}

/** Base64url without padding (RFC 4648 §5): survives URLs, chat tools and double-click selection. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  // In slices: String.fromCharCode with one argument per byte would overflow the stack on large codes.
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The bytes of unpadded base64url, or null for text that is not (wrong letters, impossible length). */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}
