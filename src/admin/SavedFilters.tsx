import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { useSessionQuery } from './api'

interface Saved {
  name: string
  /** the list's address query: search, view, filters and sort */
  query: string
}

/**
 * A staff member's saved searches of the returns list, kept in this browser for this shop and
 * this staff member (decision 0084): nothing is sent to the server.
 */
const keyOf = (shop: string, email: string) => `rebound.savedFilters.${shop}.${email.toLowerCase()}`

function read(key: string): Saved[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]')
    const isSaved = (each: unknown): each is Saved =>
      typeof (each as Partial<Saved> | null)?.name === 'string' &&
      typeof (each as Partial<Saved> | null)?.query === 'string'
    return Array.isArray(parsed) ? parsed.filter(isSaved) : []
  } catch {
    return []
  }
}

/** Save the list as it is under a name, and open one saved before. */
export function SavedFilters({ query }: { query: string }) {
  const session = useSessionQuery().data
  const navigate = useNavigate()
  const key = session ? keyOf(session.shop, session.email) : null
  const [saved, setSaved] = useState<Saved[]>(() => (key ? read(key) : []))
  const [naming, setNaming] = useState(false)
  const [name, setName] = useState('')
  if (!key) return null

  const save = (event: FormEvent) => {
    event.preventDefault()
    const wanted = name.trim().slice(0, 60)
    if (!wanted) return
    const next = [...saved.filter((each) => each.name !== wanted), { name: wanted, query }]
    window.localStorage.setItem(key, JSON.stringify(next))
    setSaved(next)
    setNaming(false)
    setName('')
  }

  return (
    <div className="console-saved">
      {saved.length > 0 ? (
        <label className="console-saved__pick">
          Saved searches{' '}
          <select
            className="field__input"
            value=""
            onChange={(event) => {
              const chosen = saved.find((each) => each.name === event.target.value)
              if (chosen) void navigate({ search: chosen.query ? `?${chosen.query}` : '' })
            }}
          >
            <option value="">Open a saved search…</option>
            {saved.map((each) => (
              <option key={each.name} value={each.name}>
                {each.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {naming ? (
        <form className="console-saved__form" onSubmit={save}>
          <label>
            Name{' '}
            <input
              className="field__input"
              value={name}
              maxLength={60}
              onChange={(event) => setName(event.target.value)}
            />
          </label>
          <button type="submit" className="button button--secondary console__small">
            Save
          </button>
        </form>
      ) : (
        <button type="button" className="link-button" onClick={() => setNaming(true)}>
          Save this search
        </button>
      )}
    </div>
  )
}
