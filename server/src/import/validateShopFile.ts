/**
 * Validation of the operator import format (shopFile.ts): first its shape, by the format's JSON
 * Schema (shopFileSchema.ts, compiled once by Ajv), then the checks a schema cannot express
 * (semanticChecks.ts). Every error names the bad field by its path in the file, e.g.
 * `orders[2].line_items[0].price: must be a decimal amount like "25.00"`.
 *
 * The semantic checks run only once the shape is right, so a broken file is reported in at most
 * two rounds: first every shape error, then every semantic error.
 */
import { unstorableText } from '../domain/storableText'
import { errorLine } from './errorLines'
import { LIMITS } from './limits'
import { schemaCheck } from './schemaErrors'
import { semanticErrors } from './semanticChecks'
import { ShopFile } from './shopFileSchema'

export { formatPath } from './errorLines'
export { LIMITS } from './limits'
export { normaliseOrderName } from './orderChecks'
export { isShopFileDate, resolveDate } from './shopFileDates'

export type ShopFileValidation = { ok: true; file: ShopFile } | { ok: false; errors: string[] }

const checkShape = schemaCheck(ShopFile)

/** Rejects absurd sizes before the schema walks them (Ajv with allErrors visits every entry). */
function sizeGuard(input: Record<string, unknown>): string | null {
  for (const [field, limit] of [
    ['orders', LIMITS.orders],
    ['catalogue', LIMITS.products],
  ] as const) {
    const list = input[field]
    if (Array.isArray(list) && list.length > limit * 2)
      return `${field}: must have at most ${limit} entries (the file has ${list.length})`
  }
  return null
}

function capped(errors: string[]): string[] {
  const unique = [...new Set(errors)]
  if (unique.length <= LIMITS.errors) return unique
  return [...unique.slice(0, LIMITS.errors), `… and ${unique.length - LIMITS.errors} more errors`]
}

/**
 * Checks a parsed shop file (the result of JSON.parse). On success `file` is the input, typed;
 * otherwise `errors` are human sentences, each starting with the path of the bad field.
 * Relative dates ("now-5d") are checked as resolved at `now`: pass the time the import will use.
 */
export function validateShopFile(input: unknown, now: Date = new Date()): ShopFileValidation {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const what = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input
    return { ok: false, errors: [`file: must be a JSON object with the shop's fields, not ${what}`] }
  }
  const tooBig = sizeGuard(input as Record<string, unknown>)
  if (tooBig) return { ok: false, errors: [tooBig] }
  // Text PostgreSQL cannot store would otherwise fail the import's INSERT midway, as an error
  // that names no field (a 500 over HTTP).
  const unstorable = unstorableText(input)
  if (unstorable) return { ok: false, errors: [errorLine(unstorable.segments, unstorable.problem)] }

  const shape = checkShape(input)
  if (!shape.ok) return { ok: false, errors: capped(shape.errors) }
  const errors = semanticErrors(shape.value, now)
  return errors.length ? { ok: false, errors: capped(errors) } : { ok: true, file: shape.value }
}
