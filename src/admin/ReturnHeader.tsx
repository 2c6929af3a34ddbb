import { useEffect, useRef } from 'react'
import { Link } from 'react-router-dom'
import type { ReturnSummary } from '../../contract/staff'
import { ErrorAlert } from './ErrorAlert'
import { StandingBadge } from './format'

/** Where a return's page leads back to: the list of returns, or the next parcel to receive. */
export interface BackLink {
  to: string
  label: string
}

/**
 * The top of a return's pages (the return, its receiving): the way back, then the title with the
 * return's standing. The title takes the focus once the return is shown, so a keyboard or
 * screen-reader user starts there.
 */
export function ReturnHeader({
  id,
  title,
  summary,
  back,
}: {
  /** the heading's id, which the page's aria-labelledby names */
  id: string
  title: string
  summary: ReturnSummary
  back: BackLink
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [summary.name])
  return (
    <>
      <p>
        <Link to={back.to} className="console-back">
          {back.label}
        </Link>
      </p>
      <div className="console__title-row">
        <h1 id={id} ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <StandingBadge state={summary.state} review={summary.review} />
      </div>
    </>
  )
}

/** A return's page when the return cannot be read: which failure, in the server's words, and the way back. */
export function ReturnUnavailable({ error, back, className }: { error: unknown; back: BackLink; className: string }) {
  return (
    <section className={className}>
      <h1>{(error as { status?: unknown }).status === 404 ? 'No such return' : 'This return cannot be shown'}</h1>
      <ErrorAlert error={error} focus={false} />
      <p>
        <Link to={back.to}>{back.label}</Link>
      </p>
    </section>
  )
}
