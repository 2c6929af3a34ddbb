import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { ApiKeyView, CreatedApiKey } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { useApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } from './api'
import { ConfirmQuestion } from './ConfirmQuestion'
import { ErrorAlert } from './ErrorAlert'
import { Field } from './Fields'
import { formatMoment } from './format'
import { useConsoleTitle } from './useConsoleTitle'

/** The new key's token, shown this once in a field to copy from; the focus lands on it. */
function NewKey({ created }: { created: CreatedApiKey }) {
  const field = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  useEffect(() => {
    field.current?.focus()
    field.current?.select()
  }, [created])
  const copy = () => {
    navigator.clipboard.writeText(created.token).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    )
  }
  return (
    <section className="console-card console-notice" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Key “{created.label}” created</h2>
      <Field id="new-key-token" label="The new API key">
        <input
          ref={field}
          id="new-key-token"
          className="field__input api-key-token"
          readOnly
          value={created.token}
          aria-describedby="new-key-warning"
          spellCheck={false}
          onFocus={(event) => event.target.select()}
        />
      </Field>
      <p id="new-key-warning" className="api-key-warning">
        Copy it now and keep it in the platform’s settings: it will not be shown again. Rebound keeps only a hash of it.
        If it is lost, create another key and revoke this one.
      </p>
      <div className="console-actions">
        <button type="button" className="button button--secondary" onClick={copy}>
          Copy
        </button>
        <span role="status" className="console-note">
          {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Not copied: select the key and copy it by hand.' : ''}
        </span>
      </div>
    </section>
  )
}

function CreateKey({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const [label, setLabel] = useState('')
  const [create, state] = useCreateApiKeyMutation()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void create({ label: label.trim() })
      .unwrap()
      .then((created) => {
        setLabel('')
        onCreated(created)
      })
      .catch(() => {})
  }
  return (
    <form className="console-card" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <Field id="api-key-label" label="Label" hint="What the key is for, so staff can tell keys apart: “Medusa sync”.">
        <input
          id="api-key-label"
          className="field__input"
          required
          maxLength={80}
          value={label}
          aria-describedby={state.error ? 'api-key-label-hint api-key-error' : 'api-key-label-hint'}
          onChange={(event) => setLabel(event.target.value)}
        />
      </Field>
      <ErrorAlert id="api-key-error" error={state.error} />
      <button type="submit" className="button" disabled={state.isLoading || label.trim() === ''}>
        Create key
      </button>
    </form>
  )
}

/** Asks before revoking: a platform using the key stops at once. */
function RevokeQuestion({ apiKey, onDone }: { apiKey: ApiKeyView; onDone: (revoked: boolean) => void }) {
  const [revoke, state] = useRevokeApiKeyMutation()
  return (
    <ConfirmQuestion
      id="revoke-key"
      title={`Revoke “${apiKey.label}”?`}
      confirm="Revoke key"
      busy={state.isLoading}
      error={state.error}
      act={() => revoke(apiKey.id).unwrap()}
      onDone={onDone}
    >
      Every call with the key {apiKey.prefix}… is refused from now on, by every server. This cannot be undone.
    </ConfirmQuestion>
  )
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKeyView; onRevoke: (button: HTMLButtonElement) => void }) {
  return (
    <tr>
      <th scope="row" data-label="Label">
        {apiKey.label}
      </th>
      <td data-label="Key">
        <code>{apiKey.prefix}…</code>
      </td>
      <td data-label="Created">
        {formatMoment(apiKey.created_at)}
        <br />
        <span className="console-note">by {apiKey.created_by}</span>
      </td>
      <td data-label="Last used">{apiKey.last_used_at ? formatMoment(apiKey.last_used_at) : 'Never'}</td>
      <td data-label="">
        {apiKey.revoked_at ? (
          <span>Revoked {formatMoment(apiKey.revoked_at)}</span>
        ) : (
          <button
            type="button"
            className="button button--secondary console__small"
            aria-label={`Revoke ${apiKey.label}`}
            onClick={(event) => onRevoke(event.currentTarget)}
          >
            Revoke
          </button>
        )}
      </td>
    </tr>
  )
}

/** /admin/api-keys: the shop's keys for the Orders API (docs/back-office.md: API keys). */
export function ApiKeysScreen() {
  const list = useApiKeysQuery()
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null)
  const revokeButton = useRef<HTMLButtonElement | null>(null)
  const title = useRef<HTMLHeadingElement>(null)
  useConsoleTitle('API keys')
  const keys = list.data?.keys ?? []
  return (
    <section aria-labelledby="api-keys-title">
      <h1 id="api-keys-title" ref={title} tabIndex={-1}>
        API keys
      </h1>
      <p>
        A commerce platform sends this shop’s orders, products and stock to Rebound’s Orders API with a key, as{' '}
        <code>Authorization: Bearer rbk_…</code>. Each key works for this shop only. Give each platform its own key, and
        revoke one that is no longer used or may have leaked.
      </p>
      {created && <NewKey created={created} />}
      {revoking && (
        <RevokeQuestion
          apiKey={revoking}
          onDone={(revoked) => {
            setRevoking(null)
            // The button is gone once its key is revoked: the focus goes back to the page's title.
            if (revoked || !revokeButton.current?.isConnected) title.current?.focus()
            else revokeButton.current.focus()
          }}
        />
      )}
      {list.isLoading && <Spinner label="Loading the keys" />}
      <ErrorAlert error={list.error} focus={false} />
      {list.data && keys.length === 0 && <p className="console-empty">No API keys yet.</p>}
      {keys.length > 0 && (
        <table className="console-table">
          <caption className="visually-hidden">The shop’s API keys, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">State</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((apiKey) => (
              <KeyRow
                key={apiKey.id}
                apiKey={apiKey}
                onRevoke={(button) => {
                  revokeButton.current = button
                  setRevoking(apiKey)
                }}
              />
            ))}
          </tbody>
        </table>
      )}
      <CreateKey
        onCreated={(made) => {
          setRevoking(null)
          setCreated(made)
        }}
      />
    </section>
  )
}
