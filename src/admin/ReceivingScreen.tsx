import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { Spinner } from '../components/Spinner'
import { errorText } from './api'
import { ReceivingCamera } from './ReceivingCamera'
import { useLazyFindReturnByCodeQuery } from './receivingApi'
import './receiving.css'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'
import type { Recorded } from './ReceivingForm'

/** The longest code the API looks up (ReceiveQuery). */
const CODE_MAX = 64

/**
 * The warehouse's first step: a parcel's drop-off code (scanned by a USB scanner, which types it
 * and Enter, or by the camera) or a return number typed, then that return's inspection. After an
 * inspection is recorded the warehouse is back here, the field focused for the next parcel, and a
 * status region says what was recorded.
 */
export function ReceivingScreen() {
  const navigate = useNavigate()
  const arrivedWith = (useLocation().state as { recorded?: Recorded } | null)?.recorded ?? null
  // Said once the region is on the page: words a live region is born with are not announced.
  const [recorded, setRecorded] = useState<Recorded | null>(null)
  useEffect(() => {
    const later = setTimeout(() => setRecorded(arrivedWith))
    return () => clearTimeout(later)
  }, [arrivedWith])
  const input = useRef<HTMLInputElement>(null)
  const [code, setCode] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [find, { isFetching }] = useLazyFindReturnByCodeQuery()
  // A scanner may send the next code before the last answer: only the latest look-up counts.
  const latest = useRef(0)

  useConsoleTitle('Receive')
  useEffect(() => {
    input.current?.focus()
  }, [])

  /** The code kept and selected, so the next scan replaces it. */
  const ready = () => {
    input.current?.focus()
    input.current?.select()
  }

  const look = async (value: string) => {
    const wanted = value.trim()
    const ask = ++latest.current
    if (!wanted || wanted.length > CODE_MAX) {
      setProblem(
        wanted ? 'That is not a drop-off code or a return number.' : 'Scan or type a drop-off code or return number.',
      )
      ready()
      return
    }
    setProblem(null)
    try {
      const found = await find(wanted).unwrap()
      if (ask === latest.current) void navigate(`/receive/${encodeURIComponent(found.return_id)}`)
    } catch (error) {
      if (ask !== latest.current) return
      setProblem(errorText(error))
      ready()
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void look(code)
  }

  return (
    <section className="receiving" aria-labelledby="receive-title">
      <h1 id="receive-title">Receive a return</h1>
      <div role="status" className={recorded ? 'console-card receiving-done' : undefined}>
        {recorded ? (
          <>
            <h2>Inspection recorded</h2>
            <p>
              {recorded.text}{' '}
              <Link to={`/returns/${encodeURIComponent(recorded.return_id)}`}>Open {recorded.name}</Link>
            </p>
          </>
        ) : null}
      </div>
      <form className="console-card receiving-scan" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label receiving-scan__label" htmlFor="receive-code">
            Drop-off code or return number
          </label>
          <span className="field__hint" id="receive-code-hint">
            Scan the parcel’s QR code, or type RB-… or #1001-R1, then Enter.
          </span>
          <div className="receiving-scan__row">
            <input
              ref={input}
              id="receive-code"
              className="field__input receiving-scan__input"
              type="text"
              name="code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="off"
              autoCorrect="off"
              autoCapitalize="characters"
              spellCheck={false}
              enterKeyHint="go"
              aria-describedby={problem ? 'receive-code-hint receive-code-problem' : 'receive-code-hint'}
              aria-invalid={problem ? true : undefined}
            />
            <button type="submit" className="button button--primary receiving-scan__go">
              Open
            </button>
          </div>
        </div>
        {isFetching ? <Spinner label="Looking up the return" size="small" /> : null}
        <ErrorAlert id="receive-code-problem" className="receiving-scan__error" focus={false}>
          {problem}
        </ErrorAlert>
        <ReceivingCamera
          onCode={(scanned) => {
            setCode(scanned)
            void look(scanned)
          }}
        />
      </form>
    </section>
  )
}
