import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import type { AppStore } from './store'

/** Renders the portal into #root (after the session is restored: see index.tsx). */
export function startPortal(store: AppStore) {
  const root = createRoot(document.getElementById('root')!)
  // A transition: React renders in slices that leave the main thread free for input.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    )
  })
}
