/**
 * The kinds of field the shop file is written with, as TypeBox schemas: ids, amounts, dates, texts
 * and URLs with the format's limits, and the helpers its objects are built with. `errorMessage` is
 * an annotation of ours (registered with Ajv in schemaErrors.ts): the words reported when a value
 * does not fit that schema, instead of Ajv's.
 */
import {
  CloneType,
  Type,
  type ObjectOptions,
  type SchemaOptions,
  type Static,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox'
import { LIMITS } from './limits'

/** An object of the file: a field it does not list is an error ("check the spelling"). */
export const Fields = <T extends TProperties>(properties: T, options?: ObjectOptions) =>
  Type.Object(properties, { additionalProperties: false, ...options })

/**
 * A field the Portal API's contract describes, with the file's stricter limits added: the same
 * schema and type, plus the limits (a copy; the contract's schema is left as it is). The contract's
 * own keywords win over a limit of the same name, so a limit can only add.
 */
export const withLimits = <T extends TSchema>(schema: T, limits: SchemaOptions): T => CloneType(schema, limits)

/**
 * The schema, or null: its `type` with "null" added, as one node. (Type.Union would write an anyOf
 * of two schemas, for which Ajv reports three errors instead of one: a file with a bad field on
 * each of its thousands of lines would take twice as long to answer.)
 */
export const OrNull = <T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] })

/**
 * An object keyed by any names (languages, reason ids), each entry of `entry`. Written with
 * additionalProperties: Type.Record's `^(.*)$` pattern would let a name holding a line break
 * through unchecked.
 */
export const Keyed = <T extends TSchema>(entry: T, options: SchemaOptions = {}): TUnsafe<Record<string, Static<T>>> =>
  Type.Unsafe<Record<string, Static<T>>>({ ...options, type: 'object', additionalProperties: entry })

/** A list: `at most` entries, and at least one when `nonEmpty`. */
export const List = <T extends TSchema>(items: T, maxItems: number, nonEmpty = false) =>
  Type.Array(items, nonEmpty ? { minItems: 1, maxItems } : { maxItems })

/** The limits of a text: at most `maxLength` characters, and not empty when `nonEmpty`. */
export const textLimits = (maxLength: number = LIMITS.text, nonEmpty = false): SchemaOptions =>
  nonEmpty ? { minLength: 1, maxLength } : { maxLength }

export const Text = (maxLength: number = LIMITS.text) => Type.String(textLimits(maxLength))
export const NonEmpty = (maxLength: number = LIMITS.text) => Type.String(textLimits(maxLength, true))

/** A URL or an absolute path: checked in full by the semantic checks. */
export const urlLimits: SchemaOptions = { minLength: 1, maxLength: LIMITS.url }
export const Url = Type.String(urlLimits)

export const Id = Type.String({
  maxLength: LIMITS.id,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]*$',
  errorMessage: 'must be an id of letters, digits, "-", "_", "." or ":" (no spaces or slashes), like "classic-tee-m"',
})

/** A decimal amount in the shop's currency; its decimal places are checked against the currency. */
export const Amount = Type.String({
  pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,4})?$',
  errorMessage: 'must be a decimal amount like "25.00"',
})

export const TaxRate = Type.String({
  pattern: '^0(\\.[0-9]{1,6})?$',
  errorMessage: 'must be a decimal rate from 0 up to (not including) 1, like "0.19"',
})

/** ISO 8601 or "now-5d": checked in full by the semantic checks (shopFileDates.ts). */
export const DateText = Type.String({ maxLength: 40 })

export const Email = Type.String({
  maxLength: LIMITS.email,
  format: 'email',
  errorMessage: 'must be an e-mail address like "jane@example.com"',
})

export const Quantity = Type.Integer({
  minimum: 1,
  maximum: LIMITS.quantity,
  errorMessage: `must be a whole number from 1 to ${LIMITS.quantity}`,
})
