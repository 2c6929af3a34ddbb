import type { FastifyInstance } from 'fastify'
import { findInJson, unstorableText, type Segment } from '../domain/storableText'

/** `items[0].comment`, `config_variants["de-AT"]`: a body's field as the error messages name it. */
export function bodyPath(segments: readonly Segment[]): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    // Quoted unless a plain name, and cut short: the name is the sender's, the message ours.
    else if (segment.length > 64) out += `[${JSON.stringify(`${segment.slice(0, 64)}…`)}]`
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out ? `.${segment}` : segment
    else out += `[${JSON.stringify(segment)}]`
  }
  return out || 'body'
}

// Keys that reach an object's prototype when a body is copied with Object.assign or a deep merge.
const pollutingKey = (value: unknown) =>
  findInJson(value, (key, _item, parentKey) =>
    key === '__proto__' || (key === 'prototype' && parentKey === 'constructor') ? 'is not an allowed field name' : null,
  )

/** What only a walk over the parsed value can judge: a surrogate, the polluting names. */
const MAY_NEED_WALK = /[\ud800-\udfff]|__proto__|prototype/

export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string }

/**
 * A JSON request body, parsed and checked before any route sees it: a syntax error, a key that
 * could pollute a prototype, or text PostgreSQL cannot store is a message naming the field.
 */
export function parseJsonBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: false, message: 'body: is empty; send a JSON object' }
  let value: unknown
  try {
    // JSON.parse keeps "__proto__" as an own key (no pollution here); it is refused below.
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, message: `body: is not valid JSON (${(error as Error).message})` }
  }
  // Without a backslash the text has no escapes, so it cannot hold U+0000 (JSON allows it only
  // escaped), and an unpaired surrogate or a polluting key would be there as written. Most bodies
  // are such, and skip both walks over the parsed value.
  if (!text.includes('\\') && !MAY_NEED_WALK.test(text)) return { ok: true, value }
  const polluting = pollutingKey(value)
  if (polluting) return { ok: false, message: `${bodyPath(polluting.segments)}: ${polluting.problem}` }
  const unstorable = unstorableText(value)
  if (unstorable) return { ok: false, message: `${bodyPath(unstorable.segments)}: ${unstorable.problem}` }
  return { ok: true, value }
}

/**
 * JSON is the only body the API reads: any other content type is a 415, and a JSON body goes
 * through parseJsonBody (a 400 naming the field) instead of Fastify's parser, whose one message
 * "Body is not valid JSON" also covered a refused "__proto__".
 */
export function registerJsonBodies(app: FastifyInstance) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const parsed = parseJsonBody(body as string)
    if (parsed.ok) done(null, parsed.value)
    else done(Object.assign(new Error(parsed.message), { statusCode: 400 }), undefined)
  })
}

/**
 * A query string's values and a path's parameters are held to the rule bodies are: text that
 * PostgreSQL cannot store (U+0000, an unpaired surrogate) is a 400 naming the parameter, before
 * any route or query sees it, instead of a database error.
 */
export function registerStorableParameters(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const found = unstorableText(request.params) ?? unstorableText(request.query)
    if (found) done(Object.assign(new Error(`${bodyPath(found.segments)}: ${found.problem}`), { statusCode: 400 }))
    else done()
  })
}
