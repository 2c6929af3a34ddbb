import { useEffect, useRef } from 'react'
import { errorText } from './api'

/**
 * What the server refused, in its words, read out at once and given the focus (so a keyboard or
 * screen-reader user lands on it); nothing while there is no error. What was typed stays.
 */
export function ErrorAlert({ error, className }: { error: unknown; className?: string }) {
  const alert = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (error) alert.current?.focus()
  }, [error])
  if (!error) return null
  return (
    <p ref={alert} className={className ? `error-message ${className}` : 'error-message'} role="alert" tabIndex={-1}>
      {errorText(error)}
    </p>
  )
}
