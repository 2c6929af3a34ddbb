import { colord, extend } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'
import namesPlugin from 'colord/plugins/names'

// Names too ('white', 'gold'): a configuration may give its button colour by name.
extend([a11yPlugin, namesPlugin])

/** White or near-black, whichever reads better on the background (WCAG contrast ratio). */
export function readableTextOn(background: string): string {
  const bg = colord(background)
  if (!bg.isValid()) return '#ffffff'
  return bg.contrast('#ffffff') >= bg.contrast('#111111') ? '#ffffff' : '#111111'
}
