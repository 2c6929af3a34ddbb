/**
 * How the shop file's errors are written: the path of the bad field in the file, then what is
 * wrong with it, e.g. `orders[2].line_items[0].price: must be a decimal amount like "25.00"`.
 */
import type { Segment } from '../domain/storableText'

export type { Segment }

/** `orders[2].line_items[0].price`; keys that are not plain names are quoted: `config_variants["de-AT"]` */
export function formatPath(segments: readonly Segment[]): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out ? `.${segment}` : segment
    else out += `[${JSON.stringify(segment)}]`
  }
  return out || 'file'
}

export const errorLine = (segments: readonly Segment[], message: string): string =>
  `${formatPath(segments)}: ${message}`

/** "1 entry", "3 entries" */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}
