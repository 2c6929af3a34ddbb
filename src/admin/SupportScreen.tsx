import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { Spinner } from '../components/Spinner'
import { useSupportSessionQuery } from './api'
import { Field } from './Fields'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'

/**
 * The field labelled Support reference: the reference a shopper reads out (`7KQ2-9XHD`), opened
 * at /admin/support/<reference>.
 */
export function SupportReferenceForm({ initial = '' }: { initial?: string }) {
  const [reference, setReference] = useState(initial)
  const navigate = useNavigate()
  const open = (event: FormEvent) => {
    event.preventDefault()
    const wanted = reference.trim()
    // After the submit event, as the returns search does (ReturnsScreen.tsx).
    if (wanted) queueMicrotask(() => void navigate(`/support/${encodeURIComponent(wanted)}`))
  }
  return (
    <form className="console-support-form" onSubmit={open}>
      <Field id="support-reference" label="Support reference">
        <div className="console-filters__row">
          <input
            id="support-reference"
            className="field__input console-support-form__input"
            value={reference}
            placeholder="7KQ2-9XHD"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            onChange={(event) => setReference(event.target.value)}
          />
          <button type="submit" className="button button--secondary">
            Open
          </button>
        </div>
      </Field>
    </form>
  )
}

/** Leaves the console for a page of the portal (an object, so a test can see where it went). */
export const leave = { to: (url: string) => window.location.replace(url) }

/**
 * /admin/support/<reference>: the shopper's session behind a reference of this shop, opened in the
 * portal's read-only replay on this host (docs/support.md). The console's entry is replaced, so
 * the browser's back button returns to the console, not to this hand-off.
 */
export function SupportScreen() {
  const { reference = '' } = useParams()
  const session = useSupportSessionQuery(reference)
  const heading = useRef<HTMLHeadingElement>(null)
  const code = session.data?.code
  useConsoleTitle(`Support reference ${reference}`)
  useEffect(() => {
    if (code) leave.to(`/support#${code}`)
  }, [code])
  useEffect(() => {
    if (session.error) heading.current?.focus()
  }, [session.error])

  if (session.error)
    return (
      <section className="console-card" aria-labelledby="support-title">
        <h1 id="support-title" ref={heading} tabIndex={-1}>
          No session for {reference}
        </h1>
        <ErrorAlert error={session.error} focus={false} />
        <SupportReferenceForm />
        <p>
          <Link to="/">Back to the returns</Link>
        </p>
      </section>
    )
  return (
    <section className="console-center" aria-live="polite">
      <Spinner label={`Opening the shopper’s screen for ${reference}`} />
    </section>
  )
}
