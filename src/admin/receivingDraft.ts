/**
 * An inspection in progress, kept in the browser's localStorage so that a session that ends (30
 * minutes idle, docs/back-office.md) loses nothing: after signing in again the form comes back as
 * it was. Kept per staff account, shop and return; cleared when the inspection is recorded, when
 * the account signs out (a shared computer: the next person sees nothing of it), and after a day.
 * Nothing here is needed: storage that is full or refused only means nothing is kept.
 */

/** A draft older than this is dropped: the parcel has long been dealt with, or set aside. */
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000

const PREFIX = 'rebound-receiving:'

const keyOf = (email: string, shop: string, returnId: string) => PREFIX + JSON.stringify([email, shop, returnId])

interface Stored<T> {
  saved_at: number
  value: T
}

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** The draft kept for this person, shop and return; null when none, or too old. */
export function readDraft<T>(email: string, shop: string, returnId: string, now = Date.now()): T | null {
  const store = storage()
  try {
    const raw = store?.getItem(keyOf(email, shop, returnId))
    if (!raw) return null
    const stored = JSON.parse(raw) as Stored<T>
    if (typeof stored.saved_at !== 'number' || now - stored.saved_at > DRAFT_MAX_AGE_MS) {
      store?.removeItem(keyOf(email, shop, returnId))
      return null
    }
    return stored.value
  } catch {
    return null
  }
}

export function saveDraft<T>(email: string, shop: string, returnId: string, value: T, now = Date.now()): void {
  try {
    storage()?.setItem(keyOf(email, shop, returnId), JSON.stringify({ saved_at: now, value } satisfies Stored<T>))
  } catch {
    // Full or refused: nothing is kept, the form works as before.
  }
}

export function clearDraft(email: string, shop: string, returnId: string): void {
  try {
    storage()?.removeItem(keyOf(email, shop, returnId))
  } catch {
    // Nothing was kept.
  }
}

/** Every draft of this account, of any shop (at sign-out). */
export function forgetDrafts(email: string): void {
  const store = storage()
  if (!store) return
  try {
    const keys = Array.from({ length: store.length }, (_, index) => store.key(index)).filter(
      (key): key is string => key !== null && key.startsWith(PREFIX),
    )
    for (const key of keys) {
      const [owner] = JSON.parse(key.slice(PREFIX.length)) as [string]
      if (owner === email) store.removeItem(key)
    }
  } catch {
    // Nothing more to forget.
  }
}
