/**
 * The Orders API's bodies that are parts of the shop file (docs/api.md: Orders API): an order as
 * in its `orders[]`, a product as in its `catalogue[]`. They are checked by the file's schema and
 * its checks, in the same words, each error naming its field from the body
 * (`line_items[0].price: must be a decimal amount like "25.00"`), in two steps as the file is:
 * first the shape (`checkOrderBody`, `checkProductBody`), then what the shop it goes to decides
 * (`orderErrors`, `productErrors`: its currency, order prefix and catalogue).
 *
 * What the file takes and the API does not: an order's `returns` and `tracked_returns` (a
 * platform does not push the returns made in Rebound; the file's are for orders imported with the
 * returns they had before), and relative dates ("now-5d", for demo files).
 */
import { Type, type Static } from '@sinclair/typebox'
import { minorDigits } from '../../../contract/money'
import { unstorableText } from '../domain/storableText'
import { orderNameKey } from '../domain/normalize'
import { checkProduct } from './catalogueChecks'
import { errorLine } from './errorLines'
import { fieldChecks, isCurrency } from './fieldChecks'
import { LIMITS } from './limits'
import { checkOrder } from './orderChecks'
import { schemaCheck } from './schemaErrors'
import { isIsoDate, isShopFileDate } from './shopFileDates'
import { Fields } from './shopFileFields'
import { CatalogueProductFile, OrderFile } from './shopFileSchema'

const { name, returns: _returns, tracked_returns: _trackedReturns, ...orderFields } = OrderFile.properties

/** PUT …/orders/{name}: an order of the shop file without its returns; its name is the path's when absent. */
export const ApiOrder = Fields({ ...orderFields, name: Type.Optional(name) })
/** The order as checked, its name given. */
export type ApiOrder = Static<typeof ApiOrder> & { name: string }

const { id, ...productFields } = CatalogueProductFile.properties

/** PUT …/catalogue/products/{id}: a product of the shop file's catalogue; its id is the path's when absent. */
export const ApiProduct = Fields({ ...productFields, id: Type.Optional(id) })
/** The product as checked, its id given. */
export type ApiProduct = Static<typeof ApiProduct> & { id: string }

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; errors: string[] }

const checkOrderShape = schemaCheck(ApiOrder, 'an order of the Orders API')
const checkProductShape = schemaCheck(ApiProduct, 'a product of the Orders API')

/** The file's fields an order of the API may not have, and why. */
const NOT_TAKEN = {
  returns:
    'is not taken by the Orders API: an order’s returns are made in Rebound (the shop file’s are for orders imported with the returns they had before)',
  tracked_returns:
    'is not taken by the Orders API: an order’s returns are made in Rebound (the shop file’s are for orders imported with the returns they had before)',
} as const

const ISO_ONLY = 'must be an ISO 8601 date like "2026-03-01T10:00:00Z"'

/** Errors reported at most, as for the file; the rest are counted. */
function capped(errors: string[]): string[] {
  if (errors.length <= LIMITS.errors) return errors
  return [...errors.slice(0, LIMITS.errors), `… and ${errors.length - LIMITS.errors} more errors`]
}

const isObject = (body: unknown): body is Record<string, unknown> =>
  body !== null && typeof body === 'object' && !Array.isArray(body)

/** The body's key field (`name`, `id`) is the path's when given, the path's value when not. */
function withPathKey(
  body: Record<string, unknown>,
  field: 'name' | 'id',
  pathValue: string,
  same: (a: string, b: string) => boolean,
): { body: Record<string, unknown>; error: string | null } {
  const given = body[field]
  if (given === undefined) return { body: { ...body, [field]: pathValue }, error: null }
  if (typeof given === 'string' && !same(given, pathValue))
    return {
      body,
      error: errorLine(
        [field],
        `"${given}" is not the ${field === 'name' ? 'order' : 'product'} of the path (${JSON.stringify(pathValue)})`,
      ),
    }
  return { body, error: null }
}

/** Text PostgreSQL cannot store, named before the schema (the JSON parser names most already). */
function unstorable(body: unknown): string[] {
  const found = unstorableText(body)
  return found ? [errorLine(found.segments, found.problem)] : []
}

/**
 * The order's shape, as the file's `orders[]` is checked, with `pathName` (from the URL) as its
 * name when the body gives none; a name given must be the path's order by verify's rules (`#1001`
 * and `1001` are one order). Dates are ISO 8601 only.
 */
export function checkOrderBody(body: unknown, pathName: string): BodyCheck<ApiOrder> {
  if (!isObject(body)) return { ok: false, errors: ["body: must be a JSON object with the order's fields"] }
  const early = unstorable(body)
  if (early.length > 0) return { ok: false, errors: early }
  const errors: string[] = []
  const rest: Record<string, unknown> = { ...body }
  for (const [field, why] of Object.entries(NOT_TAKEN)) {
    if (field in rest) errors.push(errorLine([field], why))
    delete rest[field]
  }
  const named = withPathKey(rest, 'name', pathName, (a, b) => orderNameKey(a) === orderNameKey(b))
  if (named.error) errors.push(named.error)
  const shape = checkOrderShape(named.body)
  if (!shape.ok) return { ok: false, errors: capped([...errors, ...shape.errors]) }
  const order = shape.value as ApiOrder
  for (const field of ['processed_at', 'fulfilled_at'] as const) {
    const value = order[field]
    if (value === null || isIsoDate(value)) continue
    errors.push(
      errorLine(
        [field],
        isShopFileDate(value) ? `${ISO_ONLY}: relative times like "now-5d" are for demo shop files only` : ISO_ONLY,
      ),
    )
  }
  return errors.length > 0 ? { ok: false, errors: capped(errors) } : { ok: true, value: order }
}

/** The product's shape, as the file's `catalogue[]` is checked, with `pathId` as its id when the body gives none. */
export function checkProductBody(body: unknown, pathId: string): BodyCheck<ApiProduct> {
  if (!isObject(body)) return { ok: false, errors: ["body: must be a JSON object with the product's fields"] }
  const early = unstorable(body)
  if (early.length > 0) return { ok: false, errors: early }
  const identified = withPathKey(body, 'id', pathId, (a, b) => a === b)
  const shape = checkProductShape(identified.body)
  const errors = [...(identified.error ? [identified.error] : []), ...(shape.ok ? [] : shape.errors)]
  if (errors.length > 0 || !shape.ok) return { ok: false, errors: capped(errors) }
  return { ok: true, value: shape.value as ApiProduct }
}

/** What the checks of an order or a product need of the shop. */
export interface ShopToCheck {
  currency_code: string
  /** the shop's `config.order_prefix` */
  order_prefix?: string | null | undefined
}

const digitsOf = (currency: string) => (isCurrency(currency) ? minorDigits(currency) : 2)

/**
 * The file's checks of one order that its shape does not say, for `shop`: its name's prefix,
 * dates in order and in range, amounts in the shop's currency, URLs, line ids, a discount the
 * lines cover, and variants of the catalogue (`variantIds`: at least those the order names).
 */
export function orderErrors(order: ApiOrder, shop: ShopToCheck, variantIds: ReadonlySet<string>, now: Date): string[] {
  const digits = digitsOf(shop.currency_code)
  const checks = fieldChecks(shop.currency_code, digits, now)
  checkOrder(order, [], { prefix: shop.order_prefix, reasons: [], variantIds, digits }, checks)
  return capped(checks.errors)
}

/**
 * The file's checks of one product that its shape does not say, for `shop`: reserved ids, amounts,
 * URLs, variants that differ by their options, and variant ids no other product of the catalogue
 * has (`otherVariantIds`).
 */
export function productErrors(
  product: ApiProduct,
  shop: ShopToCheck,
  otherVariantIds: ReadonlySet<string>,
  now: Date,
): string[] {
  const checks = fieldChecks(shop.currency_code, digitsOf(shop.currency_code), now)
  checkProduct(product, [], new Set(otherVariantIds), checks)
  return capped(checks.errors)
}
