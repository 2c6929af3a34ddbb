/**
 * A shopper's support code kept under a short reference for the shop's staff (docs/support.md):
 * only a code this portal made for the shopper's own session, kept SUPPORT_REFERENCE_DAYS days.
 */
import type { SupportReference } from '../../../contract/api'
import { SUPPORT_REFERENCE_DAYS } from '../../../contract/constants'
import { newSupportReference, supportCodeProblem } from '../domain/supportReference'
import type { TokenClaims } from '../domain/token'
import type { Queryable } from '../storage/database'
import { insertSupportReference } from '../storage/supportReferences'
import { invalidRequest } from './refusal'

/** Keeps `code` for the session of `claims` under a new reference; a code of another session is refused. */
export async function keepSupportCode(
  source: { db: Queryable; secret: Buffer },
  claims: TokenClaims,
  code: string,
  now: Date,
): Promise<SupportReference> {
  const problem = supportCodeProblem(code, claims, source.secret, now)
  if (problem) throw invalidRequest(problem)
  const expiresAt = new Date(now.getTime() + SUPPORT_REFERENCE_DAYS * 86_400_000)
  // 40 random bits: a clash is rare, and a second draw settles it.
  for (let attempt = 0; attempt < 5; attempt++) {
    const reference = newSupportReference()
    const kept = await insertSupportReference(source.db, {
      reference,
      shopId: claims.shopId,
      code,
      createdAt: now,
      expiresAt,
    })
    if (kept) return { reference, expires_at: expiresAt.toISOString() }
  }
  throw new Error('No free support reference after 5 draws')
}
