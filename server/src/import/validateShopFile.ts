/**
 * Validation of the operator import format (shopFile.ts): a JSON Schema (draft-07, compiled once
 * by ajv) for the shape, then the checks a schema cannot express (ids that must be unique or must
 * exist, currencies, dates, URLs, colours). Every error names the bad field by its path in the
 * file, e.g. `orders[2].line_items[0].price: must be a decimal amount like "25.00"`.
 *
 * The semantic checks run only once the shape is right, so a broken file is reported in at most
 * two rounds: first every shape error, then every semantic error.
 */
import Ajv, { type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import { colord, extend } from 'colord'
import namesPlugin from 'colord/plugins/names'
import {
  PHOTOS_PER_ITEM,
  REFUND_METHODS,
  RETURN_ITEM_STATES,
  type PortalConfig,
  type RefundTiming,
  type ReturnReason,
} from '../../../src/api/contract'
import { REASON_DEPTH } from '../../../src/api/reasonTree'
import { orderNameKey } from '../domain/normalize'
import { unstorableText } from '../storage/storableText'
import { LIMITS } from './limits'
import type {
  CatalogueProductFile,
  CatalogueVariantFile,
  LineItemFile,
  OrderFile,
  ReturnLineFile,
  ShopFile,
  ShopSettings,
  TrackedReturnFile,
} from './shopFile'

extend([namesPlugin])

export type ShopFileValidation = { ok: true; file: ShopFile } | { ok: false; errors: string[] }

export { LIMITS }

// ---------------------------------------------------------------------------------------------
// The schema. `object<T>()` ties each object schema to its TypeScript type: a field missing from
// the schema, a field the type does not have, or a required field not listed as required is a
// compile error, so the schema cannot drift from shopFile.ts.

type Schema = Record<string, unknown>
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T]
type AllListed<T, R extends readonly unknown[]> = [Exclude<RequiredKeys<T>, R[number]>] extends [never]
  ? unknown
  : { missingRequired: Exclude<RequiredKeys<T>, R[number]> }

function object<T>() {
  return <const R extends readonly RequiredKeys<T>[]>(
    properties: { [K in keyof T]-?: Schema },
    required: R & AllListed<T, R>,
  ): Schema => ({
    type: 'object',
    additionalProperties: false,
    required: [...required],
    properties,
  })
}

/** `errorMessage` (an annotation registered below) replaces ajv's words for that schema node. */
const text = (max: number = LIMITS.text): Schema => ({ type: 'string', maxLength: max })
const nonEmpty = (max: number = LIMITS.text): Schema => ({ type: 'string', minLength: 1, maxLength: max })
const nullable = (schema: Schema): Schema => ({ ...schema, type: ['string', 'null'] })
const id: Schema = {
  type: 'string',
  maxLength: LIMITS.id,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]*$',
  errorMessage: 'must be an id of letters, digits, "-", "_", "." or ":" (no spaces or slashes), like "classic-tee-m"',
}
const amount: Schema = {
  type: 'string',
  pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,4})?$',
  errorMessage: 'must be a decimal amount like "25.00"',
}
const taxRate: Schema = {
  type: 'string',
  pattern: '^0(\\.[0-9]{1,6})?$',
  errorMessage: 'must be a decimal rate from 0 up to (not including) 1, like "0.19"',
}
/** ISO 8601 or "now-5d": checked in full by the semantic checks */
const date: Schema = { type: 'string', maxLength: 40 }
const url: Schema = { type: 'string', minLength: 1, maxLength: LIMITS.url }
const email: Schema = {
  type: 'string',
  maxLength: LIMITS.email,
  format: 'email',
  errorMessage: 'must be an e-mail address like "jane@example.com"',
}
const quantity: Schema = {
  type: 'integer',
  minimum: 1,
  maximum: LIMITS.quantity,
  errorMessage: `must be a whole number from 1 to ${LIMITS.quantity}`,
}
const multiplier: Schema = {
  type: ['number', 'null'],
  minimum: 1,
  maximum: 10,
  errorMessage: 'must be null or a number from 1 to 10, like 1.1',
}
const orderPrefix: Schema = {
  type: 'string',
  pattern: '^[A-Z0-9]{1,10}$',
  errorMessage: 'must be 1 to 10 upper-case letters or digits, like "AC"',
}

type ConfigFile = ShopFile['config']
type ConfigVariantFile = NonNullable<ShopFile['config_variants']>[string]

const configProperties = {
  portal_id: nonEmpty(LIMITS.id),
  favicon_src: url,
  document_title_text: text(),
  background_src: url,
  logo_src: url,
  website_url: url,
  start_return_message: text(),
  order_placeholder_text: text(),
  order_tooltip_text: text(),
  start_return_button_message: text(),
  button_color: text(100),
  need_help_message: text(),
  order_prefix: orderPrefix,
  gift_card_value_multiplier: multiplier,
  invalid_order_message: text(),
  order_not_fulfilled_message: text(),
  order_too_old_message: text(),
  order_already_has_return_message: text(),
  default_error_message: text(),
} satisfies { [K in keyof ConfigFile]-?: Schema }

const { portal_id: _portalId, ...configVariantProperties } = configProperties

const variantSchema = object<CatalogueVariantFile>()(
  {
    id,
    title: text(LIMITS.title),
    options: {
      type: 'array',
      maxItems: LIMITS.optionsPerVariant,
      items: object<CatalogueVariantFile['options'][number]>()({ name: nonEmpty(100), value: nonEmpty(100) }, [
        'name',
        'value',
      ]),
    },
    price: amount,
    available: { type: 'boolean' },
    image_src: nullable(url),
  },
  ['id', 'options', 'price'],
)

const productSchema = object<CatalogueProductFile>()(
  {
    id,
    title: nonEmpty(LIMITS.title),
    image_src: nullable(url),
    upsell: { type: 'boolean' },
    exchangeable: { type: 'boolean' },
    variants: { type: 'array', minItems: 1, maxItems: LIMITS.variantsPerProduct, items: variantSchema },
  },
  ['id', 'title', 'variants'],
)

const lineItemSchema = object<LineItemFile>()(
  {
    id,
    variant_id: nullable(id),
    title: nonEmpty(LIMITS.title),
    variant_title: nullable(text(LIMITS.title)),
    product_src: nullable(url),
    quantity,
    price: amount,
    tax_rate: taxRate,
    final_sale: { type: 'boolean' },
    exchange_variant_id: nullable(id),
  },
  ['id', 'variant_id', 'quantity', 'price', 'tax_rate'],
)

const returnLineSchema = object<ReturnLineFile>()({ line_item_id: id, quantity }, ['line_item_id', 'quantity'])

const refundMethod: Schema = {
  type: ['string', 'null'],
  enum: [...REFUND_METHODS, null],
  errorMessage: `must be null or one of ${REFUND_METHODS.map((m) => `"${m}"`).join(', ')}`,
}
const LATER_STATES = RETURN_ITEM_STATES.filter((state) => state !== 'requested')

const trackedReturnSchema = object<TrackedReturnFile>()(
  {
    created_at: date,
    refund_method: refundMethod,
    items: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.lineItemsPerOrder,
      items: object<TrackedReturnFile['items'][number]>()(
        { line_item_id: id, quantity, reason_id: nonEmpty(64), comment: text(), exchange_variant_id: nullable(id) },
        ['line_item_id', 'quantity', 'reason_id'],
      ),
    },
    progress: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(LATER_STATES.map((state) => [state, date])),
    },
  },
  ['created_at', 'items'],
)

const orderSchema = object<OrderFile>()(
  {
    name: nonEmpty(64),
    email,
    processed_at: date,
    fulfilled_at: nullable(date),
    discount: amount,
    line_items: { type: 'array', minItems: 1, maxItems: LIMITS.lineItemsPerOrder, items: lineItemSchema },
    returns: {
      type: 'array',
      maxItems: LIMITS.returnsPerOrder,
      items: { type: 'array', minItems: 1, maxItems: LIMITS.lineItemsPerOrder, items: returnLineSchema },
    },
    tracked_returns: { type: 'array', maxItems: LIMITS.returnsPerOrder, items: trackedReturnSchema },
  },
  ['name', 'email', 'processed_at', 'fulfilled_at', 'line_items'],
)

type ReasonFile = ShopFile['return_reasons'][number]

/**
 * A reason and, down to REASON_DEPTH levels, its sub-reasons. Written out level by level rather
 * than as a recursive $ref, so a hostile file nested a thousand deep is one error, not a deep walk.
 */
function reasonSchema(level: number): Schema {
  return object<ReasonFile>()(
    {
      id: {
        type: 'string',
        maxLength: 64,
        pattern: '^[a-z0-9][a-z0-9_-]*$',
        errorMessage: 'must be a lower-case id of letters, digits, "_" or "-", like "too_small"',
      },
      label: nonEmpty(LIMITS.title),
      comment_required: { type: 'boolean' },
      fit: { type: 'string', enum: ['too_small', 'too_large'], errorMessage: 'must be "too_small" or "too_large"' },
      photos_required: {
        type: 'integer',
        minimum: 1,
        maximum: PHOTOS_PER_ITEM,
        errorMessage: `must be a whole number of photos from 1 to ${PHOTOS_PER_ITEM} (leave it out when no photo is needed)`,
      },
      children:
        level < REASON_DEPTH
          ? { type: 'array', minItems: 1, maxItems: LIMITS.returnReasons, items: reasonSchema(level + 1) }
          : {
              not: {},
              errorMessage: `reasons nest at most ${REASON_DEPTH} levels deep: this sub-reason cannot have sub-reasons of its own`,
            },
    },
    ['id', 'label', 'comment_required'],
  )
}

const refundDays: Schema = {
  type: 'integer',
  minimum: 0,
  maximum: LIMITS.refundDays,
  errorMessage: `must be a whole number of days from 0 to ${LIMITS.refundDays}`,
}
const refundTimingSchema = object<RefundTiming>()(
  {
    from_days: refundDays,
    to_days: refundDays,
    business_days: { type: 'boolean' },
    after: {
      type: 'string',
      enum: ['submit', 'receipt'],
      errorMessage: 'must be "submit" (counted from the return\'s submission) or "receipt" (from the items\' arrival)',
    },
  },
  ['from_days', 'to_days', 'business_days', 'after'],
)

const settingsSchema = object<ShopSettings>()(
  {
    return_window_days: {
      type: 'integer',
      minimum: 0,
      maximum: LIMITS.returnWindowDays,
      errorMessage: `must be a whole number of days from 0 to ${LIMITS.returnWindowDays}`,
    },
    return_fee: amount,
    prices_include_tax: { type: 'boolean' },
    upsell_enabled: { type: 'boolean' },
    keep_item_below: amount,
    refund_timing: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(REFUND_METHODS.map((method) => [method, refundTimingSchema])),
    },
  },
  ['return_window_days', 'return_fee', 'prices_include_tax', 'upsell_enabled'],
)

const shopFileSchema: Schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://rebound.example/schemas/shop-file.json',
  title: 'Rebound shop file',
  ...object<ShopFile>()(
    {
      shop: { type: 'string', minLength: 1, maxLength: 63 },
      currency_code: {
        type: 'string',
        pattern: '^[A-Z]{3}$',
        errorMessage: 'must be an ISO 4217 currency code like "EUR"',
      },
      settings: settingsSchema,
      config: object<ConfigFile>()(configProperties, ['portal_id']),
      config_variants: {
        type: 'object',
        maxProperties: LIMITS.languages,
        additionalProperties: object<ConfigVariantFile>()(configVariantProperties, []),
      },
      return_reasons: { type: 'array', minItems: 1, maxItems: LIMITS.returnReasons, items: reasonSchema(1) },
      return_reason_variants: {
        type: 'object',
        maxProperties: LIMITS.languages,
        additionalProperties: {
          type: 'object',
          maxProperties: LIMITS.reasonsInAll,
          additionalProperties: nonEmpty(LIMITS.title),
        },
      },
      return_address: object<ShopFile['return_address']>()(
        {
          name: nonEmpty(200),
          line1: nonEmpty(200),
          line2: text(200),
          city: nonEmpty(200),
          postal_code: nonEmpty(20),
          country_code: {
            type: 'string',
            pattern: '^[A-Z]{2}$',
            errorMessage: 'must be an ISO 3166 country code like "DE"',
          },
        },
        ['name', 'line1', 'city', 'postal_code', 'country_code'],
      ),
      catalogue: { type: 'array', maxItems: LIMITS.products, items: productSchema },
      orders: { type: 'array', maxItems: LIMITS.orders, items: orderSchema },
    },
    ['shop', 'currency_code', 'settings', 'config', 'return_reasons', 'return_address', 'catalogue', 'orders'],
  ),
}

/** The JSON Schema of the import format (draft-07), e.g. for editors. */
export const SHOP_FILE_SCHEMA: Readonly<Schema> = shopFileSchema

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true })
addFormats(ajv, ['email'])
ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' })
const validateSchema = ajv.compile(shopFileSchema)

// ---------------------------------------------------------------------------------------------
// Paths and messages

type Segment = string | number

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

/** Turns ajv's JSON pointer into segments, using the data to tell array indexes from keys. */
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

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

function describe(error: ErrorObject, input: unknown): string {
  const segments = pointerSegments(error.instancePath, input)
  const params = error.params as Record<string, unknown>
  const custom = (error.parentSchema as Schema | undefined)?.errorMessage
  switch (error.keyword) {
    case 'required':
      return `${formatPath([...segments, String(params.missingProperty)])}: is required`
    case 'additionalProperties': {
      const field = String(params.additionalProperty)
      const hint =
        field === 'shop' && segments.length === 1 && segments[0] === 'config'
          ? ' (the shop is taken from the top-level "shop")'
          : ''
      return `${formatPath([...segments, field])}: is not a field of the shop file format (check the spelling)${hint}`
    }
    case 'minLength':
      return `${formatPath(segments)}: must not be empty`
    case 'maxLength':
      return `${formatPath(segments)}: must be at most ${plural(Number(params.limit), 'character', 'characters')}`
    case 'minItems':
      return `${formatPath(segments)}: must have at least ${plural(Number(params.limit), 'entry', 'entries')}`
    case 'maxItems':
      return `${formatPath(segments)}: must have at most ${plural(Number(params.limit), 'entry', 'entries')}`
    case 'maxProperties':
      return `${formatPath(segments)}: must have at most ${plural(Number(params.limit), 'entry', 'entries')}`
  }
  if (typeof custom === 'string') return `${formatPath(segments)}: ${custom}`
  switch (error.keyword) {
    case 'type':
      return `${formatPath(segments)}: must be ${typeWords(params.type)}`
    case 'minimum':
    case 'maximum':
      return `${formatPath(segments)}: must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`
    default:
      return `${formatPath(segments)}: ${error.message ?? 'is invalid'}`
  }
}

// ---------------------------------------------------------------------------------------------
// Dates

const RELATIVE_DATE = /^now(?:([+-])([0-9]{1,6})([dhm]))?$/
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2})))?$/
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const

function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1) return false
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false
  return !Number.isNaN(Date.parse(value))
}

export function isShopFileDate(value: string): boolean {
  return RELATIVE_DATE.test(value) || isIsoDate(value)
}

/**
 * The instants a shop file's dates may resolve to: 1970-01-01 up to the end of 9999, in UTC.
 * JavaScript reads far more (the year 0000, "now-999999d"), but PostgreSQL refuses the year 0000
 * as JavaScript writes it, and the import would fail midway with an error naming no field (a 500
 * over HTTP) instead of being refused here by name. Four-digit years keep the ISO strings the
 * portal answers with in their usual form, and no order or return of an online shop predates 1970.
 */
const SHOP_FILE_DATES = { from: Date.UTC(1970, 0, 1), until: Date.UTC(10_000, 0, 1) } as const
const DATE_RANGE_MESSAGE = 'must be a date from 1970-01-01 to 9999-12-31 (UTC)'

function inShopFileDates(date: Date): boolean {
  const time = date.getTime()
  return time >= SHOP_FILE_DATES.from && time < SHOP_FILE_DATES.until
}

/**
 * A date of the import format: an ISO 8601 timestamp ("2026-03-01T10:00:00Z", or a date
 * "2026-03-01" meaning midnight UTC), or a time relative to `now`: "now", "now-5d", "now-12h",
 * "now+30m" (units d, h, m). Throws on anything else (validateShopFile reports those first).
 */
export function resolveDate(value: string, now: Date): Date {
  const relative = RELATIVE_DATE.exec(value)
  if (relative) {
    const [, sign, count, unit] = relative
    if (!sign || !count || !unit) return new Date(now.getTime())
    const offset = Number(count) * UNIT_MS[unit as keyof typeof UNIT_MS]
    return new Date(now.getTime() + (sign === '-' ? -offset : offset))
  }
  if (isIsoDate(value)) return new Date(value)
  throw new Error(`not a date of the shop file format: ${JSON.stringify(value)}`)
}

// ---------------------------------------------------------------------------------------------
// Semantic checks

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))

function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

/** Names that would collide with Object.prototype where ids become object keys (exchange_data.options). */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  '__proto__',
  'prototype',
])

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const LANGUAGE = /^[a-z]{2}$/

/** The key orders are stored and matched by: names equal under it collide in the database. */
export function normaliseOrderName(name: string): string {
  return orderNameKey(name)
}

function isUrlOrPath(value: string): boolean {
  if (/[\s\\]/.test(value)) return false
  if (value.startsWith('/')) return !value.startsWith('//')
  try {
    const parsed = new URL(value)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
  } catch {
    return false
  }
}

/** An amount with a string's decimal digits, in minor units (exact up to 12 integer digits). */
function toMinor(value: string, digits: number): number {
  const [whole = '0', fraction = ''] = value.split('.')
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0').slice(0, digits) || '0')
}

function semanticErrors(file: ShopFile, now: Date): string[] {
  const errors: string[] = []
  const fail = (segments: Segment[], message: string) => errors.push(`${formatPath(segments)}: ${message}`)

  // shop and currency
  if (!DNS_LABEL.test(file.shop)) {
    fail(
      ['shop'],
      'must be a lower-case DNS label: 1 to 63 letters, digits or "-", not starting or ending with "-", like "acme"',
    )
  } else if (/-[a-z]{2}$/.test(file.shop)) {
    fail(['shop'], 'must not end in "-" and two letters: that is how language variants are addressed ("acme-de")')
  }
  const currencyKnown = CURRENCIES.has(file.currency_code)
  if (!currencyKnown) fail(['currency_code'], `"${file.currency_code}" is not an ISO 4217 currency code`)
  const digits = currencyKnown ? minorDigits(file.currency_code) : 2

  const checkAmount = (segments: Segment[], value: string) => {
    const fraction = value.split('.')[1] ?? ''
    if (fraction.length > digits) {
      fail(
        segments,
        digits === 0
          ? `must be a whole amount in ${file.currency_code}, like "25"`
          : `must have at most ${plural(digits, 'decimal place', 'decimal places')} in ${file.currency_code}, like "${(25).toFixed(digits)}"`,
      )
    }
  }
  const checkUrl = (segments: Segment[], value: string | null | undefined) => {
    if (typeof value === 'string' && !isUrlOrPath(value)) {
      fail(segments, 'must be an http(s) URL or an absolute path like "/demo-assets/logo.svg"')
    }
  }
  const checkId = (segments: Segment[], value: string) => {
    if (RESERVED_KEYS.has(value)) fail(segments, `"${value}" is a reserved name; choose another id`)
  }
  // Relative dates are resolved against the import's own `now`: the range is checked on what is stored.
  const checkDate = (segments: Segment[], value: string): boolean => {
    if (!isShopFileDate(value)) {
      fail(
        segments,
        'must be an ISO 8601 date like "2026-03-01T10:00:00Z" or a relative time like "now", "now-5d", "now-12h" (units d, h, m)',
      )
      return false
    }
    if (!inShopFileDates(resolveDate(value, now))) {
      fail(segments, DATE_RANGE_MESSAGE)
      return false
    }
    return true
  }

  checkAmount(['settings', 'return_fee'], file.settings.return_fee)
  if (file.settings.keep_item_below !== undefined)
    checkAmount(['settings', 'keep_item_below'], file.settings.keep_item_below)
  for (const method of REFUND_METHODS) {
    const timing = file.settings.refund_timing?.[method]
    if (timing && timing.to_days < timing.from_days)
      fail(['settings', 'refund_timing', method, 'to_days'], 'must not be less than from_days')
  }

  // configuration and its language variants
  const checkConfig = (base: Segment[], config: Partial<ConfigFile>) => {
    for (const field of ['favicon_src', 'background_src', 'logo_src', 'website_url'] as const)
      checkUrl([...base, field], config[field])
    const color = config.button_color
    if (color !== undefined && (color !== color.trim() || !colord(color).isValid())) {
      fail([...base, 'button_color'], 'must be a CSS colour like "#1f5fbf", "rgb(31 95 191)" or "navy"')
    }
  }
  checkConfig(['config'], file.config)
  for (const [language, variant] of Object.entries(file.config_variants ?? {})) {
    if (!LANGUAGE.test(language))
      fail(['config_variants', language], 'must be keyed by a 2-letter lower-case language code like "de"')
    else checkConfig(['config_variants', language], variant)
  }

  // return reasons: ids unique across the whole tree (a shopper's choice names one leaf)
  const reasonIds = new Set<string>()
  const checkReasons = (reasons: ReturnReason[], base: Segment[]) =>
    reasons.forEach((reason, i) => {
      const at = [...base, i]
      checkId([...at, 'id'], reason.id)
      if (reasonIds.has(reason.id))
        fail(
          [...at, 'id'],
          `"${reason.id}" is used by another return reason (ids are unique across reasons and sub-reasons)`,
        )
      reasonIds.add(reason.id)
      if (!reason.children) return
      // A reason with sub-reasons is never chosen itself: what it would ask belongs on its sub-reasons.
      if (reason.comment_required)
        fail(
          [...at, 'comment_required'],
          'must be false on a reason with sub-reasons; require the comment on its sub-reasons',
        )
      if (reason.photos_required !== undefined)
        fail([...at, 'photos_required'], 'is only for a reason without sub-reasons; set it on its sub-reasons')
      if (reason.fit !== undefined)
        fail([...at, 'fit'], 'is only for a reason without sub-reasons; set it on its sub-reasons')
      checkReasons(reason.children, [...at, 'children'])
    })
  checkReasons(file.return_reasons, ['return_reasons'])
  if (reasonIds.size > LIMITS.reasonsInAll)
    fail(
      ['return_reasons'],
      `must have at most ${LIMITS.reasonsInAll} reasons in all, sub-reasons included (the file has ${reasonIds.size})`,
    )
  for (const [language, labels] of Object.entries(file.return_reason_variants ?? {})) {
    if (!LANGUAGE.test(language)) {
      fail(['return_reason_variants', language], 'must be keyed by a 2-letter lower-case language code like "de"')
      continue
    }
    for (const reasonId of Object.keys(labels)) {
      if (!reasonIds.has(reasonId))
        fail(['return_reason_variants', language, reasonId], 'is not the id of a return reason in return_reasons')
    }
  }

  // catalogue
  const productIds = new Set<string>()
  const variantIds = new Set<string>()
  file.catalogue.forEach((product, p) => {
    checkId(['catalogue', p, 'id'], product.id)
    if (productIds.has(product.id)) fail(['catalogue', p, 'id'], `"${product.id}" is used by another product`)
    productIds.add(product.id)
    checkUrl(['catalogue', p, 'image_src'], product.image_src)
    const optionNames = product.variants[0]?.options.map((o) => o.name).join('\u0000')
    const combinations = new Set<string>()
    product.variants.forEach((variant, v) => {
      const at: Segment[] = ['catalogue', p, 'variants', v]
      checkId([...at, 'id'], variant.id)
      if (variantIds.has(variant.id)) fail([...at, 'id'], `"${variant.id}" is used by another variant of the catalogue`)
      variantIds.add(variant.id)
      checkAmount([...at, 'price'], variant.price)
      checkUrl([...at, 'image_src'], variant.image_src)
      const names = variant.options.map((o) => o.name)
      if (new Set(names).size !== names.length) fail([...at, 'options'], 'names an option twice')
      if (names.join('\u0000') !== optionNames) {
        fail([...at, 'options'], "must name the same options, in the same order, as the product's first variant")
      }
      const combination = variant.options.map((o) => o.value).join('\u0000')
      if (combinations.has(combination)) {
        fail(
          [...at, 'options'],
          'has the same option values as another variant of this product; variants must differ by their options',
        )
      }
      combinations.add(combination)
    })
  })

  // orders
  const prefix = file.config.order_prefix
  const orderNames = new Set<string>()
  file.orders.forEach((order, o) => {
    const at: Segment[] = ['orders', o]
    const name = normaliseOrderName(order.name)
    if (!name) fail([...at, 'name'], 'must contain more than "#" and spaces')
    else if (orderNames.has(name))
      fail(
        [...at, 'name'],
        `"${order.name}" is the same order name as another order (names are matched ignoring "#", case and spaces)`,
      )
    else if (prefix && !name.startsWith(prefix) && !name.startsWith('EXC')) {
      fail(
        [...at, 'name'],
        `must begin with the order prefix "${prefix}" or "EXC": the portal accepts no other order names for this shop`,
      )
    }
    orderNames.add(name)

    const processedOk = checkDate([...at, 'processed_at'], order.processed_at)
    const fulfilledOk = order.fulfilled_at === null || checkDate([...at, 'fulfilled_at'], order.fulfilled_at)
    if (processedOk && fulfilledOk && order.fulfilled_at !== null) {
      if (resolveDate(order.fulfilled_at, now) < resolveDate(order.processed_at, now)) {
        fail([...at, 'fulfilled_at'], 'must not be before processed_at')
      }
    }

    const lineQuantities = new Map<string, number>()
    let subtotal = 0
    order.line_items.forEach((line, l) => {
      const lineAt: Segment[] = [...at, 'line_items', l]
      checkId([...lineAt, 'id'], line.id)
      if (lineQuantities.has(line.id))
        fail([...lineAt, 'id'], `"${line.id}" is used by another line item of this order`)
      else lineQuantities.set(line.id, line.quantity)
      if (line.variant_id === null) {
        if (line.title === undefined) fail([...lineAt, 'title'], 'is required for a custom item (variant_id null)')
      } else if (!variantIds.has(line.variant_id)) {
        fail([...lineAt, 'variant_id'], `"${line.variant_id}" is not a variant id of the catalogue`)
      }
      if (line.exchange_variant_id != null && !variantIds.has(line.exchange_variant_id)) {
        fail([...lineAt, 'exchange_variant_id'], `"${line.exchange_variant_id}" is not a variant id of the catalogue`)
      }
      checkAmount([...lineAt, 'price'], line.price)
      checkUrl([...lineAt, 'product_src'], line.product_src)
      subtotal += toMinor(line.price, digits) * line.quantity
    })

    if (order.discount !== undefined) {
      checkAmount([...at, 'discount'], order.discount)
      if (toMinor(order.discount, digits) > subtotal)
        fail([...at, 'discount'], "must not be more than the order's line items are worth")
    }

    const returned = new Map<string, number>()
    // Plain returns, then tracked ones: both take units from the same lines.
    const allReturns: { entries: ReturnLineFile[]; at: Segment[] }[] = [
      ...(order.returns ?? []).map((entries, r) => ({ entries, at: [...at, 'returns', r] })),
      ...(order.tracked_returns ?? []).map((tracked, r) => {
        trackedReturnErrors(tracked, [...at, 'tracked_returns', r], {
          reasons: file.return_reasons,
          variantIds,
          now,
          checkDate,
          fail,
        })
        return { entries: tracked.items, at: [...at, 'tracked_returns', r, 'items'] }
      }),
    ]
    allReturns.forEach(({ entries, at: returnAt }) => {
      const inThisReturn = new Set<string>()
      entries.forEach((entry, e) => {
        const entryAt: Segment[] = [...returnAt, e]
        if (!lineQuantities.has(entry.line_item_id)) {
          fail([...entryAt, 'line_item_id'], `"${entry.line_item_id}" is not a line item id of this order`)
          return
        }
        // One row per line in a return (the database's key): its units are given once.
        if (inThisReturn.has(entry.line_item_id)) {
          fail(
            [...entryAt, 'line_item_id'],
            `"${entry.line_item_id}" is listed twice in this return; give all its units in one entry`,
          )
          return
        }
        inThisReturn.add(entry.line_item_id)
        const total = (returned.get(entry.line_item_id) ?? 0) + entry.quantity
        returned.set(entry.line_item_id, total)
        const bought = lineQuantities.get(entry.line_item_id) ?? 0
        if (total > bought && total - entry.quantity <= bought) {
          fail(
            [...entryAt, 'quantity'],
            `returns ${total} units of line item "${entry.line_item_id}" in all, but only ${bought} were bought`,
          )
        }
      })
    })
  })

  return errors
}

interface TrackedChecks {
  reasons: ShopFile['return_reasons']
  variantIds: ReadonlySet<string>
  now: Date
  checkDate: (segments: Segment[], value: string) => boolean
  fail: (segments: Segment[], message: string) => void
}

/** A tracked return's reasons, exchanges and dates: its progress comes after it, in order. */
function trackedReturnErrors(
  tracked: TrackedReturnFile,
  at: Segment[],
  { reasons, variantIds, now, checkDate, fail }: TrackedChecks,
) {
  tracked.items.forEach((item, i) => {
    const reason = reasons.find((candidate) => candidate.id === item.reason_id)
    if (!reason)
      fail([...at, 'items', i, 'reason_id'], `"${item.reason_id}" is not the id of a return reason in return_reasons`)
    else if (reason.comment_required && !item.comment?.trim())
      fail([...at, 'items', i, 'comment'], `is required by the reason "${item.reason_id}"`)
    if (item.exchange_variant_id != null && !variantIds.has(item.exchange_variant_id)) {
      fail(
        [...at, 'items', i, 'exchange_variant_id'],
        `"${item.exchange_variant_id}" is not a variant id of the catalogue`,
      )
    }
  })
  // Every date is checked, even after a bad one; their order only when created_at is good.
  let previous = checkDate([...at, 'created_at'], tracked.created_at) ? resolveDate(tracked.created_at, now) : null
  for (const state of RETURN_ITEM_STATES) {
    const value = state === 'requested' ? undefined : tracked.progress?.[state]
    if (value === undefined || !checkDate([...at, 'progress', state], value) || previous === null) continue
    const when = resolveDate(value, now)
    if (when < previous) fail([...at, 'progress', state], 'must not be before created_at or an earlier state')
    else previous = when
  }
}

// ---------------------------------------------------------------------------------------------

/** Rejects absurd sizes before the schema walks them (ajv with allErrors visits every entry). */
function sizeGuard(input: Record<string, unknown>): string | null {
  const orders = input.orders
  if (Array.isArray(orders) && orders.length > LIMITS.orders * 2) {
    return `orders: must have at most ${LIMITS.orders} entries (the file has ${orders.length})`
  }
  const catalogue = input.catalogue
  if (Array.isArray(catalogue) && catalogue.length > LIMITS.products * 2) {
    return `catalogue: must have at most ${LIMITS.products} entries (the file has ${catalogue.length})`
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
  if (unstorable) return { ok: false, errors: [`${formatPath(unstorable.segments)}: ${unstorable.problem}`] }

  if (!validateSchema(input)) {
    return { ok: false, errors: capped((validateSchema.errors ?? []).map((error) => describe(error, input))) }
  }
  const file = input as unknown as ShopFile
  const errors = semanticErrors(file, now)
  return errors.length ? { ok: false, errors: capped(errors) } : { ok: true, file }
}
