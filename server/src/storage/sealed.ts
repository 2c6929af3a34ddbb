/**
 * Secrets kept in the database sealed (decision 0075): AES-256-GCM with a random 12-byte IV for
 * each value, under a key derived from the server secret with HKDF-SHA256 and a purpose label, so
 * that the key signing tokens never encrypts anything itself. A sealed value is bound to what it
 * belongs to (the additional data, e.g. the shop's id): moved to another row, it does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/** The derived key: made by `sealingKey` alone, so a raw secret is never taken for one. */
export interface SealingKey {
  readonly purpose: string
  readonly bytes: Buffer
}

/** The key of one purpose (`store connection key`), from the server secret. */
export function sealingKey(serverSecret: Buffer, purpose: string): SealingKey {
  const bytes = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), `rebound ${purpose} v1`, 32))
  return { purpose, bytes }
}

/** The form's version: `v1.` then base64url of IV (12) ‖ tag (16) ‖ ciphertext. */
const VERSION = 'v1.'

export function seal(key: SealingKey, plain: string, boundTo: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv)
  cipher.setAAD(Buffer.from(boundTo, 'utf8'))
  const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url')
}

/** Thrown when a value does not open: another server secret, another row, or changed bytes. */
export class SealBroken extends Error {
  override name = 'SealBroken'
  constructor() {
    super('A sealed value could not be opened with this server secret.')
  }
}

export function unseal(key: SealingKey, sealed: string, boundTo: string): string {
  if (!sealed.startsWith(VERSION)) throw new SealBroken()
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url')
  if (raw.length < 28) throw new SealBroken()
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, 12))
    decipher.setAAD(Buffer.from(boundTo, 'utf8'))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  } catch {
    throw new SealBroken()
  }
}
