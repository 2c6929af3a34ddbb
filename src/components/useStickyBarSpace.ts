import { useLayoutEffect, useRef } from 'react'

/**
 * For a bar stuck to the bottom of the screen (`.sticky-bar`): keeps the page's bottom scroll
 * padding at the bar's height, so whatever takes the focus is scrolled clear of it, never under it
 * (WCAG 2.4.11). The bar's height changes with its words, the width and the zoom: it is watched.
 */
export function useStickyBarSpace<T extends HTMLElement>() {
  const ref = useRef<T>(null)
  useLayoutEffect(() => {
    const bar = ref.current
    const root = document.documentElement
    if (!bar || typeof ResizeObserver === 'undefined') return
    // A little air above the bar, so the focus ring shows whole.
    const observer = new ResizeObserver(() => root.style.setProperty('--sticky-bar-space', `${bar.offsetHeight + 8}px`))
    observer.observe(bar)
    return () => {
      observer.disconnect()
      root.style.removeProperty('--sticky-bar-space')
    }
  }, [])
  return ref
}
