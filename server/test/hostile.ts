import fc from 'fast-check'
import type { Database } from '../src/storage/database'
import { bodyPath } from '../src/routes/jsonBody'
import type { Segment } from '../src/domain/storableText'

/**
 * Generators of hostile request bodies for the property suites: a valid body with one thing
 * broken (so the field the 400 must name is known), and bodies of any shape at all.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** What a field of a route's body accepts, as its JSON schema says. */
export type FieldRule =
  | { kind: 'string'; min: number; max: number; nullable?: boolean }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'enum'; values: string[]; nullable?: boolean }
  | { kind: 'array'; min: number; max: number }
  /** any value of this JSON type (null too, where the field is nullable): refused by another type */
  | { kind: 'typed'; type: 'string' | 'number' | 'boolean' }

export interface Field {
  path: Segment[]
  rule: FieldRule
  required: boolean
}

/** A body to send and, when it is broken by construction, the field the 400 must name. */
export interface HostileCase {
  body: Json
  /** `items[0].quantity`; null when the body may be valid or its fault has no one field */
  names: string | null
  what: string
}

/** Texts that have broken parsers, databases and pages before. */
export const nastyText = fc.constantFrom(
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE returns; --",
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  'javascript:alert(1)',
  '\u202e\u200b\ufeff',
  'ﷺ𒐫🏳️‍🌈',
  '#1001',
  'jane@example.com',
)

/** Text PostgreSQL cannot store: U+0000 and unpaired surrogates. */
export const unstorable = fc.oneof(
  fc.string({ maxLength: 10 }).map((text) => `${text}\u0000`),
  fc.constantFrom('\ud800', 'a\udfffb', '\udbff', '\u0000'),
)

export const anyJson: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.string({ unit: 'binary', maxLength: 30 }),
  nastyText,
  fc.constantFrom<Json>(1e308, -1, 0, 1.5, 2 ** 53, true, false, null, [], {}, [[[[[]]]]], { items: null }),
)

const NOT_STRING: fc.Arbitrary<Json> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant<Json>([]),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
)

/** A value the rule refuses, whatever else the body holds. */
function refused(rule: FieldRule): fc.Arbitrary<Json> {
  const orNull = (nullable?: boolean) => (nullable ? NOT_STRING : fc.oneof(NOT_STRING, fc.constant(null)))
  switch (rule.kind) {
    case 'string':
      return fc.oneof(
        orNull(rule.nullable),
        unstorable,
        fc.integer({ min: rule.max + 1, max: rule.max + 3000 }).map((length) => 'x'.repeat(length)),
        ...(rule.min > 0 ? [fc.constant('')] : []),
      )
    case 'integer':
      return fc.oneof(
        fc.integer({ max: rule.min - 1 }),
        fc.integer({ min: rule.max + 1 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
        fc.string({ maxLength: 5 }),
        fc.boolean(),
        fc.constant(null),
        fc.constant<Json>([1]),
      )
    case 'enum':
      return fc.oneof(
        orNull(rule.nullable),
        fc.string({ maxLength: 20 }).filter((text) => !rule.values.includes(text)),
        unstorable,
      )
    case 'array':
      return fc.oneof(
        fc.string(),
        fc.integer(),
        fc.constant(null),
        fc.constant<Json>({}),
        ...(rule.min > 0 ? [fc.constant<Json>([])] : []),
      )
    case 'typed': {
      const others: fc.Arbitrary<Json>[] = [fc.constant<Json>([]), fc.constant({ value: 1 })]
      if (rule.type !== 'string') others.push(fc.string({ maxLength: 10 }))
      if (rule.type !== 'number') others.push(fc.integer())
      if (rule.type !== 'boolean') others.push(fc.boolean())
      return fc.oneof(...others, ...(rule.type === 'string' ? [unstorable] : []))
    }
  }
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

function at(body: Json, path: readonly Segment[]): Record<string | number, Json> {
  let value: Json = body
  for (const segment of path) value = (value as Record<string | number, Json>)[segment]!
  return value as Record<string | number, Json>
}

/** Sets `key` as an own field, "__proto__" included (an assignment would set the prototype). */
function setField(target: Record<string | number, Json>, key: Segment, value: Json) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** The objects of a body, by path: where an unknown or polluting key can be put. */
function objectPaths(body: Json, path: Segment[] = []): Segment[][] {
  if (body === null || typeof body !== 'object') return []
  const children = Array.isArray(body)
    ? body.map((item, index) => objectPaths(item, [...path, index]))
    : Object.entries(body).map(([key, item]) => objectPaths(item, [...path, key]))
  return [...(Array.isArray(body) ? [] : [path]), ...children.flat()]
}

const fieldName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/)

/**
 * A valid body with exactly one fault: a refused value, a required field removed, an unknown
 * field, or a key that could pollute a prototype. Each names the field the answer must name.
 */
export function brokenBody(valid: Json, fields: Field[]): fc.Arbitrary<HostileCase> {
  const known = new Set(fields.map((field) => String(field.path.at(-1))))
  const objects = objectPaths(valid)
  const wrongValue = fc.constantFrom(...fields).chain((field) =>
    refused(field.rule).map((value) => {
      const body = clone(valid)
      setField(at(body, field.path.slice(0, -1)), field.path.at(-1)!, value)
      return { body, names: bodyPath(field.path), what: `refused value at ${bodyPath(field.path)}` }
    }),
  )
  const missing = fc.constantFrom(...fields.filter((field) => field.required)).map((field) => {
    const body = clone(valid)
    delete at(body, field.path.slice(0, -1))[field.path.at(-1)!]
    return { body, names: bodyPath(field.path), what: `no ${bodyPath(field.path)}` }
  })
  const unknown = fc
    .tuple(
      fc.constantFrom(...objects),
      fieldName.filter((name) => !known.has(name)),
      anyJson,
    )
    .map(([path, name, value]) => {
      const body = clone(valid)
      setField(at(body, path), name, value)
      return { body, names: bodyPath([...path, name]), what: `unknown field ${bodyPath([...path, name])}` }
    })
  const polluting = fc
    .tuple(fc.constantFrom(...objects), fc.constantFrom('__proto__', 'constructor'))
    .map(([path, key]) => {
      const body = clone(valid)
      setField(at(body, path), key, key === '__proto__' ? { polluted: true } : { prototype: { polluted: true } })
      const segments = key === '__proto__' ? [...path, key] : [...path, key, 'prototype']
      return { body, names: bodyPath(segments), what: `polluting key ${bodyPath(segments)}` }
    })
  return fc.oneof({ arbitrary: wrongValue, weight: 4 }, missing, unknown, polluting)
}

/** Content types other than JSON, and what may come with them. */
export const foreignContentType = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'text/html',
    'application/jsonx',
    'json',
    '*/*',
  ),
  fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,20}$/).filter((type) => !type.startsWith('application/json')),
)

/** "field: what is wrong", the form of every 400 about a malformed request. */
export const NAMES_A_FIELD =
  /^(body|content-type|idempotency-key|[A-Za-z_][\w-]*|\[".*?"\])(\[\d+\]|\.[A-Za-z_]\w*|\[".*?"\])*: \S/

/** A digest of every row of every table: equal digests, unchanged database. */
export async function databaseDigest(db: Database): Promise<string> {
  const table = (name: string, order: string) =>
    `(SELECT COALESCE(md5(string_agg(t::text, '|' ORDER BY ${order})), '') FROM ${name} t)`
  const [row] = await db.query<{ digest: string }>(
    `SELECT ${table('shops', 't.id')} || ${table('orders', 't.id')} || ${table('returns', 't.id')} || ${table('return_items', 't.return_id, t.line_item_id')} AS digest`,
  )
  return row!.digest
}
