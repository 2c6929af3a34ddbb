import { useEffect, useRef, type ReactNode } from 'react'
import { ErrorAlert } from './ErrorAlert'

interface ConfirmQuestionProps {
  /** the ids of its title and text start with it */
  id: string
  title: ReactNode
  /** what confirming does, said plainly */
  children: ReactNode
  /** the confirming button's words: "Revoke key" */
  confirm: string
  /** the act, already under way: the button waits */
  busy: boolean
  /** what the server refused of the act */
  error: unknown
  /** the act: its promise settles once the server has answered */
  act: () => Promise<unknown>
  /** true once the act was done, false when cancelled */
  onDone: (done: boolean) => void
}

/**
 * The back office's question before an act that cannot be undone (revoke a key, remove the store
 * connection): an alert dialog that takes the focus as it opens, the act's refusal shown in it.
 */
export function ConfirmQuestion({ id, title, children, confirm, busy, error, act, onDone }: ConfirmQuestionProps) {
  const question = useRef<HTMLDivElement>(null)
  useEffect(() => question.current?.focus(), [])
  return (
    <div
      ref={question}
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      className="notice"
      tabIndex={-1}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{children}</p>
      <ErrorAlert error={error} />
      <div className="console-actions">
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() =>
            void act()
              .then(() => onDone(true))
              .catch(() => {})
          }
        >
          {confirm}
        </button>
        <button type="button" className="button button--secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </div>
  )
}
