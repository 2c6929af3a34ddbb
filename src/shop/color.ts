import { optionalChunk } from '../app/optionalChunk'

/**
 * Colours of a shop's configuration. Hexadecimal colours, what the Portal API serves, are read
 * here in the start bundle. Any other CSS colour (a name, rgb(), hsl()) is read by colord, a
 * chunk of its own (cssColors.ts) that a shop's portal fetches only when its configuration or a
 * preview override has such a colour: the start screen does not carry 3.5 KB for that case.
 */

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/** '#rgb', '#rgba', '#rrggbb' or '#rrggbbaa' as lowercase '#rrggbb(aa)'; null for anything else. */
export function hexColor(value: string): string | null {
  if (!HEX.test(value)) return null
  const digits = value.slice(1).toLowerCase()
  return `#${digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits}`
}

/** Longest colour text we read (a colour, not a style sheet). */
const MAX_COLOR_LENGTH = 64

/** The reader of every CSS colour (colord with its names plugin), fetched when one is needed. */
export const cssColors = optionalChunk(
  'The reader of CSS colour names',
  () => import(/* webpackChunkName: "css-colors" */ './cssColors'),
)

/**
 * A valid CSS colour as '#rrggbb(aa)', or null. Colours other than hexadecimal ones are read
 * once cssColors has loaded; before that (or offline) they are null.
 */
export function safeColor(value: string): string | null {
  const trimmed = value.trim()
  if (trimmed.length > MAX_COLOR_LENGTH) return null
  return hexColor(trimmed) ?? cssColors.current()?.cssColorToHex(trimmed) ?? null
}

/** Whether `value` is text that only the CSS colour chunk can read (a name, rgb(), or no colour). */
export function needsCssColors(value: unknown): boolean {
  return typeof value === 'string' && hexColor(value.trim()) === null
}

/** WCAG 2 relative luminance of an sRGB hex colour (its alpha ignored). */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

const WHITE = '#ffffff'
const NEAR_BLACK = '#111111'
const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)

/** White or near-black, whichever has the higher WCAG contrast ratio on `background` (a safeColor). */
export function readableTextOn(background: string): string {
  const hex = hexColor(background)
  if (hex === null) return WHITE
  const bg = luminance(hex)
  return contrast(bg, 1) >= contrast(bg, luminance(NEAR_BLACK)) ? WHITE : NEAR_BLACK
}
