/**
 * The Orders API's keys (docs/api.md: Orders API, decision 0074): a token of 32 random bytes
 * behind a prefix that says what it is, kept by Rebound only as its SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto'

/** What every key begins with: a scanner (or a person) knows a leaked one for Rebound's. */
export const API_KEY_PREFIX = 'rbk_'

/** A key as sent: the prefix and 32 bytes in base64url (43 characters, no padding). */
export const API_KEY_PATTERN = /^rbk_[A-Za-z0-9_-]{43}$/

/** How many of a key's first characters are kept and shown, to tell keys apart: `rbk_` and 6 of its 43. */
const SHOWN = API_KEY_PREFIX.length + 6

/** A new key's token: shown once, at creation, and never again. */
export const newApiKeyToken = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`

/**
 * What is stored of a token and looked up by. A fast hash is right here: the token is 256 random
 * bits, which no number of guesses finds, unlike a password (which is why those use scrypt).
 */
export const apiKeyDigest = (token: string) => createHash('sha256').update(token).digest('hex')

/** The non-secret start of a token that staff see beside its label (`rbk_Ab3dE_`). */
export const apiKeyShownPrefix = (token: string) => token.slice(0, SHOWN)
