import { useEffect } from 'react'

/**
 * Names the page in the browser's tab and history while the calling screen is shown; leaving the
 * screen puts back the title it found. The portal's screens add the shop's name
 * (useDocumentTitle.ts); the back office its own (src/admin/useConsoleTitle.ts).
 */
export function useTitle(title: string) {
  useEffect(() => {
    const before = document.title
    document.title = title
    return () => {
      document.title = before
    }
  }, [title])
}
