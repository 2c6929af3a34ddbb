import { useEffect } from 'react'
import { useShop } from '../shop/useShop'
import { afterFrame } from './afterFrame'

/** The title to write after the next frame (null: none waits), and whether that write is scheduled. */
let waiting: string | null = null
let scheduled = false

function writeAfterFrame(title: string) {
  waiting = title
  if (scheduled) return
  scheduled = true
  afterFrame(() => {
    scheduled = false
    if (waiting !== null && document.title !== waiting) document.title = waiting
    waiting = null
  })
}

/**
 * Names the screen in the browser's tab and history, before the shop's title ("Why are you
 * returning the Classic Tee? – Demo Store"), so a shopper with several tabs, or a screen reader
 * announcing the page, knows which step this is. Leaving the screen puts the shop's title back.
 *
 * Written once a step, after the frame that first draws the step: the screen left puts back the
 * title it found, and the next one, in the same commit, names the page instead; whichever is last
 * is written (useTitle.ts does the same at once, for the back office). The click that moved on is
 * answered by that frame (docs/decisions/0098-server-bound-steps.md).
 */
export function useDocumentTitle(title: string) {
  const { document_title_text: shopTitle } = useShop()
  const named = shopTitle ? `${title} – ${shopTitle}` : title
  useEffect(() => {
    const before = waiting ?? document.title
    writeAfterFrame(named)
    return () => writeAfterFrame(before)
  }, [named])
}
