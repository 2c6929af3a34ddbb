import { useState } from 'react'
import type { ReturnSummary } from '../../contract/staff'
import { errorText, useMoveItemsMutation } from './api'

/** What a move does, in the words of its result: "3 received". */
const DONE = { received: 'received', refunded: 'refunded' } as const
type BulkState = keyof typeof DONE

/**
 * Why a return of a selection did not move, as a sentence naming it. Each is refused by the rules
 * that refuse it on its own page (services/staffMoves.ts); a refund of items never received needs
 * its amount confirmed, which only its page shows.
 */
function refusal(entry: ReturnSummary, error: unknown): string {
  const code = (error as { data?: { error?: unknown } } | undefined)?.data?.error
  if (code === 'confirm_refund')
    return `${entry.name} has items not received: mark it refunded on its page, where its amount is confirmed`
  return `${entry.name}: ${errorText(error)
    .replace(/^Nothing moved: /, '')
    .replace(/\.$/, '')}`
}

/** The result of a move of several returns in one sentence: "3 received, 1 refused: #1004-R1 …". */
export function bulkResultText(state: BulkState, moved: number, refused: readonly string[]): string {
  const parts = [`${moved} ${DONE[state]}`]
  if (refused.length > 0) parts.push(`${refused.length} refused: ${refused.join('; ')}`)
  return `${parts.join(', ')}.`
}

/**
 * The selected returns' actions (docs/back-office.md, "Working through a selection"): each return
 * is moved by the call its own page makes, one after the other, so the same rules refuse what they
 * refuse one by one, and each move is recorded as one; the result is read out when done.
 */
export function ReturnsBulk({ selected, onDone }: { selected: readonly ReturnSummary[]; onDone: () => void }) {
  const [moveItems] = useMoveItemsMutation()
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState('')

  const move = async (state: BulkState) => {
    setBusy(true)
    setResult('')
    let moved = 0
    const refused: string[] = []
    for (const entry of selected) {
      try {
        await moveItems({ id: entry.id, change: { state } }).unwrap()
        moved++
      } catch (error) {
        refused.push(refusal(entry, error))
      }
    }
    setBusy(false)
    setResult(bulkResultText(state, moved, refused))
    onDone()
  }
  const ids = selected.map((entry) => entry.id).join(',')

  return (
    <div className="console-bulk">
      {selected.length > 0 ? (
        <div className="console-bulk__actions" role="group" aria-label="Selected returns">
          <span>{selected.length} selected</span>
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => void move('received')}
          >
            Mark received
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => void move('refunded')}
          >
            Mark refunded
          </button>
          <a className="button button--secondary" href={`/admin/api/returns.csv?ids=${ids}`} download>
            Export selected
          </a>
        </div>
      ) : null}
      <p role="status" className={result ? 'console-bulk__result' : 'visually-hidden'}>
        {busy ? `Moving ${selected.length} returns…` : result}
      </p>
    </div>
  )
}
