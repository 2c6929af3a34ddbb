/** The return page's actions (ReturnScreen): staff move chosen items on, with a note. */
import { useState, type FormEvent } from 'react'
import type { ReturnItemState, ReturnStatusItem } from '../../contract/api'
import type { ReturnDetail, StaffStateChange } from '../../contract/staff'
import { useMoveItemsMutation } from './api'
import { Field } from './Fields'
import { ErrorAlert } from './ErrorAlert'
import { STATE_LABELS } from './format'

type Move = StaffStateChange['state']
const MOVES: { state: Move; label: string }[] = [
  { state: 'in_transit', label: 'Mark in transit' },
  { state: 'received', label: 'Mark received' },
  { state: 'refunded', label: 'Mark refunded' },
]

/** Whether an item may move to `state`: forward only, and a kept item only to refunded. */
const canMove = (item: ReturnStatusItem, state: Move) =>
  item.states.includes(state) && item.states.indexOf(state) > item.states.indexOf(item.state)

/** Move items on: which items, to which state, with a note for the timeline. */
export function Actions({ detail }: { detail: ReturnDetail }) {
  const items = detail.status.items
  const [move, { isLoading, error, reset }] = useMoveItemsMutation()
  const [chosen, setChosen] = useState<string[]>(() => items.map((item) => item.line_item_id))
  const [note, setNote] = useState('')
  const [done, setDone] = useState<string | null>(null)
  const movable = MOVES.filter(({ state }) =>
    items.some((item) => chosen.includes(item.line_item_id) && canMove(item, state)),
  )
  if (items.every((item) => item.state === item.states.at(-1))) return null

  const submit = async (state: Move, event?: FormEvent) => {
    event?.preventDefault()
    reset()
    setDone(null)
    // Of the items chosen, those that can take this step.
    const ids = items
      .filter((item) => chosen.includes(item.line_item_id) && canMove(item, state))
      .map((item) => item.line_item_id)
    const result = await move({
      id: detail.summary.id,
      change: { state, line_item_ids: ids, ...(note.trim() ? { note: note.trim() } : {}) },
    })
    if (!('error' in result)) {
      setNote('')
      setDone(
        `${ids.length === 1 ? '1 item' : `${ids.length} items`} marked ${STATE_LABELS[state as ReturnItemState].toLowerCase()}.`,
      )
    }
  }
  return (
    <section className="console-card" aria-labelledby="actions-title">
      <h2 id="actions-title">Move items on</h2>
      <form onSubmit={(event) => event.preventDefault()}>
        <fieldset className="console-choices">
          <legend>Items</legend>
          {items.map((item) => (
            <label key={item.line_item_id} className="console-check">
              <input
                type="checkbox"
                checked={chosen.includes(item.line_item_id)}
                onChange={(event) =>
                  setChosen((now) =>
                    event.target.checked
                      ? [...now, item.line_item_id]
                      : now.filter((line) => line !== item.line_item_id),
                  )
                }
              />
              {item.title}
              {item.variant_title ? ` · ${item.variant_title}` : ''}{' '}
              <span className="muted">({STATE_LABELS[item.state]})</span>
            </label>
          ))}
        </fieldset>
        <Field id="action-note" label="Note (optional)">
          <textarea
            id="action-note"
            className="field__input field__textarea"
            maxLength={1000}
            rows={2}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
        </Field>
        <ErrorAlert error={error} />
        <p role="status" className="console-done">
          {done}
        </p>
        <div className="console-actions">
          {movable.length === 0 ? (
            <p className="muted">Choose an item that has a step left.</p>
          ) : (
            movable.map(({ state, label }) => (
              <button
                key={state}
                type="button"
                className="button button--primary"
                disabled={isLoading}
                onClick={() => void submit(state)}
              >
                {label}
              </button>
            ))
          )}
        </div>
      </form>
    </section>
  )
}
