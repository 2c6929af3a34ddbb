/**
 * Whether two values read as the same JSON: objects with the same keys in any order, lists in the
 * same order, dates at the same instant. Unlike util.isDeepStrictEqual it asks nothing of their
 * prototypes: a row the embedded database sends across its worker thread is built in another
 * realm than a parsed request body.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]))
  const left = Object.entries(a).filter(([, value]) => value !== undefined)
  const right = b as Record<string, unknown>
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined)
  return (
    left.length === rightKeys.length &&
    left.every(([key, value]) => Object.hasOwn(right, key) && sameJson(value, right[key]))
  )
}
