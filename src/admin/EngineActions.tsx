/**
 * The actions in the shop's commerce engine as staff follow them (docs/commerce.md): a return's on
 * its page, every shop's on /engine-actions (filtered by kind and state), each with its state, its
 * attempts, its last error and the engine's reference, and a retry for one that failed.
 */
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { ENGINE_ACTION_FILTERS, ENGINE_ACTION_KINDS, type EngineActionKind } from '../../contract/constants'
import type { EngineActionList, EngineActionView } from '../../contract/events'
import { formatMoney } from '../../contract/money'
import type { CommerceEngine } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { changedParams, errorText, useEngineActionsQuery, useRetryEngineActionMutation } from './api'
import { ErrorAlert } from './ErrorAlert'
import { ChoiceField } from './Fields'
import { formatMoment } from './format'
import { useConsoleTitle } from './useConsoleTitle'

const ENGINE_NAMES: Record<CommerceEngine, string> = { medusa: 'Medusa' }

/** Where the actions happen: the connected engine by name, else the store. */
export const engineName = (engine: EngineActionList['engine']) => (engine ? ENGINE_NAMES[engine] : 'the store')

const amountOf = (action: EngineActionView) => (action.amount ? ` of ${formatMoney(action.amount)}` : '')

/** The action as a title: "Refund of €31.54 in Medusa". */
export function actionTitle(action: EngineActionView, engine: string): string {
  const words: Record<EngineActionKind, string> = {
    request_return: 'Return opened',
    receive_return: 'Return received',
    refund: `Refund${amountOf(action)}`,
    store_credit: `Store credit${amountOf(action)}`,
    exchange: 'Exchange order',
    cancel_return: 'Return cancelled',
  }
  return `${words[action.kind]} in ${engine}`
}

/** The action as the object of a verb: "the refund of €31.54 in Medusa". */
function actionObject(action: EngineActionView, engine: string): string {
  const words: Record<EngineActionKind, string> = {
    request_return: 'opening the return',
    receive_return: 'receiving the return',
    refund: `the refund${amountOf(action)}`,
    store_credit: `the store credit${amountOf(action)}`,
    exchange: 'the exchange order',
    cancel_return: 'cancelling the return',
  }
  return `${words[action.kind]} in ${engine}`
}

/**
 * Where the action stands, in a few words: done; failed, will retry at …; failed for good. A
 * return's opening once the return is cancelled says why no Retry is offered (the server refuses
 * it, decision 0088).
 */
export function actionState(action: EngineActionView): string {
  if (action.state === 'delivered') return 'done'
  const why = action.return_cancelled ? 'the return was cancelled' : null
  if (action.state === 'failed') return `failed, not retried any more${why ? `: ${why}` : ''}`
  if (action.last_error)
    return `failed, will retry ${action.next_attempt_at ? `at ${formatMoment(action.next_attempt_at)}` : 'soon'}${why ? ` (no retry by hand: ${why})` : ''}`
  return 'to be carried out'
}

/**
 * Whether staff may retry it: it failed, or waits for its next attempt after a failure; never a
 * return's opening once the return is cancelled.
 */
const retryable = (action: EngineActionView) =>
  !action.return_cancelled && (action.state === 'failed' || (action.state === 'pending' && action.last_error !== null))

/** An action's facts: when it was made (on a return's page), attempts, last error, the engine's reference. */
function ActionFacts({ action, made = false }: { action: EngineActionView; made?: boolean }) {
  return (
    <dl className="engine-action__facts">
      {made ? (
        <div>
          <dt>Made</dt>
          <dd>
            <time dateTime={action.created_at}>{formatMoment(action.created_at)}</time>
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Attempts</dt>
        <dd>{action.attempts}</dd>
      </div>
      {action.last_error ? (
        <div>
          <dt>Last error</dt>
          <dd>{action.last_error}</dd>
        </div>
      ) : null}
      {action.reference ? (
        <div>
          <dt>Reference</dt>
          <dd>
            <code>{action.reference}</code>
          </dd>
        </div>
      ) : null}
    </dl>
  )
}

/**
 * Retry: the action is due again now, under the same key, so the engine never does it twice. What
 * happened is said in `say`; the list follows by itself.
 */
function RetryButton({
  action,
  engine,
  say,
}: {
  action: EngineActionView
  engine: string
  say: (news: { text: string; failed: boolean }) => void
}) {
  const [retry, state] = useRetryEngineActionMutation()
  const object = actionObject(action, engine)
  return (
    <button
      type="button"
      className="button button--secondary console__small"
      disabled={state.isLoading}
      aria-label={`Retry ${object}`}
      onClick={() =>
        void retry(action.id)
          .unwrap()
          .then(() => say({ text: `Retrying ${object} now.`, failed: false }))
          .catch((error: unknown) => say({ text: `Not retried: ${errorText(error)}`, failed: true }))
      }
    >
      Retry
    </button>
  )
}

/** What a retry did, read out where it was pressed: a status, or an alert for a refusal. */
function RetryNews({ news }: { news: { text: string; failed: boolean } | null }) {
  return (
    <>
      <p role="status" className="console-note">
        {news && !news.failed ? news.text : ''}
      </p>
      {news?.failed ? <ErrorAlert focus={false}>{news.text}</ErrorAlert> : null}
    </>
  )
}

/** The actions of one return in the engine, on its page; nothing while it has none. */
export function ReturnEngineActions({ id }: { id: string }) {
  const list = useEngineActionsQuery({ return_id: id }, { pollingInterval: 5_000 })
  const [news, setNews] = useState<{ text: string; failed: boolean } | null>(null)
  if (!list.data || list.data.actions.length === 0) return null
  const engine = engineName(list.data.engine)
  return (
    <section className="console-card" aria-labelledby="engine-actions-of-return">
      <h2 id="engine-actions-of-return">In {engine}</h2>
      <ol className="console-list engine-actions">
        {list.data.actions.map((action) => (
          <li key={action.id} className="engine-action">
            <p>
              <strong>{actionTitle(action, engine)}</strong>:{' '}
              <span className={`outbox-state outbox-state--${action.state}`}>{actionState(action)}</span>
            </p>
            <ActionFacts action={action} made />
            {retryable(action) ? <RetryButton action={action} engine={engine} say={setNews} /> : null}
          </li>
        ))}
      </ol>
      <RetryNews news={news} />
    </section>
  )
}

const KIND_LABELS: Record<EngineActionKind, string> = {
  request_return: 'Return opened',
  receive_return: 'Return received',
  refund: 'Refund',
  store_credit: 'Store credit',
  exchange: 'Exchange order',
  cancel_return: 'Return cancelled',
}

const FILTER_LABELS: Record<(typeof ENGINE_ACTION_FILTERS)[number], string> = {
  unconfirmed: 'Not confirmed yet',
  pending: 'Waiting or retrying',
  failed: 'Failed, not retried any more',
  delivered: 'Done',
}

const isKind = (value: string | null): value is EngineActionKind =>
  (ENGINE_ACTION_KINDS as readonly (string | null)[]).includes(value)
const isFilter = (value: string | null): value is (typeof ENGINE_ACTION_FILTERS)[number] =>
  (ENGINE_ACTION_FILTERS as readonly (string | null)[]).includes(value)

/** /admin/engine-actions: the actions in the shop's engine across returns, by kind and state. */
export function EngineActionsScreen() {
  const [params, setParams] = useSearchParams()
  const kind = params.get('kind')
  const state = params.get('state')
  const list = useEngineActionsQuery(
    { ...(isKind(kind) ? { kind } : {}), ...(isFilter(state) ? { state } : {}) },
    { pollingInterval: 5_000 },
  )
  const [news, setNews] = useState<{ text: string; failed: boolean } | null>(null)
  const engine = engineName(list.data?.engine ?? null)
  useConsoleTitle('Store actions')
  return (
    <section aria-labelledby="engine-actions-title">
      <h1 id="engine-actions-title">Store actions</h1>
      <p>
        What Rebound asks of {engine}: opening and receiving returns, refunds, store credit, exchange orders. Each is
        tried again on its own after a failure; Retry tries it now, and never does it twice.
      </p>
      <div className="console-filters engine-actions__filters">
        <ChoiceField
          id="engine-actions-kind"
          label="Action"
          anyLabel="Every action"
          value={isKind(kind) ? kind : ''}
          options={ENGINE_ACTION_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }))}
          onChange={(value) => setParams(changedParams(params, { kind: value }))}
        />
        <ChoiceField
          id="engine-actions-state"
          label="State"
          anyLabel="Any state"
          value={isFilter(state) ? state : ''}
          options={ENGINE_ACTION_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
          onChange={(value) => setParams(changedParams(params, { state: value }))}
        />
      </div>
      {list.isLoading && <Spinner label="Loading the actions" />}
      <ErrorAlert error={list.error} focus={false} />
      <RetryNews news={news} />
      {list.data &&
        (list.data.actions.length === 0 ? (
          <p className="console-empty">No actions like these.</p>
        ) : (
          <table className="console-table">
            <caption className="visually-hidden">Actions in {engine}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Return</th>
                <th scope="col">Made</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Retry</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.actions.map((action) => (
                <tr key={action.id}>
                  <th scope="row" data-label="Action">
                    {actionTitle(action, engine)}
                  </th>
                  <td data-label="Return">
                    {action.return_id ? (
                      <Link to={`/returns/${encodeURIComponent(action.return_id)}`}>{action.return_name}</Link>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-label="Made">{formatMoment(action.created_at)}</td>
                  <td data-label="State">
                    {/* One box: on a phone each cell's content is one item of the card's grid. */}
                    <div>
                      <span className={`outbox-state outbox-state--${action.state}`}>{actionState(action)}</span>
                      <ActionFacts action={action} />
                    </div>
                  </td>
                  <td data-label="">
                    {retryable(action) ? <RetryButton action={action} engine={engine} say={setNews} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  )
}
