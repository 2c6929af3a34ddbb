import argon2 from 'argon2'

/**
 * Staff passwords are hashed with Argon2id at OWASP's first recommended setting (19 MiB, two
 * passes, one lane): about 25 ms a hash on one core here (docs/back-office.md).
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

/** Shortest password a staff member may have. */
export const MIN_PASSWORD_LENGTH = 12
/** Longest: a megabyte of "password" would otherwise be hashed on every try. */
export const MAX_PASSWORD_LENGTH = 256

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS)
}

/** A hash of no one's password, made once: an unknown e-mail is checked against it. */
let stand_in: Promise<string> | null = null

/**
 * Whether `password` is the one `hash` was made of. Without a hash (an unknown e-mail) the same
 * work is done against a stand-in, and the answer is false: both answer alike, in the same time.
 */
export async function passwordMatches(hash: string | null, password: string): Promise<boolean> {
  stand_in ??= hashPassword(`no one's password ${Math.random()}`)
  const against = hash ?? (await stand_in)
  try {
    const matches = await argon2.verify(against, password)
    return hash !== null && matches
  } catch {
    // A stored hash argon2 cannot read signs no one in.
    return false
  }
}

/** Why a new password cannot be taken, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters`
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must be at most ${MAX_PASSWORD_LENGTH} characters`
  return null
}
