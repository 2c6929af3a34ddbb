/**
 * Staff invites and set-password links (docs/back-office.md, "Roles"): single use, for 72 hours,
 * each kept only as the SHA-256 of its token, so the table alone lets no one in.
 */
import { createHash, randomBytes } from 'node:crypto'
import { emailKey } from '../domain/normalize'
import type { Role } from '../domain/roles'
import type { Queryable } from './database'

/** An invite to a shop, or a fresh set-password link for one of its staff (after a reset). */
export type InviteKind = 'invite' | 'reset'

export interface StaffInvite {
  shop_id: string
  email: string
  role: Role
  kind: InviteKind
  invited_by: string
  created_at: Date
  expires_at: Date
  used_at: Date | null
}

const tokenKey = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * Writes an invite and answers its token (32 random bytes), which is stored only hashed. An
 * earlier unused link of the same kind for the same e-mail and shop stops working.
 */
export async function createInvite(
  tx: Queryable,
  invite: { shopId: string; email: string; role: Role; kind: InviteKind; invitedBy: string; now: Date; ttlMs: number },
): Promise<{ token: string; expiresAt: Date }> {
  const email = emailKey(invite.email)
  await tx.query('DELETE FROM staff_invites WHERE shop_id = $1 AND email = $2 AND kind = $3 AND used_at IS NULL', [
    invite.shopId,
    email,
    invite.kind,
  ])
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(invite.now.getTime() + invite.ttlMs)
  await tx.query(
    `INSERT INTO staff_invites (token_hash, shop_id, email, role, kind, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [tokenKey(token), invite.shopId, email, invite.role, invite.kind, invite.invitedBy, invite.now, expiresAt],
  )
  return { token, expiresAt }
}

/** A shop's invites not yet used nor past their time, by e-mail. */
export async function pendingInvites(db: Queryable, shopId: string, now: Date): Promise<StaffInvite[]> {
  return db.query<StaffInvite>(
    `SELECT shop_id, email, role, kind, invited_by, created_at, expires_at, used_at FROM staff_invites
      WHERE shop_id = $1 AND kind = 'invite' AND used_at IS NULL AND expires_at > $2 ORDER BY email`,
    [shopId, now],
  )
}

/** Withdraws a shop's unused invite of this e-mail; answers the role it offered, null when there was none. */
export async function withdrawInvite(db: Queryable, shopId: string, email: string): Promise<{ role: Role } | null> {
  const [row] = await db.query<{ role: Role }>(
    `DELETE FROM staff_invites WHERE shop_id = $1 AND email = $2 AND kind = 'invite' AND used_at IS NULL RETURNING role`,
    [shopId, emailKey(email)],
  )
  return row ?? null
}

/**
 * Takes an invite of this shop by its token, once: locked, checked and marked used in the
 * caller's transaction. Null for a token unknown, of another shop, used or past its time: they
 * read alike.
 */
export async function takeInvite(tx: Queryable, shopId: string, token: string, now: Date): Promise<StaffInvite | null> {
  const [row] = await tx.query<StaffInvite>(
    `SELECT shop_id, email, role, kind, invited_by, created_at, expires_at, used_at FROM staff_invites
      WHERE token_hash = $1 FOR UPDATE`,
    [tokenKey(token)],
  )
  if (!row || row.shop_id !== shopId || row.used_at !== null || new Date(row.expires_at) <= now) return null
  await tx.query('UPDATE staff_invites SET used_at = $2 WHERE token_hash = $1', [tokenKey(token), now])
  return row
}

/** The amount agents may decide reviews up to, in minor units; null when none is set (any amount). */
export async function agentReviewLimit(db: Queryable, shopId: string): Promise<number | null> {
  const [row] = await db.query<{ agent_limit_minor: string | number | null }>(
    'SELECT agent_limit_minor FROM shop_review_limits WHERE shop_id = $1',
    [shopId],
  )
  return row?.agent_limit_minor == null ? null : Number(row.agent_limit_minor)
}

/** Sets it (null: none); answers what it was. */
export async function setAgentReviewLimit(
  tx: Queryable,
  shopId: string,
  limitMinor: number | null,
  now: Date,
  by: string,
): Promise<number | null> {
  const before = await agentReviewLimit(tx, shopId)
  await tx.query(
    `INSERT INTO shop_review_limits (shop_id, agent_limit_minor, updated_at, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (shop_id) DO UPDATE SET agent_limit_minor = $2, updated_at = $3, updated_by = $4`,
    [shopId, limitMinor, now, by],
  )
  return before
}

/** The shop a token's invite is of, used or not; null for an unknown token. */
export async function inviteShop(db: Queryable, token: string): Promise<string | null> {
  const [row] = await db.query<{ shop_id: string }>('SELECT shop_id FROM staff_invites WHERE token_hash = $1', [
    tokenKey(token),
  ])
  return row?.shop_id ?? null
}
