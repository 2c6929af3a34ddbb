import { useEffect, useRef, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import type { OutboxEmail } from '../../contract/events'
import { Spinner } from '../components/Spinner'
import { errorText, useEmailQuery, useEmailsQuery, useResendEmailMutation } from './api'
import { formatMoment } from './format'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'

export const EMAIL_KIND_LABELS: Record<OutboxEmail['kind'], string> = {
  created: 'Return registered',
  received: 'Items received',
  refunded: 'Refund issued',
  new_item_sent: 'New item sent',
  approved: 'Return approved',
  rejected: 'Return rejected',
  cancelled: 'Return cancelled',
}

/** "de" as staff read it: German. */
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' })

const STATE_WORDS: Record<OutboxEmail['state'], string> = {
  pending: 'To be sent',
  delivered: 'Sent',
  kept: 'Kept (no mail server)',
  failed: 'Failed',
}

/** An e-mail's state as staff read it: when it went, or why it waits. */
export function EmailState({ email }: { email: OutboxEmail }) {
  return (
    <>
      <span className={`outbox-state outbox-state--${email.state}`}>{STATE_WORDS[email.state]}</span>
      {email.state === 'pending' && email.last_error && (
        <span className="console-note">
          {' '}
          {email.last_error} Next try {email.next_attempt_at ? formatMoment(email.next_attempt_at) : 'soon'}.
        </span>
      )}
      {email.state === 'failed' && email.last_error && <span className="console-note"> {email.last_error}</span>}
    </>
  )
}

/** An e-mail's name as staff read it: its subject, or its kind while it is not rendered yet. */
const emailName = (email: OutboxEmail) => email.subject ?? EMAIL_KIND_LABELS[email.kind]

/**
 * Resend, named by its e-mail ("Resend “Your return #1001-R1 is registered”"): the same e-mail is
 * written again to the shopper; what happened is said in `onSaid`'s status region.
 */
export function ResendButton({ email, onSaid }: { email: OutboxEmail; onSaid: (words: string) => void }) {
  const [resend, { isLoading }] = useResendEmailMutation()
  const name = emailName(email)
  return (
    <button
      type="button"
      className="button button--secondary"
      aria-label={`Resend “${name}”`}
      disabled={isLoading}
      onClick={() => {
        onSaid('')
        void resend(email.id).then((result) =>
          onSaid(
            'data' in result
              ? `“${name}” is written again to ${email.to}: it goes out with the next e-mails.`
              : `“${name}” was not resent: ${errorText(result.error)}`,
          ),
        )
      }}
    >
      Resend
    </button>
  )
}

/** The e-mails of the shop, or of one return (on its page), newest first. */
export function EmailTable({ emails }: { emails: OutboxEmail[] }) {
  const [said, setSaid] = useState('')
  return (
    <>
      <p role="status" className="console-done">
        {said}
      </p>
      <table className="console-table">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Return</th>
            <th scope="col">To</th>
            <th scope="col">Made</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Resend</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {emails.map((email) => (
            <tr key={email.id}>
              <th scope="row" data-label="E-mail">
                <Link to={`/emails/${email.id}`}>{emailName(email)}</Link>
              </th>
              <td data-label="Return">
                {email.return_id ? (
                  <Link to={`/returns/${encodeURIComponent(email.return_id)}`}>{email.return_name}</Link>
                ) : (
                  '—'
                )}
              </td>
              <td data-label="To">{email.to}</td>
              <td data-label="Made">{formatMoment(email.created_at)}</td>
              <td data-label="State">
                <EmailState email={email} />
              </td>
              <td>
                <ResendButton email={email} onSaid={setSaid} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

/** /admin/emails: what the shoppers were told, sent or kept in the outbox (docs/events.md). */
export function EmailsScreen() {
  const list = useEmailsQuery(undefined, { pollingInterval: 5_000 })
  useConsoleTitle('E-mails')
  return (
    <section aria-labelledby="emails-title">
      <h1 id="emails-title">E-mails to shoppers</h1>
      {list.data && !list.data.smtp && (
        <p className="console-card console-notice">
          No mail server is set (SMTP_URL), so e-mails are kept here instead of being sent. Open one to read it as the
          shopper would.
        </p>
      )}
      {list.isLoading && <Spinner label="Loading the e-mails" />}
      <ErrorAlert error={list.error} focus={false} />
      {list.data &&
        (list.data.emails.length === 0 ? (
          <p className="console-empty">No e-mails yet. Each return sends one when it is submitted.</p>
        ) : (
          <EmailTable emails={list.data.emails} />
        ))}
    </section>
  )
}

/** /admin/emails/<id>: one e-mail, its HTML in a sandboxed frame and its plain text. */
export function EmailScreen() {
  const { id = '' } = useParams()
  const email = useEmailQuery(id)
  const heading = useRef<HTMLHeadingElement>(null)
  const subject = email.data?.subject
  useConsoleTitle(subject ?? 'E-mail')
  useEffect(() => {
    heading.current?.focus()
  }, [subject])
  if (email.isLoading) return <Spinner label="Loading the e-mail" />
  if (email.error || !email.data)
    return (
      <section className="console-card">
        <h1>E-mail not found</h1>
        <ErrorAlert error={email.error} focus={false} />
        <Link to="/emails">All e-mails</Link>
      </section>
    )
  const data = email.data
  return (
    <section aria-labelledby="email-title">
      <p>
        <Link className="console-back" to="/emails">
          All e-mails
        </Link>
      </p>
      <h1 id="email-title" ref={heading} tabIndex={-1}>
        {data.subject ?? EMAIL_KIND_LABELS[data.kind]}
      </h1>
      <dl className="console-facts">
        <dt>To</dt>
        <dd>{data.to}</dd>
        <dt>From</dt>
        <dd>{data.from ?? '—'}</dd>
        {data.reply_to && (
          <>
            <dt>Reply to</dt>
            <dd>{data.reply_to}</dd>
          </>
        )}
        <dt>Language</dt>
        <dd>{LANGUAGE_NAMES.of(data.language) ?? data.language}</dd>
        <dt>State</dt>
        <dd>
          <EmailState email={data} />
        </dd>
        {data.return_id && (
          <>
            <dt>Return</dt>
            <dd>
              <Link to={`/returns/${encodeURIComponent(data.return_id)}`}>{data.return_name}</Link>
            </dd>
          </>
        )}
      </dl>
      {data.html_url ? (
        <>
          <h2>As the shopper sees it</h2>
          <iframe
            className="email-preview"
            title={`The e-mail “${data.subject ?? ''}”`}
            src={data.html_url}
            sandbox=""
          />
          <details className="console-card">
            <summary>Plain text</summary>
            <pre className="email-text">{data.text}</pre>
          </details>
        </>
      ) : (
        <p className="console-empty">It is written when it is first sent; this one has not been yet.</p>
      )}
    </section>
  )
}
