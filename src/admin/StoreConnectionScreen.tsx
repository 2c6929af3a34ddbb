import { useRef, useState, type FormEvent } from 'react'
import type { ConnectionCheckLine, ConnectionTest, StoreConnectionView } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import {
  useRemoveStoreConnectionMutation,
  useSetStoreConnectionMutation,
  useStoreConnectionQuery,
  useTestStoreConnectionMutation,
} from './api'
import { ConfirmQuestion } from './ConfirmQuestion'
import { ErrorAlert } from './ErrorAlert'
import { Field } from './Fields'
import { formatMoment } from './format'
import { NO_STORE_CONNECTED } from './storeConnectionWords'
import { useConsoleTitle } from './useConsoleTitle'

const ENGINE_NAMES = { medusa: 'Medusa' } as const

/** One check of Test connection in plain words: what works, or what does not. */
export function checkWords(
  line: ConnectionCheckLine,
  connection: Pick<StoreConnectionView, 'url' | 'sales_channel_id' | 'stock_location_id'>,
): string {
  const { outcome } = line
  if (outcome === 'not_checked') {
    const what = {
      address: 'Address',
      key: 'Secret key',
      sales_channel: 'Sales channel',
      stock_location: 'Stock location',
    }
    return `${what[line.check]}: not checked, as an earlier check failed.`
  }
  switch (line.check) {
    case 'address':
      return (
        {
          ok: `Address: ${connection.url} answers.`,
          unreachable: `Address unreachable: nothing answers at ${connection.url}.`,
          timeout: `Address timed out: ${connection.url} did not answer in time.`,
          not_engine: `Address: ${connection.url} answers, but not as Medusa’s Admin API.`,
          failed: `Address: the store answered with an error of its own. Try again later.`,
        }[outcome as 'ok'] ?? `Address: ${outcome}.`
      )
    case 'key':
      return (
        {
          ok: 'Secret key: accepted.',
          refused: 'Key refused: the store does not accept this secret key.',
          unreadable: 'Secret key: it cannot be read with this server’s secret. Enter it again.',
        }[outcome as 'ok'] ?? `Secret key: ${outcome}.`
      )
    case 'sales_channel':
      return (
        {
          ok: `Sales channel ${connection.sales_channel_id}: found.`,
          not_found: `Sales channel not found: the store has no sales channel ${connection.sales_channel_id}.`,
          failed: `Sales channel ${connection.sales_channel_id}: the store answered with an error.`,
        }[outcome as 'ok'] ?? `Sales channel: ${outcome}.`
      )
    case 'stock_location':
      return (
        {
          ok: `Stock location ${connection.stock_location_id}: found.`,
          not_found: `Stock location not found: the store has no stock location ${connection.stock_location_id}.`,
          failed: `Stock location ${connection.stock_location_id}: the store answered with an error.`,
        }[outcome as 'ok'] ?? `Stock location: ${outcome}.`
      )
  }
}

function TestLines({ test, connection }: { test: ConnectionTest; connection: StoreConnectionView }) {
  return (
    <>
      <p>
        <strong>{test.ok ? 'Everything works.' : 'Something does not work.'}</strong> Tested {formatMoment(test.at)}.
      </p>
      <ul className="connection-checks">
        {test.checks.map((line) => (
          <li key={line.check} data-outcome={line.outcome}>
            <span aria-hidden="true">
              {line.outcome === 'ok' ? '✓ ' : line.outcome === 'not_checked' ? '– ' : '✗ '}
            </span>
            {checkWords(line, connection)}
          </li>
        ))}
      </ul>
    </>
  )
}

/** The form to connect a store or change its connection; the key is write-only. */
function ConnectionForm({ current, onSaved }: { current: StoreConnectionView | null; onSaved: () => void }) {
  const [url, setUrl] = useState(current?.url ?? '')
  const [apiKey, setApiKey] = useState('')
  const [salesChannel, setSalesChannel] = useState(current?.sales_channel_id ?? '')
  const [stockLocation, setStockLocation] = useState(current?.stock_location_id ?? '')
  const [region, setRegion] = useState(current?.region_id ?? '')
  const [save, state] = useSetStoreConnectionMutation()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void save({
      engine: 'medusa',
      url: url.trim(),
      ...(apiKey.trim() === '' ? {} : { api_key: apiKey.trim() }),
      sales_channel_id: salesChannel.trim(),
      stock_location_id: stockLocation.trim(),
      region_id: region.trim() === '' ? null : region.trim(),
    })
      .unwrap()
      .then(() => {
        setApiKey('')
        onSaved()
      })
      .catch(() => {})
  }
  const keyHint = current
    ? 'Set. Leave it empty to keep the current key; it is never shown.'
    : 'Not set. A secret API key (sk_…) made in Medusa’s settings for Rebound.'
  return (
    <form className="console-card" onSubmit={submit} aria-labelledby="connection-form-title">
      <h2 id="connection-form-title">{current ? 'Change the connection' : 'Connect a store'}</h2>
      <Field id="connection-engine" label="Commerce engine">
        <select id="connection-engine" className="field__input" value="medusa" disabled>
          <option value="medusa">Medusa</option>
        </select>
      </Field>
      <Field
        id="connection-url"
        label="Address"
        hint="The store’s server, e.g. https://shop.example or http://10.0.0.5:9000. No user or password in it."
      >
        <input
          id="connection-url"
          className="field__input"
          type="url"
          required
          value={url}
          aria-describedby="connection-url-hint"
          onChange={(event) => setUrl(event.target.value)}
        />
      </Field>
      <Field id="connection-key" label="Secret API key" hint={keyHint}>
        <input
          id="connection-key"
          className="field__input"
          type="password"
          autoComplete="off"
          required={!current}
          value={apiKey}
          aria-describedby="connection-key-hint"
          onChange={(event) => setApiKey(event.target.value)}
        />
      </Field>
      <Field id="connection-sales-channel" label="Sales channel ID">
        <input
          id="connection-sales-channel"
          className="field__input"
          required
          value={salesChannel}
          onChange={(event) => setSalesChannel(event.target.value)}
        />
      </Field>
      <Field id="connection-stock-location" label="Stock location ID" hint="Where returned items are restocked.">
        <input
          id="connection-stock-location"
          className="field__input"
          required
          value={stockLocation}
          aria-describedby="connection-stock-location-hint"
          onChange={(event) => setStockLocation(event.target.value)}
        />
      </Field>
      <Field id="connection-region" label="Region ID (optional)">
        <input
          id="connection-region"
          className="field__input"
          value={region}
          onChange={(event) => setRegion(event.target.value)}
        />
      </Field>
      <ErrorAlert error={state.error} />
      <button type="submit" className="button" disabled={state.isLoading}>
        Save connection
      </button>
    </form>
  )
}

/** Asks before removing: the store's actions are then recorded here only. */
function RemoveQuestion({ onDone }: { onDone: (removed: boolean) => void }) {
  const [remove, state] = useRemoveStoreConnectionMutation()
  return (
    <ConfirmQuestion
      id="remove-connection"
      title="Remove the store connection?"
      confirm="Remove connection"
      busy={state.isLoading}
      error={state.error}
      act={() => remove().unwrap()}
      onDone={onDone}
    >
      Rebound forgets the address and the key. Refunds, store credit, exchanges and restocks are then recorded here
      only, not carried out in your store.
    </ConfirmQuestion>
  )
}

function ConnectionCard({ connection }: { connection: StoreConnectionView }) {
  const [test, testState] = useTestStoreConnectionMutation()
  return (
    <section className="console-card" aria-labelledby="connection-title">
      <h2 id="connection-title">{ENGINE_NAMES[connection.engine]}</h2>
      <dl className="console-facts">
        <dt>Address</dt>
        <dd>{connection.url}</dd>
        <dt>Secret API key</dt>
        <dd>{connection.api_key_readable ? 'Set' : 'Set, but unreadable with this server’s secret: enter it again'}</dd>
        <dt>Sales channel</dt>
        <dd>{connection.sales_channel_id}</dd>
        <dt>Stock location</dt>
        <dd>{connection.stock_location_id}</dd>
        {connection.region_id && (
          <>
            <dt>Region</dt>
            <dd>{connection.region_id}</dd>
          </>
        )}
        <dt>Set</dt>
        <dd>
          {formatMoment(connection.updated_at)} by {connection.updated_by}
        </dd>
      </dl>
      <h3>Last test</h3>
      <div role="status" aria-busy={testState.isLoading}>
        {testState.isLoading ? (
          <p>Testing the connection…</p>
        ) : connection.last_test ? (
          <TestLines test={connection.last_test} connection={connection} />
        ) : (
          <p>Not tested since it was set.</p>
        )}
      </div>
      <ErrorAlert error={testState.error} />
      <div className="console-actions">
        <button type="button" className="button" disabled={testState.isLoading} onClick={() => void test()}>
          Test connection
        </button>
      </div>
    </section>
  )
}

/** /admin/store-connection: the shop's commerce engine (docs/back-office.md: Store connection). */
export function StoreConnectionScreen() {
  const answer = useStoreConnectionQuery()
  const [removing, setRemoving] = useState(false)
  const [said, setSaid] = useState('')
  const title = useRef<HTMLHeadingElement>(null)
  const removeButton = useRef<HTMLButtonElement>(null)
  useConsoleTitle('Store connection')
  const connection = answer.data?.connection ?? null
  return (
    <section aria-labelledby="store-connection-title">
      <h1 id="store-connection-title" ref={title} tabIndex={-1}>
        Store connection
      </h1>
      <p>
        Rebound carries out refunds, store credit, exchanges and restocks in your store’s commerce engine, with a secret
        key kept encrypted. Staff of this shop can change it.
      </p>
      {answer.isLoading && <Spinner label="Loading the store connection" />}
      <ErrorAlert error={answer.error} focus={false} />
      <p role="status" className="console-note">
        {said}
      </p>
      {answer.data && !connection && <p className="console-empty">{NO_STORE_CONNECTED}</p>}
      {connection && <ConnectionCard connection={connection} />}
      {answer.data && (
        <ConnectionForm
          key={connection?.updated_at ?? 'none'}
          current={connection}
          onSaved={() => setSaid('Connection saved. Test it to check that it works.')}
        />
      )}
      {connection && (
        <div className="console-actions">
          <button
            ref={removeButton}
            type="button"
            className="button button--secondary"
            onClick={() => {
              setSaid('')
              setRemoving(true)
            }}
          >
            Remove connection
          </button>
        </div>
      )}
      {removing && (
        <RemoveQuestion
          onDone={(removed) => {
            setRemoving(false)
            if (removed) {
              setSaid('The store connection is removed.')
              title.current?.focus()
            } else removeButton.current?.focus()
          }}
        />
      )}
    </section>
  )
}
