import { useRef, useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom'
import { RETURN_SORTS, RETURN_STATES, RETURN_VIEWS, REVIEW_STATES } from '../../contract/constants'
import { formatMoney } from '../../contract/money'
import { Spinner } from '../components/Spinner'
import {
  changedParams,
  queryOf,
  useCan,
  useReturnCountsQuery,
  useReturnsQuery,
  useShopQuery,
  type ReturnsArgs,
  type ReviewState,
} from './api'
import { formatDay, OUTCOME_LABELS, REVIEW_LABELS, STATE_LABELS, StandingBadge, type ReturnState } from './format'
import { ChoiceField, DayField } from './Fields'
import { SupportReferenceForm } from './SupportScreen'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'
import { ReturnsBulk } from './ReturnsBulk'
import { SavedFilters } from './SavedFilters'

type View = (typeof RETURN_VIEWS)[number]
type Sort = (typeof RETURN_SORTS)[number]

/** The list's views, as its tabs name them (docs/back-office.md, "Views"). */
const VIEW_LABELS: Record<View, string> = {
  all: 'All',
  needs_review: 'Needs review',
  to_receive: 'To receive',
  to_refund: 'To refund',
  done: 'Done',
}
const SORT_LABELS: Record<Sort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  amount_desc: 'Amount, highest first',
  amount_asc: 'Amount, lowest first',
}

const isState = (value: string | null): value is ReturnState =>
  (RETURN_STATES as readonly (string | null)[]).includes(value)
const isReview = (value: string | null): value is ReviewState =>
  (REVIEW_STATES as readonly (string | null)[]).includes(value)

/** The list's search and filters from the address: a link to a filtered list can be shared. */
function argsOf(params: URLSearchParams): ReturnsArgs {
  const state = params.get('state')
  const review = params.get('review')
  const args: ReturnsArgs = {}
  for (const name of ['q', 'from', 'to', 'reason', 'after'] as const) {
    const value = params.get(name)
    if (value) args[name] = value
  }
  if (isState(state)) args.state = state
  if (isReview(review)) args.review = review
  const view = RETURN_VIEWS.find((each) => each === params.get('view'))
  if (view && view !== 'all') args.view = view
  const sort = RETURN_SORTS.find((each) => each === params.get('sort'))
  if (sort && sort !== 'newest') args.sort = sort
  return args
}

/** The shop's returns, newest first: search, filters and pages. */
export function ReturnsScreen() {
  const [params, setParams] = useSearchParams()
  const args = argsOf(params)
  const list = useReturnsQuery(args)
  const reasons = useShopQuery().data?.reasons ?? []
  const can = useCan()
  const navigate = useNavigate()
  const location = useLocation()
  const page = (location.state as { page?: number } | null)?.page ?? 1
  const [q, setQ] = useState(args.q ?? '')
  const heading = useRef<HTMLHeadingElement>(null)
  // The selection belongs to the page it was made on: another page, search or view starts afresh.
  const pageKey = queryOf(args)
  const [selection, setSelection] = useState<{ page: string; ids: string[] }>({ page: pageKey, ids: [] })
  const chosen = selection.page === pageKey ? selection.ids : []
  const choose = (ids: string[]) => setSelection({ page: pageKey, ids })
  useConsoleTitle('Returns')

  // A new search or filter starts at the first page.
  const apply = (changes: Partial<Record<keyof ReturnsArgs, string>>) =>
    setParams(changedParams(params, { ...changes, after: '' }))
  const search = (event: FormEvent) => {
    event.preventDefault()
    // After the submit event: React treats a submit that starts a transition (the router's
    // navigation) as a form action, and builds a FormData of the form for nothing.
    const wanted = q.trim()
    queueMicrotask(() => apply({ q: wanted }))
  }
  const nextPage = (after: string) => {
    const next = new URLSearchParams(params)
    next.set('after', after)
    void navigate({ search: `?${next.toString()}` }, { state: { page: page + 1 } })
    heading.current?.focus()
  }
  const filtered = Boolean(args.q || args.state || args.from || args.to || args.reason || args.review || args.view)
  const { after: _page, sort: _sort, ...filters } = args
  const { after: _after, ...saveable } = args
  // Every view is counted under the same search and filters: a tab's count is its list's length.
  const { view: _view, ...counted } = filters
  const counts = useReturnCountsQuery(counted).data
  const rows = list.data?.returns ?? []
  const selected = rows.filter((entry) => chosen.includes(entry.id))
  const everyBox = (name?: string) => (
    <input
      type="checkbox"
      aria-label={name}
      checked={selected.length === rows.length}
      onChange={(event) => choose(event.target.checked ? rows.map((entry) => entry.id) : [])}
    />
  )
  const view = args.view ?? 'all'

  return (
    <section aria-labelledby="returns-title">
      <div className="console__title-row">
        <h1 id="returns-title" ref={heading} tabIndex={-1}>
          Returns
        </h1>
        <SupportReferenceForm />
      </div>
      <nav className="console-tabs" aria-label="Views">
        {RETURN_VIEWS.map((each) => (
          <Link
            key={each}
            className="console-tabs__tab"
            to={{ search: `?${changedParams(params, { view: each === 'all' ? '' : each, after: '' }).toString()}` }}
            aria-current={each === view ? 'page' : undefined}
          >
            {VIEW_LABELS[each]}
            {counts && ` (${counts[each]})`}
          </Link>
        ))}
      </nav>
      <form role="search" className="console-filters" onSubmit={search}>
        <div className="field console-filters__search">
          <label className="field__label" htmlFor="returns-q">
            Search
          </label>
          <div className="console-filters__row">
            <input
              id="returns-q"
              className="field__input"
              type="search"
              value={q}
              placeholder="#1001, e-mail, name, product or code"
              onChange={(event) => setQ(event.target.value)}
            />
            <button type="submit" className="button button--primary">
              Search
            </button>
          </div>
        </div>
        <ChoiceField
          id="returns-state"
          label="State"
          anyLabel="Any state"
          value={args.state ?? ''}
          options={RETURN_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }))}
          onChange={(state) => apply({ state })}
        />
        <ChoiceField
          id="returns-reason"
          label="Reason"
          anyLabel="Any reason"
          value={args.reason ?? ''}
          options={reasons.map((reason) => ({ value: reason.id, label: reason.label }))}
          onChange={(reason) => apply({ reason })}
        />
        <ChoiceField
          id="returns-review"
          label="Review"
          anyLabel="Any review"
          value={args.review ?? ''}
          options={REVIEW_STATES.map((review) => ({ value: review, label: REVIEW_LABELS[review] }))}
          onChange={(review) => apply({ review })}
        />
        <DayField id="returns-from" label="From" value={args.from ?? ''} onChange={(from) => apply({ from })} />
        <DayField id="returns-to" label="To" value={args.to ?? ''} onChange={(to) => apply({ to })} />
        <div className="field">
          <label className="field__label" htmlFor="returns-sort">
            Sort
          </label>
          <select
            id="returns-sort"
            className="field__input"
            value={args.sort ?? 'newest'}
            onChange={(event) => apply({ sort: event.target.value === 'newest' ? '' : event.target.value })}
          >
            {RETURN_SORTS.map((each) => (
              <option key={each} value={each}>
                {SORT_LABELS[each]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <div className="console-filters__after">
        {can('returns.export') && (
          <a
            className="button button--secondary console__small"
            href={`/admin/api/returns.csv?${queryOf(filters)}`}
            download
          >
            Export CSV
          </a>
        )}
        {filtered ? (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setQ('')
              setParams(new URLSearchParams())
            }}
          >
            Clear search and filters
          </button>
        ) : null}
        <SavedFilters query={queryOf(saveable)} />
      </div>
      <ReturnsBulk selected={selected} onDone={() => choose([])} />

      {list.error ? (
        <ErrorAlert error={list.error} focus={false} />
      ) : !list.data ? (
        <Spinner label="Loading returns" />
      ) : list.data.returns.length === 0 ? (
        <p className="console-card console-empty" role="status">
          {filtered ? 'No return matches this search.' : 'No returns yet. They appear here as shoppers submit them.'}
        </p>
      ) : (
        <>
          {/* A phone's cards have no header row: its box to select the page is here (console.css). */}
          <label className="console-select-all">{everyBox()} Select all on this page</label>
          <table className="console-table" aria-busy={list.isFetching}>
            <caption className="visually-hidden">
              Returns, {SORT_LABELS[args.sort ?? 'newest'].toLowerCase()}
              {page > 1 ? `, page ${page}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">{everyBox('Select every return of this page')}</th>
                <th scope="col">Return</th>
                <th scope="col">Order</th>
                <th scope="col">Shopper</th>
                <th scope="col">Date</th>
                <th scope="col">Items</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="console-table__amount">
                  Refund
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.data.returns.map((entry) => (
                <tr key={entry.id}>
                  <td className="console-table__select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${entry.name}`}
                      checked={chosen.includes(entry.id)}
                      onChange={(event) =>
                        choose(event.target.checked ? [...chosen, entry.id] : chosen.filter((id) => id !== entry.id))
                      }
                    />
                  </td>
                  <th scope="row" data-label="Return">
                    <Link to={`/returns/${encodeURIComponent(entry.id)}`}>{entry.name}</Link>
                  </th>
                  <td data-label="Order">{entry.order_name}</td>
                  <td data-label="Shopper">{entry.email}</td>
                  <td data-label="Date">{formatDay(entry.created_at)}</td>
                  <td data-label="Items">{entry.items}</td>
                  <td data-label="Outcome">{entry.outcome ? OUTCOME_LABELS[entry.outcome] : '—'}</td>
                  <td data-label="Refund" className="console-table__amount">
                    {entry.refund ? formatMoney(entry.refund) : '—'}
                  </td>
                  <td data-label="State">
                    <span className="console-badges">
                      <StandingBadge state={entry.state} review={entry.review} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="console-pages" aria-label="Pages">
            {page > 1 ? (
              <button type="button" className="button button--secondary" onClick={() => void navigate(-1)}>
                Previous page
              </button>
            ) : null}
            {list.data.next ? (
              <button type="button" className="button button--secondary" onClick={() => nextPage(list.data.next!)}>
                Next page
              </button>
            ) : null}
          </nav>
        </>
      )}
    </section>
  )
}
