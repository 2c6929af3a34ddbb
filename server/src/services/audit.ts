/**
 * The audit log (docs/back-office.md, "The audit log"): every change by staff or by an API key is
 * written here, in the same transaction as the change where there is one, so a change and its
 * entry stand or fall together.
 */
import { Readable, pipeline } from 'node:stream'
import { AUDIT_KIND_GROUPS, AUDIT_PAGE_SIZE, type AuditKindGroup } from '../../../contract/constants'
import type {
  AuditEntry as AuditEntryView,
  AuditExportQuery,
  AuditPage,
  AuditPeople,
  AuditQuery,
} from '../../../contract/staff'
import type { PortalContext } from '../context'
import { sameJson } from '../domain/sameJson'
import type { ApiKeyUsed } from './apiKeys'
import { csvWriter } from './csv'
import { invalidRequest } from './refusal'
import type { StaffSignedIn } from './staffSessions'
import {
  appendAudit,
  readAudit,
  readAuditPeople,
  type AuditActor,
  type AuditCursor,
  type AuditEntry,
  type AuditFilters,
  type AuditRow,
} from '../storage/audit'
import type { Queryable } from '../storage/database'

export type { AuditActor, AuditEntry }

/** The actor for a signed-in staff member. */
export const staffActor = (staff: StaffSignedIn): AuditActor => ({
  kind: 'staff',
  id: staff.member.id,
  label: staff.member.email,
})

/** The actor for an Orders API key: its id, and its label as it is now. */
export const apiKeyActor = (key: ApiKeyUsed): AuditActor => ({ kind: 'api_key', id: key.id, label: key.label })

/** Who makes a change, and from which address (`request.ip`): what a service passes on to its entry. */
export interface Author {
  actor: AuditActor
  address: string | null
}

/** The author of a signed-in console request: its staff member, from its address. */
export const staffAuthor = (request: { staff: StaffSignedIn; ip: string }): Author => ({
  actor: staffActor(request.staff),
  address: request.ip,
})

/** The author of an Orders API call: its key, from its address. */
export const apiKeyAuthor = (request: { apiKey: ApiKeyUsed; ip: string }): Author => ({
  actor: apiKeyActor(request.apiKey),
  address: request.ip,
})

/** The author of a change made with the staff CLI on the server (`npm run staff`). */
export const CLI_AUTHOR: Author = { actor: { kind: 'system', id: null, label: 'staff CLI' }, address: null }

/** Writes one entry; `db` is the change's transaction where it has one. */
export async function audit(
  db: Queryable,
  entry: Omit<AuditEntry, 'subject' | 'detail'> & Partial<Pick<AuditEntry, 'subject' | 'detail'>>,
): Promise<void> {
  await appendAudit(db, { subject: null, detail: {}, ...entry })
}

/**
 * What changed between two settings objects, field by field: `before` and `after` hold only the
 * top-level fields that differ (a field added or removed is `null` on the side it is missing).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changes = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> }
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[field] ?? null
    const is = after[field] ?? null
    if (sameJson(was, is)) continue
    changes.before[field] = was
    changes.after[field] = is
  }
  return changes
}

/** An entry as the console reads it. */
const entryView = (row: AuditRow): AuditEntryView => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  actor: { kind: row.actor_kind, id: row.actor_id, label: row.actor_label },
  address: row.address,
  kind: row.kind,
  subject: row.subject,
  detail: row.detail,
})

const isGroup = (kind: string): kind is AuditKindGroup => Object.hasOwn(AUDIT_KIND_GROUPS, kind)

/** The page's filters from the query, or what is wrong with them. */
function filtersOf(query: AuditExportQuery): AuditFilters {
  const day = (value: string | undefined, field: string, plusDays = 0) => {
    if (value === undefined) return {}
    const at = new Date(`${value}T00:00:00Z`)
    // 2026-02-31 is not a day, though Date would make it one in March.
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value)
      throw invalidRequest(`${field}: not a day`)
    return { [field === 'from' ? 'from' : 'until']: new Date(at.getTime() + plusDays * 86_400_000) }
  }
  const { person, kind } = query
  const named = kind === undefined ? null : isGroup(kind) ? AUDIT_KIND_GROUPS[kind] : [kind]
  return {
    ...(person === undefined ? {} : { person }),
    ...(named
      ? {
          kinds: {
            exact: named.filter((name) => !name.endsWith('.')),
            prefixes: named.filter((name) => name.endsWith('.')),
          },
        }
      : {}),
    ...day(query.from, 'from'),
    ...day(query.to, 'to', 1),
  }
}

const encodeCursor = (row: AuditRow) => `${new Date(row.at).getTime()}-${row.id}`
function decodeCursor(value: string): AuditCursor {
  const [ms, id] = value.split('-') as [string, string]
  return { at: new Date(Number(ms)), id }
}

/** A page of the shop's audit log, newest first (AUDIT_PAGE_SIZE entries), and the cursor of the next. */
export async function auditPage(context: PortalContext, shopId: string, query: AuditQuery): Promise<AuditPage> {
  const { before, ...rest } = query
  const rows = await readAudit(
    context.db,
    shopId,
    AUDIT_PAGE_SIZE + 1,
    filtersOf(rest),
    before === undefined ? null : decodeCursor(before),
  )
  const page = rows.slice(0, AUDIT_PAGE_SIZE)
  return { entries: page.map(entryView), next: rows.length > AUDIT_PAGE_SIZE ? encodeCursor(page.at(-1)!) : null }
}

/** Everyone the shop's log names, for the page's filter. */
export async function auditPeople(context: PortalContext, shopId: string): Promise<AuditPeople> {
  return { people: await readAuditPeople(context.db, shopId) }
}

const CSV_COLUMNS = ['Time', 'Person', 'Actor', 'Address', 'Kind', 'Subject', 'Detail']

/** Every entry the filters take, as CSV (services/csv.ts), streamed, and the file's name; the export is itself an entry. */
export async function exportAudit(context: PortalContext, shopId: string, query: AuditExportQuery, author: Author) {
  const filters = filtersOf(query)
  const now = context.now()
  await audit(context.db, { shopId, at: now, ...author, kind: 'audit.exported', detail: { filters: query } })
  return {
    filename: `audit-${shopId}-${now.toISOString().slice(0, 10)}.csv`,
    // pipeline: a failed page ends the answer, and Fastify logs it (as the returns' export does).
    csv: pipeline(Readable.from(csvRows(context, shopId, filters)), csvWriter(CSV_COLUMNS), () => {}),
  }
}

/** Every entry the filters take, a thousand per query, newest first. */
async function* csvRows(context: PortalContext, shopId: string, filters: AuditFilters) {
  let before: AuditCursor | null = null
  for (;;) {
    const rows: AuditRow[] = await readAudit(context.db, shopId, 1000, filters, before)
    for (const row of rows)
      yield [
        new Date(row.at).toISOString(),
        row.actor_label,
        row.actor_kind,
        row.address ?? '',
        row.kind,
        row.subject ?? '',
        JSON.stringify(row.detail),
      ]
    if (rows.length < 1000) return
    const last = rows.at(-1)!
    before = { at: new Date(last.at), id: last.id }
  }
}
