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

/** Which entries to read: each filter left out takes every entry. */
export interface AuditFilters {
  /** the actor's label, exactly */
  person?: string
  /** kinds named exactly, and kinds beginning with one of `prefixes` */
  kinds?: { exact: readonly string[]; prefixes: readonly string[] }
  /** at or after */
  from?: Date
  /** before */
  until?: Date
}

/** Where a page ends: the last entry's time and id (entries are read newest first). */
export interface AuditCursor {
  at: Date
  id: string
}

/** The first text after every text that begins with `prefix`, in byte order: `policy.` → `policy/`. */
const pastPrefix = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)

/**
 * A shop's entries, newest first, as written: those `filters` take, older than `before`, `limit`
 * at most. Served by the (shop_id, at DESC, id DESC) index, or with a person named by the
 * (shop_id, actor_label, at DESC, id DESC) one: either reads the page in order, no sort. A kind
 * filter asks each kind and each prefix as a range of the (shop_id, kind text_pattern_ops, at DESC,
 * id DESC) index (migration 23), which the planner takes when the kinds are rare: their entries
 * are read, then the page's sorted out of them (docs/back-office.md, "The audit log").
 */
export async function readAudit(
  db: Queryable,
  shopId: string,
  limit = 100,
  filters: AuditFilters = {},
  before: AuditCursor | null = null,
): Promise<AuditRow[]> {
  const params: unknown[] = [shopId]
  const where = ['shop_id = $1']
  const param = (value: unknown) => `$${params.push(value)}`
  if (filters.person !== undefined) where.push(`actor_label = ${param(filters.person)}`)
  if (filters.kinds) {
    // A prefix as a byte range (~>=~, ~<~: the index's operators, whatever the collation), not
    // LIKE ANY, which no index serves.
    const { exact, prefixes } = filters.kinds
    const ranges = prefixes.map((prefix) => `(kind ~>=~ ${param(prefix)} AND kind ~<~ ${param(pastPrefix(prefix))})`)
    const any = [...(exact.length > 0 ? [`kind = ANY(${param(exact)}::text[])`] : []), ...ranges]
    where.push(any.length > 0 ? `(${any.join(' OR ')})` : 'false')
  }
  if (filters.from) where.push(`at >= ${param(filters.from)}`)
  if (filters.until) where.push(`at < ${param(filters.until)}`)
  if (before) where.push(`(at, a.id) < (${param(before.at)}::timestamptz, ${param(before.id)}::bigint)`)
  // a.id, the number: a bare `id` in ORDER BY would be the answer's text column ('99' after '100').
  return db.query<AuditRow>(
    `SELECT a.id::text AS id, at, actor_kind, actor_id, actor_label, address, kind, subject, detail
       FROM audit_log a WHERE ${where.join(' AND ')} ORDER BY at DESC, a.id DESC LIMIT ${param(limit)}`,
    params,
  )
}

/**
 * Everyone a shop's log names as the actor of an entry, a staff member or a key (not an unknown
 * e-mail's failed sign-in), in order: a walk of the (shop_id, actor_label, …) index from one
 * label to the next, however many entries each has.
 */
export async function readAuditPeople(db: Queryable, shopId: string, limit = 500): Promise<string[]> {
  const rows = await db.query<{ label: string }>(
    `WITH RECURSIVE people(label) AS (
       (SELECT actor_label FROM audit_log WHERE shop_id = $1 AND actor_id IS NOT NULL ORDER BY actor_label LIMIT 1)
       UNION ALL
       SELECT (SELECT actor_label FROM audit_log
                WHERE shop_id = $1 AND actor_id IS NOT NULL AND actor_label > people.label
                ORDER BY actor_label LIMIT 1)
         FROM people WHERE people.label IS NOT NULL
     )
     SELECT label FROM people WHERE label IS NOT NULL LIMIT $2`,
    [shopId, limit],
  )
  return rows.map((row) => row.label)
}
