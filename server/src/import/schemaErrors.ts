/**
 * A schema compiled by Ajv (every error, not just the first) into a check whose errors are lines a
 * person can act on: the path of the bad field, then the schema's own words (`errorMessage`) or
 * plain ones for Ajv's keyword ("must be a whole number", "must have at most 5 entries").
 *
 * A union (`anyOf`, as TypeBox writes a list of literals, or a number or null) is one line: the
 * errors of the one branch the value is of the kind of, else the union's words.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import Ajv, { type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import { errorLine, formatPath, plural, type Segment } from './errorLines'

export type SchemaCheck<T> = (input: unknown) => { ok: true; value: T } | { ok: false; errors: string[] }

/**
 * The schema's check. Its `errorMessage` annotations replace Ajv's words for their node; a field
 * it does not list "is not a field of" `format` (the shop file's, or another the schema is of).
 */
export function schemaCheck<T extends TSchema>(schema: T, format = 'the shop file format'): SchemaCheck<Static<T>> {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true })
  addFormats(ajv, ['email'])
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' })
  const validate = ajv.compile<Static<T>>(schema)
  return (input) => {
    if (validate(input)) return { ok: true, value: input }
    const errors: string[] = []
    for (const node of errorTree(validate.errors ?? [])) addLines(node, input, format, errors)
    return { ok: false, errors }
  }
}

/** An error, and for a union the errors of its branches. */
interface ErrorNode {
  error: ErrorObject
  branches: readonly ErrorNode[]
}

const NO_BRANCHES: readonly ErrorNode[] = []

/** `path` is `base` or below it (JSON pointers). */
const isUnder = (path: string, base: string) =>
  path.startsWith(base) && (path.length === base.length || path[base.length] === '/')

/** An error of the union's branches: deeper in its schema, at its value or below. */
const within = (inner: ErrorObject, union: ErrorObject) =>
  inner.schemaPath.length > union.schemaPath.length &&
  isUnder(inner.schemaPath, union.schemaPath) &&
  isUnder(inner.instancePath, union.instancePath)

/** Ajv lists a union's branch errors just before the union's own: one pass gathers them under it. */
function errorTree(errors: readonly ErrorObject[]): ErrorNode[] {
  const nodes: ErrorNode[] = []
  for (const error of errors) {
    let start = nodes.length
    if (error.keyword === 'anyOf') while (start > 0 && within(nodes[start - 1]!.error, error)) start--
    nodes.push({ error, branches: start < nodes.length ? nodes.splice(start) : NO_BRANCHES })
  }
  return nodes
}

/** Keywords that say the value is not of a branch's kind at all (rather than a bad one of its kind). */
const KIND_KEYWORDS: ReadonlySet<string> = new Set(['type', 'const', 'enum', 'anyOf'])

/** The branch of a union an error of it comes from: "0" for `…/anyOf/0/type`. */
function branchOf(branch: ErrorObject, union: ErrorObject): string {
  const from = union.schemaPath.length + 1
  const to = branch.schemaPath.indexOf('/', from)
  return branch.schemaPath.slice(from, to === -1 ? undefined : to)
}

function addLines({ error, branches }: ErrorNode, input: unknown, format: string, out: string[]): void {
  if (error.keyword !== 'anyOf') {
    out.push(describe(error, input, format))
    return
  }
  // When the value is of the kind of exactly one branch, that branch's errors say best what is wrong.
  const notOfKind = new Map<string, boolean>()
  for (const { error: inner } of branches) {
    const wrongKind = inner.instancePath === error.instancePath && KIND_KEYWORDS.has(inner.keyword)
    const branch = branchOf(inner, error)
    notOfKind.set(branch, wrongKind || notOfKind.get(branch) === true)
  }
  const fitting = [...notOfKind].filter(([, wrongKind]) => !wrongKind)
  if (fitting.length === 1) {
    const [branch] = fitting[0]!
    for (const node of branches) if (branchOf(node.error, error) === branch) addLines(node, input, format, out)
    return
  }
  const schema = error.parentSchema as { errorMessage?: string; anyOf?: { type?: unknown }[] } | undefined
  const types = [...new Set((schema?.anyOf ?? []).flatMap((branch) => branch.type ?? []))]
  out.push(errorLine(pointerSegments(error.instancePath, input), schema?.errorMessage ?? `must be ${typeWords(types)}`))
}

/** Turns Ajv's JSON pointer into segments, using the data to tell array indexes from keys. */
function pointerSegments(pointer: string, data: unknown): Segment[] {
  if (!pointer) return []
  const segments: Segment[] = []
  let node: unknown = data
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      segments.push(Number(key))
      node = node[Number(key)]
    } else {
      segments.push(key)
      node =
        node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, key)
          ? (node as Record<string, unknown>)[key]
          : undefined
    }
  }
  return segments
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
}

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : [type]
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ')
}

function describe(error: ErrorObject, input: unknown, format: string): string {
  const segments = pointerSegments(error.instancePath, input)
  const params = error.params as Record<string, unknown>
  const custom = (error.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage
  switch (error.keyword) {
    case 'required':
      return errorLine([...segments, String(params.missingProperty)], 'is required')
    case 'additionalProperties': {
      const field = String(params.additionalProperty)
      const hint =
        field === 'shop' && segments.length === 1 && segments[0] === 'config'
          ? ' (the shop is taken from the top-level "shop")'
          : ''
      return `${formatPath([...segments, field])}: is not a field of ${format} (check the spelling)${hint}`
    }
    case 'minLength':
      return errorLine(segments, 'must not be empty')
    case 'maxLength':
      return errorLine(segments, `must be at most ${plural(Number(params.limit), 'character', 'characters')}`)
    case 'minItems':
      return errorLine(segments, `must have at least ${plural(Number(params.limit), 'entry', 'entries')}`)
    case 'maxItems':
    case 'maxProperties':
      return errorLine(segments, `must have at most ${plural(Number(params.limit), 'entry', 'entries')}`)
    case 'uniqueItems':
      return errorLine(
        segments,
        `must not list an entry twice (entries ${String(params.i)} and ${String(params.j)} are the same)`,
      )
  }
  if (typeof custom === 'string') return errorLine(segments, custom)
  switch (error.keyword) {
    case 'type':
      return errorLine(segments, `must be ${typeWords(params.type)}`)
    case 'minimum':
    case 'maximum':
      return errorLine(
        segments,
        `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`,
      )
    default:
      return errorLine(segments, error.message ?? 'is invalid')
  }
}
