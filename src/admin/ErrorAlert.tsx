import { useEffect, useRef, type ReactNode } from 'react'
import { errorText } from './api'

interface ErrorAlertProps {
  /** what the server refused (or a failed call): said in the server's words */
  error?: unknown
  /** a problem found here, in words, shown instead of `error`'s */
  children?: ReactNode
  id?: string
  className?: string
  /**
   * Whether the alert takes the focus as it appears (the default: a keyboard or screen-reader user
   * lands on it after pressing a button). Off where the focus must stay (a field being typed or
   * scanned into) or where nothing was pressed (a page that failed to load): role="alert" reads it out.
   */
  focus?: boolean
  /**
   * The lines the refusal names (a form's problems), listed under its words. Given, the alert is a
   * block holding both, `className` its own (the words keep the error style).
   */
  problems?: readonly string[]
}

/**
 * Every refusal of the back office: read out at once (role="alert"), and given the focus unless
 * told not to; nothing while there is no error. What was typed stays.
 */
export function ErrorAlert({ error, children, id, className, focus = true, problems }: ErrorAlertProps) {
  const alert = useRef<HTMLDivElement & HTMLParagraphElement>(null)
  const shown = Boolean(children) || Boolean(error)
  useEffect(() => {
    if (shown && focus) alert.current?.focus()
  }, [shown, focus, error, children])
  if (!shown) return null
  if (problems)
    return (
      <div ref={alert} id={id} className={className} role="alert" tabIndex={-1}>
        <p className="error-message">{children ?? errorText(error)}</p>
        {problems.length > 0 ? (
          <ul>
            {problems.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </div>
    )
  return (
    <p
      ref={alert}
      id={id}
      className={className ? `error-message ${className}` : 'error-message'}
      role="alert"
      tabIndex={-1}
    >
      {children ?? errorText(error)}
    </p>
  )
}
