/**
 * /admin/audit (docs/back-office.md, "The audit log"): who changed what, newest first, each entry
 * a sentence with its time and address and, where settings changed, what they were and became.
 * Filtered by person, kind and days, in the address as the other lists are; a page at a time; the
 * same entries as CSV.
 */
import { Link, useSearchParams } from 'react-router-dom'
import { AUDIT_KIND_GROUPS, type AuditKindGroup } from '../../contract/constants'
import type { AuditEntry, AuditPage, AuditPeople, AuditQuery } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { changedParams, staffApi } from './api'
import { auditSentence } from './auditWords'
import { ErrorAlert } from './ErrorAlert'
import { ChoiceField, DayField } from './Fields'
import { formatMoment } from './format'
import { useConsoleTitle } from './useConsoleTitle'

/** The audit log's reads, on the console's one API, loaded with this page. */
const auditApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    audit: build.query<AuditPage, AuditQuery>({
      query: (args) => `audit?${changedParams(new URLSearchParams(), { ...args }).toString()}`,
    }),
    auditPeople: build.query<AuditPeople, void>({ query: () => 'audit/people' }),
  }),
})

const GROUP_LABELS: Record<AuditKindGroup, string> = {
  sign_ins: 'Sign-ins',
  staff: 'Staff and invitations',
  settings: 'Settings',
  returns: 'Returns',
  deliveries: 'E-mails, webhooks and store actions',
  orders_api: 'Orders API',
  reads_and_exports: 'Support references and exports',
}
const GROUPS = Object.keys(AUDIT_KIND_GROUPS) as AuditKindGroup[]
const isGroup = (value: string | null): value is AuditKindGroup => GROUPS.includes(value as AuditKindGroup)
const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The filters from the address: what a link to a filtered log keeps. */
function filtersOf(params: URLSearchParams): AuditQuery {
  const person = params.get('person')
  const kind = params.get('kind')
  const from = params.get('from')
  const to = params.get('to')
  const before = params.get('before')
  return {
    ...(person ? { person } : {}),
    ...(isGroup(kind) ? { kind } : {}),
    ...(from && DAY.test(from) ? { from } : {}),
    ...(to && DAY.test(to) ? { to } : {}),
    ...(before && /^\d{1,15}-\d{1,19}$/.test(before) ? { before } : {}),
  }
}

/** One entry: its sentence, when and from where, and what changed, folded. */
function Entry({ entry }: { entry: AuditEntry }) {
  const detail = Object.keys(entry.detail).length > 0 ? JSON.stringify(entry.detail, null, 2) : null
  return (
    <li className="audit-entry">
      <p className="audit-entry__sentence">{auditSentence(entry)}</p>
      <p className="audit-entry__facts">
        <time dateTime={entry.at}>{formatMoment(entry.at)}</time>
        {entry.address ? <span> · from {entry.address}</span> : null}
      </p>
      {detail ? (
        <details className="audit-entry__detail">
          <summary>{'before' in entry.detail ? 'Before and after' : 'Details'}</summary>
          <pre>{detail}</pre>
        </details>
      ) : null}
    </li>
  )
}

export function AuditScreen() {
  useConsoleTitle('Audit log')
  const [params, setParams] = useSearchParams()
  const query = filtersOf(params)
  const page = auditApi.useAuditQuery(query)
  const people = auditApi.useAuditPeopleQuery().data?.people ?? []
  const { before, ...filters } = query
  const csv = `/admin/api/audit.csv?${changedParams(new URLSearchParams(), { ...filters }).toString()}`
  // A new filter starts again at the newest entries.
  const filter = (changes: Record<string, string>) => setParams(changedParams(params, { ...changes, before: '' }))
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p>
        Every change made in this console or by an API key, with who made it, when and from which address. Entries are
        never changed or deleted.
      </p>
      <div className="console-filters audit__filters">
        <ChoiceField
          id="audit-person"
          label="Person"
          anyLabel="Everyone"
          value={query.person ?? ''}
          options={[...new Set([...people, ...(query.person ? [query.person] : [])])].map((value) => ({
            value,
            label: value,
          }))}
          onChange={(value) => filter({ person: value })}
        />
        <ChoiceField
          id="audit-kind"
          label="Kind"
          anyLabel="Every kind"
          value={query.kind ?? ''}
          options={GROUPS.map((value) => ({ value, label: GROUP_LABELS[value] }))}
          onChange={(value) => filter({ kind: value })}
        />
        <DayField id="audit-from" label="From" value={query.from ?? ''} onChange={(from) => filter({ from })} />
        <DayField id="audit-to" label="To" value={query.to ?? ''} onChange={(to) => filter({ to })} />
      </div>
      <p>
        <a href={csv} download>
          Download CSV
        </a>
      </p>
      {page.isFetching && !page.data ? <Spinner label="Loading the audit log" /> : null}
      <ErrorAlert error={page.error} focus={false} />
      {page.data &&
        (page.data.entries.length === 0 ? (
          <p className="console-empty">No entries like these.</p>
        ) : (
          <ol className="console-list audit-entries" aria-label="Entries, newest first">
            {page.data.entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
        ))}
      <nav aria-label="Pages" className="audit__pages">
        {before ? <Link to={`?${changedParams(params, { before: '' }).toString()}`}>Newest entries</Link> : null}
        {page.data?.next ? (
          <Link to={`?${changedParams(params, { before: page.data.next }).toString()}`}>Older entries</Link>
        ) : null}
      </nav>
    </section>
  )
}
