import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from '@sinclair/typebox'
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { PortalContext } from '../context'
import { errorResponses } from './errors'

/**
 * The API's Fastify instance: each route's request (body, params, query, headers) and the answers
 * it may send are typed by its TypeBox schemas (contract/api.ts), the same that validate and
 * serialise them.
 */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

/**
 * An answer of bytes (a PDF, a photo): Fastify sends a Buffer as it is, never through the JSON
 * serialiser, so the schema only documents it and types the reply.
 */
export const Bytes = Type.Unsafe<Uint8Array>({ description: 'bytes, sent as they are (not JSON)' })

type Json = Record<string, unknown>
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A schema as the serialiser (fast-json-stringify) writes it fastest, the same JSON out. TypeBox
 * writes a nullable field and a list of words as an `anyOf`, which the serialiser can only decide
 * by running Ajv on the value, for every such field of every answer, after compiling a validator
 * for each on first use (some 200 ms on the first verify). Here such an anyOf of plain types is
 * one JSON Schema type, `["string", "null"]`, which it writes without asking Ajv. A list of words
 * is written as a string: the serialiser never checks the words, the handlers' types do.
 */
function serialisable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serialisable)
  if (!isJson(schema)) return schema
  const { anyOf, ...rest } = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, serialisable(value)]),
  )
  if (!Array.isArray(anyOf)) return anyOf === undefined ? rest : { ...rest, anyOf }
  const branches = anyOf.filter(isJson)
  const plain = branches.length === anyOf.length && branches.every((branch) => typeof branch.type === 'string')
  const values = branches.filter((branch) => branch.type !== 'null')
  const words =
    values.length > 0 && values.every((branch) => branch.const !== undefined && branch.type === values[0]!.type)
  const value = words ? { type: values[0]!.type } : values.length === 1 ? values[0]! : null
  if (!plain || !value || branches.some((branch) => branch.anyOf !== undefined)) return { ...rest, anyOf }
  return { ...rest, ...value, type: values.length < branches.length ? [value.type, 'null'] : value.type }
}

/**
 * A route's answers: the given schemas by status (made serialisable as above; their types stay
 * the contract's), and the error answer for every 4xx and 5xx.
 */
export function replies<T extends Record<number, TSchema>>(schemas: T): T & typeof errorResponses {
  const serialised = Object.fromEntries(
    Object.entries(schemas).map(([status, schema]) => [status, serialisable(schema)]),
  )
  return { ...(serialised as T), ...errorResponses }
}

/** What a module of routes is registered with (app.ts): the context it serves from. */
export interface RoutesOptions {
  context: PortalContext
}

/**
 * A module of routes as a Fastify plugin, registered with its prefix
 * (`app.register(module, { context, prefix: '/admin/api' })`): its paths are written under the
 * prefix, and its hooks, parsers and decorators stay its own.
 */
export function routes<Options extends object = Record<never, never>>(
  add: (app: Api, context: PortalContext, options: Options) => void | Promise<void>,
): FastifyPluginAsyncTypebox<RoutesOptions & Options> {
  return async (app, options) => {
    await add(app, options.context, options)
  }
}
