import { colord, extend } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'

extend([a11yPlugin])

/** White or near-black, whichever reads better on the background (WCAG contrast ratio). */
export function readableTextOn(background: string): string {
  const bg = colord(background)
  if (!bg.isValid()) return '#ffffff'
  return bg.contrast('#ffffff') >= bg.contrast('#111111') ? '#ffffff' : '#111111'
}
