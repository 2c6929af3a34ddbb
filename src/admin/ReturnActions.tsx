/**
 * The return page's actions (ReturnScreen): staff move chosen items on, with a note; write a note;
 * cancel or close the return; copy the shopper's links.
 */
import { useEffect, useRef, useState } from 'react'
import type { Money, ReturnItemState, ReturnStatusItem } from '../../contract/api'
import type { ReturnDetail, StaffStateChange } from '../../contract/staff'
import { formatMoney } from '../components/format'
import { useAddNoteMutation, useEndReturnMutation, useMoveItemsMutation } from './api'
import { Field } from './Fields'
import { ErrorAlert } from './ErrorAlert'
import { formatMoment, STATE_LABELS } from './format'

type Move = StaffStateChange['state']
const MOVES: { state: Move; label: string }[] = [
  { state: 'in_transit', label: 'Mark in transit' },
  { state: 'received', label: 'Mark received' },
  { state: 'refunded', label: 'Mark refunded' },
]

/** Whether an item may move to `state`: forward only, and a kept item only to refunded. */
const canMove = (item: ReturnStatusItem, state: Move) =>
  item.states.includes(state) && item.states.indexOf(state) > item.states.indexOf(item.state)

/** An item sent back that has not arrived: refunding it needs the amount confirmed (decision 0056). */
const notReceived = (item: ReturnStatusItem) =>
  !item.keep && (item.state === 'requested' || item.state === 'in_transit')

/** An item as staff read it: "Classic Tee · M". */
const nameOf = (item: ReturnStatusItem) => (item.variant_title ? `${item.title} · ${item.variant_title}` : item.title)

/** Names in a sentence: "A", "A and B", "A, B and C". */
const listed = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`

/** What a move to refunded would pay: the refund as it stands, unless it was issued at submission. */
const refundOf = (detail: ReturnDetail): Money | null =>
  detail.status.refund && detail.status.refund.issued_at === undefined ? detail.status.refund.amount : null

/** Move items on: which items, to which state, with a note for the timeline. */
export function Actions({ detail }: { detail: ReturnDetail }) {
  const items = detail.status.items
  const [move, { isLoading, error, reset }] = useMoveItemsMutation()
  const [chosen, setChosen] = useState<string[]>(() => items.map((item) => item.line_item_id))
  const [note, setNote] = useState('')
  const [done, setDone] = useState<string | null>(null)
  /** items about to be refunded though they never arrived, waiting for staff to confirm */
  const [confirming, setConfirming] = useState<ReturnStatusItem[] | null>(null)
  const status = useRef<HTMLParagraphElement>(null)
  const question = useRef<HTMLDivElement>(null)
  useEffect(() => {
    // The button pressed may be gone (no step of that kind left): the focus goes to what happened.
    if (done) status.current?.focus()
  }, [done])
  useEffect(() => {
    if (confirming) question.current?.focus()
  }, [confirming])
  const movable = MOVES.filter(({ state }) =>
    items.some((item) => chosen.includes(item.line_item_id) && canMove(item, state)),
  )
  if (items.every((item) => item.state === item.states.at(-1)) && !done) return null

  // Of the items chosen, those that can take this step.
  const movingTo = (state: Move) => items.filter((item) => chosen.includes(item.line_item_id) && canMove(item, state))
  const amount = refundOf(detail)

  const submit = async (state: Move, confirmed = false) => {
    reset()
    setDone(null)
    const moving = movingTo(state)
    const unreceived = state === 'refunded' ? moving.filter(notReceived) : []
    if (unreceived.length > 0 && !confirmed) {
      setConfirming(unreceived)
      return
    }
    setConfirming(null)
    const change: StaffStateChange = {
      state,
      line_item_ids: moving.map((item) => item.line_item_id),
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(confirmed ? { confirm_amount: amount?.amount ?? '0' } : {}),
    }
    const result = await move({ id: detail.summary.id, change })
    if ('data' in result && result.data) {
      setNote('')
      const { moved, skipped } = result.data
      const label = STATE_LABELS[state as ReturnItemState].toLowerCase()
      setDone(
        [
          `${moved.length === 1 ? '1 item' : `${moved.length} items`} marked ${label}: ${listed(moved)}.`,
          ...(skipped.length > 0 ? [`Not moved, someone else was first: ${skipped.join('; ')}.`] : []),
        ].join(' '),
      )
    }
  }

  const one = confirming?.length === 1
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
                onChange={(event) => {
                  setConfirming(null)
                  setChosen((now) =>
                    event.target.checked
                      ? [...now, item.line_item_id]
                      : now.filter((line) => line !== item.line_item_id),
                  )
                }}
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
        <p role="status" className="console-done" ref={status} tabIndex={-1}>
          {done}
        </p>
        {confirming ? (
          <div
            ref={question}
            role="alertdialog"
            aria-labelledby="refund-unreceived-title"
            aria-describedby="refund-unreceived-text"
            className="notice"
            tabIndex={-1}
          >
            <h3 id="refund-unreceived-title">Refund without receipt?</h3>
            <p id="refund-unreceived-text">
              {listed(confirming.map(nameOf))} {one ? 'has' : 'have'} not been received. Marking {one ? 'it' : 'them'}{' '}
              refunded{' '}
              {amount
                ? `counts ${one ? 'it' : 'them'} in the return’s refund of ${formatMoney(amount)}`
                : 'sends what the shopper is owed'}
              , e-mails the shopper and cannot be undone.
            </p>
            <div className="console-actions">
              <button
                type="button"
                className="button button--primary"
                disabled={isLoading}
                onClick={() => void submit('refunded', true)}
              >
                {amount ? `Refund ${formatMoney(amount)} without receipt` : 'Mark refunded without receipt'}
              </button>
              <button type="button" className="button button--secondary" onClick={() => setConfirming(null)}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
        <div className="console-actions">
          {movable.length === 0 ? (
            <p className="muted">Choose an item that has a step left.</p>
          ) : (
            movable.map(({ state, label }) => (
              <button
                key={state}
                type="button"
                className="button button--primary"
                disabled={isLoading || confirming !== null}
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

/** A note on the return's timeline, with who and when; nothing moves. */
export function NoteForm({ id }: { id: string }) {
  const [addNote, { isLoading, error, reset }] = useAddNoteMutation()
  const [text, setText] = useState('')
  const [done, setDone] = useState<string | null>(null)
  const submit = async () => {
    reset()
    setDone(null)
    const result = await addNote({ id, text: text.trim() })
    if ('data' in result && result.data) {
      setText('')
      setDone('Note added to the timeline.')
    }
  }
  return (
    <section className="console-card" aria-labelledby="note-title">
      <h2 id="note-title">Add a note</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <Field id="return-note" label="Note" hint="Staff read it on the timeline; the shopper does not.">
          <textarea
            id="return-note"
            className="field__input field__textarea"
            maxLength={2000}
            rows={3}
            required
            aria-describedby="return-note-hint"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </Field>
        <ErrorAlert error={error} />
        <p role="status" className="console-done">
          {done}
        </p>
        <div className="console-actions">
          <button type="submit" className="button button--primary" disabled={isLoading || text.trim() === ''}>
            Add note
          </button>
        </div>
      </form>
    </section>
  )
}

/**
 * Cancel a return nothing of which was received or refunded, or close one with a reason
 * (decision 0083); once ended, how and by whom.
 */
export function EndReturn({ detail }: { detail: ReturnDetail }) {
  const [end, { isLoading, error, reset }] = useEndReturnMutation()
  const [reason, setReason] = useState('')
  const [asking, setAsking] = useState(false)
  /** ended here and now: the focus goes to what happened (the buttons are gone) */
  const [endedNow, setEndedNow] = useState(false)
  const question = useRef<HTMLDivElement>(null)
  const said = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (asking) question.current?.focus()
  }, [asking])
  const { summary, ended } = detail
  useEffect(() => {
    if (ended && endedNow) said.current?.focus()
  }, [ended, endedNow])
  if (ended)
    return (
      <section className="console-card notice" aria-labelledby="ended-title">
        <h2 id="ended-title">{ended.state === 'cancelled' ? 'Cancelled' : 'Closed'}</h2>
        <p role="status" ref={said} tabIndex={-1}>
          {ended.state === 'cancelled'
            ? `Cancelled by ${ended.by}, ${formatMoment(ended.at)}. The shopper was told; the label no longer works and the items can be returned again.`
            : `Closed by ${ended.by}, ${formatMoment(ended.at)}: ${ended.reason ?? ''}`}
        </p>
      </section>
    )
  const cancellable = detail.status.items.every((item) => item.state !== 'received' && item.state !== 'refunded')
  const cancel = async () => {
    const result = await end({ id: summary.id, end: 'cancel' })
    if ('data' in result) {
      setAsking(false)
      setEndedNow(true)
    }
  }
  return (
    <section className="console-card" aria-labelledby="end-title">
      <h2 id="end-title">Cancel or close</h2>
      {cancellable ? (
        asking ? (
          <div
            ref={question}
            role="alertdialog"
            aria-labelledby="cancel-return-title"
            aria-describedby="cancel-return-text"
            className="notice"
            tabIndex={-1}
          >
            <h3 id="cancel-return-title">Cancel {summary.name}?</h3>
            <p id="cancel-return-text">
              The shopper is told by e-mail, the label stops working and the items can be returned again. This cannot be
              undone.
            </p>
            <ErrorAlert error={error} />
            <div className="console-actions">
              <button
                type="button"
                className="button button--primary"
                disabled={isLoading}
                onClick={() => void cancel()}
              >
                Cancel the return
              </button>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  reset()
                  setAsking(false)
                }}
              >
                Keep it
              </button>
            </div>
          </div>
        ) : (
          <p>
            <button type="button" className="button button--secondary" onClick={() => setAsking(true)}>
              Cancel return
            </button>{' '}
            <span className="muted">Nothing has been received yet.</span>
          </p>
        )
      ) : null}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          reset()
          void end({ id: summary.id, end: 'close', reason: reason.trim() }).then((result) => {
            if ('data' in result) setEndedNow(true)
          })
        }}
      >
        <Field
          id="close-reason"
          label="Reason to close"
          hint="The return goes no further and nothing is refunded by closing it. The shopper’s status page says it is closed."
        >
          <input
            id="close-reason"
            className="field__input"
            maxLength={500}
            required
            aria-describedby="close-reason-hint"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </Field>
        {asking ? null : <ErrorAlert error={error} />}
        <div className="console-actions">
          <button type="submit" className="button button--secondary" disabled={isLoading || reason.trim() === ''}>
            Close return
          </button>
        </div>
      </form>
    </section>
  )
}

/** The shopper's links, as their e-mails carry them, to copy into a message to them. */
export function ShopperLinks({ links }: { links: ReturnDetail['links'] }) {
  const [said, setSaid] = useState('')
  if (!links.status && !links.label) return null
  const copy = async (link: string, what: string) => {
    try {
      await navigator.clipboard.writeText(link)
      setSaid(`Copied the ${what} link.`)
    } catch {
      setSaid(`The ${what} link could not be copied: ${link}`)
    }
  }
  return (
    <section className="console-card" aria-labelledby="links-title">
      <h2 id="links-title">Shopper’s links</h2>
      <div className="console-actions">
        {links.status ? (
          <button type="button" className="button button--secondary" onClick={() => void copy(links.status!, 'status')}>
            Copy status link
          </button>
        ) : null}
        {links.label ? (
          <button type="button" className="button button--secondary" onClick={() => void copy(links.label!, 'label')}>
            Copy label link
          </button>
        ) : null}
      </div>
      <p role="status" className="console-done">
        {said}
      </p>
    </section>
  )
}
