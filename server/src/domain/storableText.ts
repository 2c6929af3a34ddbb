/** A key of an object or an index of an array, from the root of a value to one of its parts. */
export type Segment = string | number

export interface Finding {
  /** the path to the part found: `['items', 0, 'comment']` */
  segments: Segment[]
  problem: string
}

interface Node {
  value: unknown
  key: Segment | null
  parent: Node | null
}

function segmentsOf(node: Node): Segment[] {
  const segments: Segment[] = []
  for (let at: Node | null = node; at !== null && at.key !== null; at = at.parent) segments.push(at.key)
  return segments.reverse()
}

/**
 * Visits every part of a parsed JSON value, depth first, until `check` names a problem with one:
 * `check(key, value, parentKey)` sees each array item and object entry (the root with key null).
 * Iterative, and each part links to its parent instead of copying its path, so a deeply nested
 * body neither overflows the stack nor costs the square of its depth.
 */
export function findInJson(
  root: unknown,
  check: (key: Segment | null, value: unknown, parentKey: Segment | null) => string | null,
): Finding | null {
  const stack: Node[] = [{ value: root, key: null, parent: null }]
  while (stack.length > 0) {
    const node = stack.pop()!
    const problem = check(node.key, node.value, node.parent?.key ?? null)
    if (problem) return { segments: segmentsOf(node), problem }
    const current = node.value
    if (current === null || typeof current !== 'object') continue
    const children: [Segment, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [index, item])
      : Object.entries(current)
    for (let index = children.length - 1; index >= 0; index--)
      stack.push({ value: children[index]![1], key: children[index]![0], parent: node })
  }
  return null
}

// PostgreSQL's text and jsonb hold no U+0000, and jsonb refuses an unpaired surrogate ("\ud800"):
// either would fail the query with a 500 instead of the 400 the input deserves.
const NUL = /\u0000/ // eslint-disable-line no-control-regex -- U+0000 is exactly what is refused
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

function textProblem(text: string): string | null {
  if (NUL.test(text)) return 'must not contain the character U+0000'
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired surrogate (text that is not valid Unicode)'
  return null
}

/**
 * The first string of a parsed JSON value, key or value, that PostgreSQL cannot store, or null.
 * A bad key is reported as its own path with "(the field name)" in the problem.
 * @example unstorableText({ items: [{ comment: 'a\u0000' }] }) // { segments: ['items', 0, 'comment'], problem: 'must not contain the character U+0000' }
 */
export function unstorableText(value: unknown): Finding | null {
  return findInJson(value, (key, item) => {
    const inKey = typeof key === 'string' ? textProblem(key) : null
    if (inKey) return `the field name ${inKey}`
    return typeof item === 'string' ? textProblem(item) : null
  })
}
