/**
 * Breaking a stored value on purpose: a test that checks what a reader refuses sets a field to
 * what its type forbids, or removes one it requires, by the field's path.
 */
type Segment = string | number
type Node = Record<Segment, unknown>

const parentOf = (value: object, path: Segment[]) =>
  path.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, value as Node)

/** Sets the field at `path` to `to`, whatever its type says. */
export function set(value: object, path: Segment[], to: unknown): void {
  parentOf(value, path)[path.at(-1)!] = to
}

/** Removes the field at `path`. */
export function drop(value: object, path: Segment[]): void {
  delete parentOf(value, path)[path.at(-1)!]
}
