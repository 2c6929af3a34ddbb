import { useEffect, useRef, useState, type FormEvent } from 'react'
import { WEBHOOK_EVENTS } from '../../contract/constants'
import type { CreatedWebhook, WebhookEndpointView } from '../../contract/events'
import { Spinner } from '../components/Spinner'
import {
  useAddWebhookMutation,
  useDeliveriesQuery,
  useEnableWebhookMutation,
  useRedeliverMutation,
  useRemoveWebhookMutation,
  useWebhooksQuery,
  errorText,
} from './api'
import { Field } from './Fields'
import { formatMoment } from './format'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'

type WebhookEventName = (typeof WEBHOOK_EVENTS)[number]

const EVENT_WORDS: Record<WebhookEventName, string> = {
  'return.created': 'A return is submitted',
  'return.updated': 'Items of a return move on',
  'return.refunded': 'A return is refunded',
  'return.cancelled': 'A return is cancelled',
  'return.closed': 'A return is closed',
}

const DELIVERY_WORDS = { pending: 'Retrying', delivered: 'Delivered', kept: 'Kept', failed: 'Failed' } as const

function AddEndpoint({ onCreated }: { onCreated: (created: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<WebhookEventName[]>([...WEBHOOK_EVENTS])
  const [add, state] = useAddWebhookMutation()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void add({ url: url.trim(), events })
      .unwrap()
      .then((created) => {
        setUrl('')
        onCreated(created)
      })
      .catch(() => {})
  }
  return (
    <form className="console-card webhook-form" onSubmit={submit} aria-labelledby="add-endpoint">
      <h2 id="add-endpoint">Add an endpoint</h2>
      <Field id="webhook-url" label="Endpoint URL">
        <input
          id="webhook-url"
          className="field__input"
          type="url"
          required
          value={url}
          placeholder="https://oms.example.com/hooks/rebound"
          aria-describedby={state.error ? 'webhook-error' : undefined}
          onChange={(event) => setUrl(event.target.value)}
        />
      </Field>
      <fieldset className="webhook-events">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((name) => (
          <label key={name} className="webhook-event">
            <input
              type="checkbox"
              checked={events.includes(name)}
              onChange={(event) =>
                setEvents(event.target.checked ? [...events, name] : events.filter((each) => each !== name))
              }
            />
            <span>
              <code>{name}</code> · {EVENT_WORDS[name]}
            </span>
          </label>
        ))}
      </fieldset>
      <ErrorAlert id="webhook-error" error={state.error} />
      <button type="submit" className="button" disabled={state.isLoading || events.length === 0}>
        Add endpoint
      </button>
    </form>
  )
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpointView }) {
  const log = useDeliveriesQuery(endpoint.id, { pollingInterval: 5_000 })
  const [redeliver] = useRedeliverMutation()
  const [redelivering, setRedelivering] = useState<ReadonlySet<string>>(new Set())
  const [said, setSaid] = useState('')
  const redeliverOne = async (id: string) => {
    setRedelivering((now) => new Set(now).add(id))
    try {
      await redeliver(id).unwrap()
      setSaid(`Delivery ${id} is sent again.`)
    } catch (error) {
      setSaid(`Delivery ${id} was not sent again: ${errorText(error)}`)
    } finally {
      setRedelivering((now) => {
        const next = new Set(now)
        next.delete(id)
        return next
      })
    }
  }
  if (log.isLoading) return <Spinner label="Loading the deliveries" />
  if (log.error) return <ErrorAlert error={log.error} focus={false} />
  const deliveries = log.data?.deliveries ?? []
  if (deliveries.length === 0) return <p className="console-empty">Nothing sent to this endpoint yet.</p>
  return (
    <>
      <p role="status" className="console-done webhook-said">
        {said}
      </p>
      <table className="console-table webhook-deliveries">
        <caption className="visually-hidden">Deliveries to {endpoint.url}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Made</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            // On a phone each row is a card of label and value (console.css): each cell holds one
            // block, so that its parts stay in the value's column.
            <tr key={delivery.id}>
              <th scope="row" data-label="Event">
                <div className="webhook-cell">
                  <code>{delivery.event}</code>
                  <br />
                  <span className="console-note">{delivery.id}</span>
                </div>
              </th>
              <td data-label="Made">
                <div className="webhook-cell">{formatMoment(delivery.created_at)}</div>
              </td>
              <td data-label="State">
                <div className="webhook-cell">
                  {DELIVERY_WORDS[delivery.state]}
                  {delivery.next_attempt_at && delivery.attempts.length > 0 && (
                    <span className="console-note"> · next {formatMoment(delivery.next_attempt_at)}</span>
                  )}
                </div>
              </td>
              <td data-label="Attempts">
                <ol className="attempts webhook-cell">
                  {delivery.attempts.map((attempt) => (
                    <li key={attempt.attempt}>
                      {formatMoment(attempt.at)}: {attempt.ok ? `${attempt.status_code ?? ''} OK` : attempt.error} (
                      {attempt.duration_ms} ms)
                    </li>
                  ))}
                </ol>
              </td>
              <td className="webhook-deliveries__action">
                <button
                  type="button"
                  className="button button--secondary console__small"
                  disabled={redelivering.has(delivery.id)}
                  onClick={() => void redeliverOne(delivery.id)}
                >
                  Redeliver<span className="visually-hidden"> {delivery.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

function Endpoint({
  endpoint,
  onDone,
}: {
  endpoint: WebhookEndpointView
  /** what happened; `gone`: the endpoint's card (and the button pressed) is no more */
  onDone: (said: string, gone?: boolean) => void
}) {
  const [enable, enabling] = useEnableWebhookMutation()
  const [remove, removing] = useRemoveWebhookMutation()
  const act = async (done: string, failed: string, call: () => Promise<unknown>, gone = false) => {
    try {
      await call()
      onDone(done, gone)
    } catch (error) {
      onDone(`${failed}: ${errorText(error)}`)
    }
  }
  return (
    <article className="console-card" aria-labelledby={`endpoint-${endpoint.id}`}>
      <h2 id={`endpoint-${endpoint.id}`} className="webhook-url">
        {endpoint.url}
      </h2>
      {endpoint.disabled_at ? (
        <p className="webhook-status webhook-status--off" role="status">
          Disabled since {formatMoment(endpoint.disabled_at)}: nothing is sent to it. Events made meanwhile wait for it.
        </p>
      ) : endpoint.failing_since ? (
        <p className="webhook-status webhook-status--failing" role="status">
          Failing since {formatMoment(endpoint.failing_since)}. After 5 days of failures it is disabled.
        </p>
      ) : (
        <p className="webhook-status">Active</p>
      )}
      <dl className="console-facts">
        <dt>Events</dt>
        <dd>{endpoint.events.join(', ')}</dd>
        <dt>Signing secret</dt>
        <dd>
          <code>{endpoint.secret_hint}</code>
        </dd>
        <dt>Added</dt>
        <dd>{formatMoment(endpoint.created_at)}</dd>
      </dl>
      <div className="console__title-row">
        <button
          type="button"
          className="button button--secondary console__small"
          disabled={enabling.isLoading}
          onClick={() => {
            const enabled = endpoint.disabled_at !== null
            void act(
              `${endpoint.url} is ${enabled ? 'enabled' : 'disabled'}.`,
              `${endpoint.url} was not ${enabled ? 'enabled' : 'disabled'}`,
              () => enable({ id: endpoint.id, enabled }).unwrap(),
            )
          }}
        >
          {endpoint.disabled_at ? 'Enable' : 'Disable'}
          <span className="visually-hidden"> {endpoint.url}</span>
        </button>
        <button
          type="button"
          className="button button--secondary console__small"
          disabled={removing.isLoading}
          onClick={() => {
            if (window.confirm(`Remove the endpoint ${endpoint.url}? Deliveries still waiting are dropped.`))
              void act(
                `${endpoint.url} is removed.`,
                `${endpoint.url} was not removed`,
                () => remove(endpoint.id).unwrap(),
                true,
              )
          }}
        >
          Remove<span className="visually-hidden"> {endpoint.url}</span>
        </button>
      </div>
      <h3>Deliveries</h3>
      <Deliveries endpoint={endpoint} />
    </article>
  )
}

/** /admin/webhooks: where the shop's systems hear of returns, and how each delivery went (docs/events.md). */
export function WebhooksScreen() {
  const list = useWebhooksQuery()
  const [created, setCreated] = useState<CreatedWebhook | null>(null)
  const [said, setSaid] = useState('')
  const status = useRef<HTMLParagraphElement>(null)
  const notice = useRef<HTMLDivElement>(null)
  useConsoleTitle('Webhooks')
  useEffect(() => {
    // The secret is shown this once: the focus goes there (the button was disabled while adding).
    if (created) notice.current?.focus()
  }, [created])
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p>
        Signed with Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>,{' '}
        <code>webhook-signature</code>): verify them with any Standard Webhooks library and the endpoint’s secret.
      </p>
      {created && (
        <div className="console-card console-notice" role="status" ref={notice} tabIndex={-1}>
          <p>
            Endpoint added. Its signing secret, shown this once:{' '}
            <code className="webhook-secret">{created.secret}</code>
          </p>
        </div>
      )}
      <p role="status" className="console-done webhook-said" ref={status} tabIndex={-1}>
        {said}
      </p>
      {list.isLoading && <Spinner label="Loading the endpoints" />}
      <ErrorAlert error={list.error} focus={false} />
      {list.data?.endpoints.map((endpoint) => (
        <Endpoint
          key={endpoint.id}
          endpoint={endpoint}
          onDone={(words, gone) => {
            setSaid(words)
            // The button pressed went with its endpoint: the focus goes to what happened.
            if (gone) status.current?.focus()
          }}
        />
      ))}
      {list.data && list.data.endpoints.length === 0 && <p className="console-empty">No endpoints yet.</p>}
      <AddEndpoint onCreated={setCreated} />
    </section>
  )
}
