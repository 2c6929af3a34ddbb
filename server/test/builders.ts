import type { ReturnItemRequest, ReturnReason, ReturnRequest } from '../../contract/api'
import type {
  CatalogueProductFile,
  CatalogueVariantFile,
  LineItemFile,
  OrderFile,
  ReturnLineFile,
  ShopFile,
  ShopSettings,
  TrackedReturnFile,
} from '../src/import/shopFile'

/**
 * Shop files for the server tests, built in the import format the product loads (`importShop`,
 * `npm run import-shop`, `POST /admin/shops`). Each builder gives a small valid default and takes
 * overrides: a test names the data it relies on (a return fee, a reason, an out-of-stock size)
 * and leaves the rest to the defaults, which promise nothing beyond being valid. The demo shops
 * (`server/demo/`) are what `npm start` loads; only demoShops.test.ts reads them.
 */

let sequence = 0
const next = () => ++sequence

/** The label a reason gets when the test does not name one: `changed_mind` → "Changed mind". */
const labelOf = (id: string) => id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, ' ')

/** A return reason: no comment, no photos, no fit marker unless given. */
export function buildReason(id: string, overrides: Partial<ReturnReason> = {}): ReturnReason {
  return { id, label: labelOf(id), comment_required: false, ...overrides }
}

/** A product's variant in a size: id `${product}-${size}` in lower case, 25.00, in stock. */
export function buildVariant(
  product: string,
  size: string | null,
  overrides: Partial<CatalogueVariantFile> = {},
): CatalogueVariantFile {
  return {
    id: `${product}-${(size ?? 'default').toLowerCase()}`,
    options: size === null ? [] : [{ name: 'Size', value: size }],
    price: '25.00',
    ...overrides,
  }
}

export interface ProductSpec extends Partial<CatalogueProductFile> {
  /** the sizes of its variants (ids `${id}-s`, `${id}-m`…); none: one variant `${id}-default` */
  sizes?: string[]
  /** every variant's price (default 25.00) */
  price?: string
  /** sizes out of stock */
  outOfStock?: string[]
}

/**
 * A catalogue product: a Classic Tee (`tee`) in S, M and L at 25.00 unless told otherwise.
 * `sizes`, `price` and `outOfStock` make its variants; `variants` replaces them.
 */
export function buildProduct({
  sizes = ['S', 'M', 'L'],
  price = '25.00',
  outOfStock = [],
  ...overrides
}: ProductSpec = {}): CatalogueProductFile {
  const id = overrides.id ?? 'tee'
  const variants =
    sizes.length === 0
      ? [buildVariant(id, null, { price })]
      : sizes.map((size) =>
          buildVariant(id, size, { price, ...(outOfStock.includes(size) ? { available: false } : {}) }),
        )
  return { id, title: 'Classic Tee', variants, ...overrides }
}

/** A line of an order: one Classic Tee in M (`tee-m`) at 25.00 with 19 % tax included. */
export function buildLine(overrides: Partial<LineItemFile> = {}): LineItemFile {
  return { id: `line-${next()}`, variant_id: 'tee-m', quantity: 1, price: '25.00', tax_rate: '0.19', ...overrides }
}

/** An order fulfilled five days ago, within any return window, with one line (`buildLine()`). */
export function buildOrder(overrides: Partial<OrderFile> = {}): OrderFile {
  const n = next()
  return {
    name: `#${n}`,
    email: `shopper${n}@example.com`,
    processed_at: 'now-7d',
    fulfilled_at: 'now-5d',
    line_items: [buildLine()],
    ...overrides,
  }
}

/** A return made before the import, three days ago, refunded to the original payment. */
export function buildTrackedReturn(
  items: TrackedReturnFile['items'],
  overrides: Partial<TrackedReturnFile> = {},
): TrackedReturnFile {
  return { created_at: 'now-3d', refund_method: 'original_payment', items, ...overrides }
}

/** One unit of a line, as a tracked return or an imported return lists it. */
export const returnedUnit = (line_item_id: string, quantity = 1): ReturnLineFile => ({ line_item_id, quantity })

export interface ShopSpec extends Partial<Omit<ShopFile, 'settings' | 'config'>> {
  /** merged over the default settings */
  settings?: Partial<ShopSettings>
  /** merged over the default configuration (its portal_id is `portal-${shop}`) */
  config?: Partial<ShopFile['config']>
}

/**
 * A shop file: shop `shop` (portal `portal-shop`) in EUR, tax included, a 30-day window, no
 * return fee, no upsell, no keep-item threshold, no refund timing; the reasons `changed_mind`
 * and `other` (with a comment); a return address in Hamburg; the Classic Tee; no orders.
 */
export function buildShop({ settings, config, ...overrides }: ShopSpec = {}): ShopFile {
  const shop = overrides.shop ?? 'shop'
  return {
    shop,
    currency_code: 'EUR',
    return_reasons: [buildReason('changed_mind'), buildReason('other', { comment_required: true })],
    return_address: {
      name: 'Returns',
      line1: 'Hafenstraße 12',
      city: 'Hamburg',
      postal_code: '20457',
      country_code: 'DE',
    },
    catalogue: [buildProduct()],
    orders: [],
    ...overrides,
    settings: {
      return_window_days: 30,
      return_fee: '0.00',
      prices_include_tax: true,
      upsell_enabled: false,
      ...settings,
    },
    config: { portal_id: `portal-${shop}`, ...config },
  }
}

/** The shop and portal a verify names for this shop file. */
export const portalOf = (file: ShopFile) => ({ shop: file.shop, portal_id: file.config.portal_id })

/** An item of a return request: one unit for "changed_mind". */
export function returnItem(line_item_id: string, overrides: Partial<ReturnItemRequest> = {}): ReturnItemRequest {
  return { line_item_id, quantity: 1, reason_id: 'changed_mind', ...overrides }
}

/** The body of a quote or a submit: the items, refunded to the original payment. */
export function buildReturn(items: ReturnItemRequest[], overrides: Partial<ReturnRequest> = {}): ReturnRequest {
  return { items, refund_method: 'original_payment', ...overrides }
}
