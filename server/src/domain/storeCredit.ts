/**
 * Store credit as something to spend (decision 0064): a gift-card code the shopper types at
 * checkout. Made here, in one place, so that a commerce engine can issue the code instead.
 */
import { randomBytes } from 'node:crypto'

/** Crockford's base32: no I, L, O or U, so a code read off a phone or paper is typed right. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * A new store credit code: 80 random bits as sixteen characters in four groups,
 * `GC-7KQ2-9XHD-M3PA-R8TW`. A byte's low five bits are uniform, as 256 is a multiple of 32.
 */
export function newStoreCreditCode(random: (size: number) => Uint8Array = randomBytes): string {
  const chars = [...random(16)].map((byte) => ALPHABET[byte & 31]!).join('')
  return `GC-${chars.match(/.{4}/g)!.join('-')}`
}

/** The shape of a code made by newStoreCreditCode. */
export const STORE_CREDIT_CODE = /^GC(-[0-9A-HJKMNP-TV-Z]{4}){4}$/
