import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import type { InspectionPreview, InspectionRequest, ReturnDetail } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { errorText, useSessionQuery } from './api'
import { ErrorAlert } from './ErrorAlert'
import {
  buildInspection,
  choicesReducer,
  draftOf,
  restoredChoices,
  type ChoiceEvent,
  type DraftChoice,
} from './ReceivingChoices'
import { clearDraft, readDraft, saveDraft } from './receivingDraft'
import { InspectItem, inspectable, itemTitle, settledText } from './ReceivingItem'
import { ReceivingPreview } from './ReceivingPreview'
import { useInspectReturnMutation, useLazyPreviewInspectionQuery } from './receivingApi'

/** The server's refusal: its message, and its problems when a 422 lists them. */
interface Refusal {
  message: string
  problems: string[]
}

/** The form's alert, focused at each Review that finds a problem (even the same one again). */
const PROBLEM_ALERT = 'receiving-problem'

function refusalOf(error: unknown): Refusal {
  const data = (error as { data?: { problems?: unknown } } | undefined)?.data
  const problems = Array.isArray(data?.problems) ? (data.problems as unknown[]) : []
  return {
    message: errorText(error),
    problems: problems.flatMap((problem) => {
      if (typeof problem === 'string') return [problem]
      const message = (problem as { message?: unknown } | null)?.message
      return typeof message === 'string' ? [message] : []
    }),
  }
}

interface Reviewed {
  body: InspectionRequest
  preview: InspectionPreview
  left: string[]
}

/** What the scan screen says after an inspection is recorded (its location state). */
export interface Recorded {
  return_id: string
  name: string
  /** "2 items of #1001-R1 inspected, and the refund issued." */
  text: string
}

/**
 * The items to inspect, the refund switch, Review, the preview and Confirm; then back to the scan
 * field for the next parcel, which says what was recorded. What staff chose is kept as a draft
 * (receivingDraft.ts) until it is recorded.
 */
export function ReceivingForm({ detail }: { detail: ReturnDetail }) {
  const navigate = useNavigate()
  const session = useSessionQuery().data
  const email = session?.email ?? ''
  const shop = session?.shop ?? ''
  const returnId = detail.summary.id
  const items = detail.status.items
  // An item inspected unit by unit has one inspection a unit.
  const inspections = new Map<string, ReturnDetail['inspections']>()
  for (const inspection of detail.inspections)
    inspections.set(inspection.line_item_id, [...(inspections.get(inspection.line_item_id) ?? []), inspection])
  const inspected = new Set(inspections.keys())
  const toInspect = items.filter((item) => inspectable(item, inspected))
  const settled = items.filter((item) => !inspectable(item, inspected))
  const answers = new Map(detail.return_order?.items.map((answer) => [answer.line_item_id, answer]) ?? [])
  const titleOf = (id: string) => {
    const item = items.find((line) => line.line_item_id === id)
    return item ? itemTitle(item) : id
  }

  const [choices, dispatchChoice] = useReducer(choicesReducer, null, () =>
    restoredChoices(
      items.map((item) => item.line_item_id),
      readDraft<Record<string, DraftChoice>>(email, shop, returnId),
      Object.fromEntries(items.map((item) => [item.line_item_id, item.quantity])),
    ),
  )
  // Kept once staff changed something: a return only opened leaves nothing behind.
  const changed = useRef(false)
  useEffect(() => {
    if (changed.current) saveDraft(email, shop, returnId, draftOf(choices))
  }, [choices, email, shop, returnId])
  const form = useRef<HTMLFormElement>(null)
  // The first item's condition takes the focus: the arrow keys change it, Enter reviews.
  useEffect(() => {
    const radios = form.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]')
    const first = Array.from(radios ?? []).find((radio) => radio.checked) ?? radios?.[0]
    first?.focus()
  }, [])
  const [refundNow, setRefundNow] = useState(true)
  const [problem, setProblem] = useState<string | null>(null)
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  const [reviewed, setReviewed] = useState<Reviewed | null>(null)
  const [preview, { isFetching: previewing }] = useLazyPreviewInspectionQuery()
  const [inspect, { isLoading: confirming }] = useInspectReturnMutation()
  const reviewButton = useRef<HTMLButtonElement>(null)

  /** Any change after Review makes its preview stale: back to the form. */
  const dispatch = (event: ChoiceEvent) => {
    changed.current = true
    dispatchChoice(event)
    setReviewed(null)
    setRefusal(null)
  }

  const review = async (event: FormEvent) => {
    event.preventDefault()
    setRefusal(null)
    const built = buildInspection(
      toInspect.map((item) => ({ id: item.line_item_id, title: itemTitle(item) })),
      choices,
      refundNow,
    )
    if (!built.ok) {
      setProblem(built.problem)
      setTimeout(() => document.getElementById(PROBLEM_ALERT)?.focus())
      return
    }
    setProblem(null)
    try {
      const answer = await preview({ returnId, body: built.body }).unwrap()
      setReviewed({ body: built.body, preview: answer, left: built.left })
    } catch (error) {
      setRefusal(refusalOf(error))
      setTimeout(() => document.getElementById(PROBLEM_ALERT)?.focus())
    }
  }

  const confirm = async () => {
    if (!reviewed) return
    setRefusal(null)
    try {
      await inspect({ returnId, body: reviewed.body }).unwrap()
      clearDraft(email, shop, returnId)
      const recorded: Recorded = {
        return_id: returnId,
        name: detail.summary.name,
        text: recordedText(detail.summary.name, reviewed.body, reviewed.preview.held),
      }
      void navigate('/receive', { state: { recorded } })
    } catch (error) {
      setRefusal(refusalOf(error))
    }
  }

  const formAlert = problem ?? (reviewed ? null : refusal?.message)
  return (
    <>
      {toInspect.length > 0 ? (
        <form ref={form} className="receiving-form" onSubmit={(event) => void review(event)} noValidate>
          <h2 className="receiving-form__title">Items to inspect</h2>
          {toInspect.map((item) => (
            <InspectItem
              key={item.line_item_id}
              returnId={returnId}
              item={item}
              answer={answers.get(item.line_item_id)}
              choice={choices[item.line_item_id]!}
              dispatch={dispatch}
            />
          ))}
          <div className="console-card receiving-submit">
            <label className="console-check receiving-check">
              <input
                type="checkbox"
                checked={refundNow}
                onChange={(event) => {
                  setRefundNow(event.target.checked)
                  setReviewed(null)
                  setRefusal(null)
                }}
              />
              Issue the refund now
            </label>
            <ErrorAlert
              id={PROBLEM_ALERT}
              className="receiving-refusal"
              focus={false}
              problems={!problem && refusal ? refusal.problems : []}
            >
              {formAlert}
            </ErrorAlert>
            {reviewed ? null : (
              <div className="console-actions receiving-actions">
                <button ref={reviewButton} type="submit" className="button button--primary" disabled={previewing}>
                  Review
                </button>
                {previewing ? <Spinner label="Working out the refund" size="small" /> : null}
              </div>
            )}
          </div>
        </form>
      ) : (
        <p className="console-card">Nothing left to inspect on this return.</p>
      )}
      {reviewed ? (
        <ReceivingPreview
          preview={reviewed.preview}
          refundNow={reviewed.body.refund === true}
          left={reviewed.left}
          titleOf={titleOf}
          confirming={confirming}
          refusal={refusal}
          onConfirm={() => void confirm()}
          onChange={() => {
            setReviewed(null)
            setRefusal(null)
            setTimeout(() => reviewButton.current?.focus())
          }}
        />
      ) : null}
      {settled.length > 0 ? (
        <section className="console-card" aria-labelledby="settled-title">
          <h2 id="settled-title">Not to inspect</h2>
          <ul className="console-list" aria-label="Items not to inspect">
            {settled.map((item) => (
              <li key={item.line_item_id}>
                <strong>{itemTitle(item)}</strong>: {settledText(item, inspections.get(item.line_item_id))}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  )
}

/** What was recorded, in a sentence. */
function recordedText(name: string, body: InspectionRequest, held: InspectionPreview['held']): string {
  const count = body.items.length
  const heldText =
    held.length > 0
      ? ` ${held.map((line) => line.title).join(', ')} ${held.length === 1 ? 'waits' : 'wait'} for your decision on the return’s page: no new item is sent.`
      : ''
  return `${count === 1 ? '1 item' : `${count} items`} of ${name} inspected${body.refund ? ', and the refund issued.' : ' and marked received; the refund waits.'}${heldText}`
}
