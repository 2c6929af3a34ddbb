import type { Queryable } from './database'

/** Who made a change: a staff member, an Orders API key, or the server itself. */
export interface AuditActor {
  kind: 'staff' | 'api_key' | 'system'
  /** the staff member's or the key's id; null for the system or an unknown e-mail's failed sign-in */
  id: string | null
  /** what a person reads: the e-mail, or the key's name, as it was at the time */
  label: string
}

/** One change, as the audit log keeps it (docs/back-office.md, "The audit log"). */
export interface AuditEntry {
  shopId: string
  at: Date
  actor: AuditActor
  /** the client's address, as the server saw it (behind TRUST_PROXY: the forwarded one) */
  address: string | null
  /** what happened, a dotted name such as `policy.changed` or `staff.signed_in` */
  kind: string
  /** what it happened to: a return's id, a webhook's, a staff member's e-mail; null for the shop */
  subject: string | null
  /** what changed: `before` and `after` for settings, otherwise what a reader needs */
  detail: Record<string, unknown>
}

export interface AuditRow {
  id: string
  at: Date
  actor_kind: AuditActor['kind']
  actor_id: string | null
  actor_label: string
  address: string | null
  kind: string
  subject: string | null
  detail: Record<string, unknown>
}

/** Appends one entry. The table takes inserts only: its trigger refuses updates and deletes. */
export async function appendAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (shop_id, at, actor_kind, actor_id, actor_label, address, kind, subject, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      entry.shopId,
      entry.at,
      entry.actor.kind,
      entry.actor.id,
      entry.actor.label,
      entry.address,
      entry.kind,
      entry.subject,
      JSON.stringify(entry.detail),
    ],
  )
}

/** A shop's entries, newest first, as written (the reading page and its filters build on this). */
export async function readAudit(db: Queryable, shopId: string, limit = 100): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT id::text AS id, at, actor_kind, actor_id, actor_label, address, kind, subject, detail
       FROM audit_log WHERE shop_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
    [shopId, limit],
  )
}
