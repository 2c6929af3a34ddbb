import { colord, extend } from 'colord'
import namesPlugin from 'colord/plugins/names'

// Names too ('white', 'rebeccapurple'): a configuration may give its button colour by name.
extend([namesPlugin])

/** Any CSS colour colord reads (names, rgb(), hsl(), hex) as '#rrggbb(aa)', or null. */
export function cssColorToHex(value: string): string | null {
  const color = colord(value)
  return color.isValid() ? color.toHex() : null
}
