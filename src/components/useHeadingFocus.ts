import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router-dom'

/**
 * Moves focus to a screen's heading when the shopper navigates to it, so screen readers announce
 * the new screen. The page's first screen (the router's 'default' location) keeps the browser's
 * own focus.
 */
export function useHeadingFocus<T extends HTMLElement = HTMLHeadingElement>() {
  const ref = useRef<T>(null)
  const { key } = useLocation()
  useEffect(() => {
    if (key !== 'default') ref.current?.focus()
  }, [key])
  return ref
}
