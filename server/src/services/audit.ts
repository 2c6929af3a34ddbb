/**
 * The audit log (docs/back-office.md, "The audit log"): every change by staff or by an API key is
 * written here, in the same transaction as the change where there is one, so a change and its
 * entry stand or fall together.
 */
import type { StaffSignedIn } from './staffSessions'
import { appendAudit, type AuditActor, type AuditEntry } from '../storage/audit'
import type { Queryable } from '../storage/database'

export type { AuditActor, AuditEntry }

/** The actor for a signed-in staff member. */
export const staffActor = (staff: StaffSignedIn): AuditActor => ({
  kind: 'staff',
  id: staff.member.id,
  label: staff.member.email,
})

/** Writes one entry; `db` is the change's transaction where it has one. */
export async function audit(
  db: Queryable,
  entry: Omit<AuditEntry, 'subject' | 'detail'> & Partial<Pick<AuditEntry, 'subject' | 'detail'>>,
): Promise<void> {
  await appendAudit(db, { subject: null, detail: {}, ...entry })
}
