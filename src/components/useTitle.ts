import { useEffect } from 'react'

/** The title a screen left puts back, unless the screen that follows it names the page first. */
let toPutBack: string | null = null

/**
 * Names the page in the browser's tab and history while the calling screen is shown; leaving the
 * screen puts back the title it found. The back office's screens add its name
 * (src/admin/useConsoleTitle.ts); the portal's steps name the page after their first frame
 * instead, in the same way (useDocumentTitle.ts).
 *
 * Moving from one screen to the next writes the title once: the screen left puts its title back
 * after the commit's effects (a microtask), and the next screen's effect, in the same commit,
 * writes its own instead (docs/benchmarks.md, "The shopper's steps").
 */
export function useTitle(title: string) {
  useEffect(() => {
    const before = toPutBack ?? document.title
    toPutBack = null
    if (document.title !== title) document.title = title
    return () => {
      toPutBack = before
      queueMicrotask(() => {
        if (toPutBack === null) return
        if (document.title !== toPutBack) document.title = toPutBack
        toPutBack = null
      })
    }
  }, [title])
}
