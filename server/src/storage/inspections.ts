/**
 * Receiving and inspection's storage (docs/lifecycle.md): returns found by drop-off code or
 * number, what the warehouse recorded of each item, its photos, and variants put back on sale.
 */
import type { DISPOSITIONS, INSPECTION_CONDITIONS } from '../../../contract/constants'
import type { Money } from '../../../contract/api'
import type { Inspection } from '../../../contract/staff'
import { indexCatalogue } from '../domain/catalogue'
import type { PlannedInspection } from '../domain/inspection'
import { fromMinor } from '../../../contract/money'
import type { Queryable } from './database'
import { findOrderById } from './orders'
import { findReturn } from './returns'
import type { ShopRecord } from './shops'

/** A return as receiving finds it. */
export interface FoundReturn {
  id: string
  name: string
}

/** The shop's returns with this drop-off code (as `dropOffCode` spells it): one, or none; two only by a rare clash. */
export async function findByDropOffCode(db: Queryable, shopId: string, code: string): Promise<FoundReturn[]> {
  return db.query<FoundReturn>(
    'SELECT id, name FROM returns WHERE drop_off_code = $1 AND shop_id = $2 ORDER BY created_at LIMIT 2',
    [code, shopId],
  )
}

/** The shop's return `number` of the order whose name key is `orderName`; null when none. */
export async function findByReturnNumber(
  db: Queryable,
  shopId: string,
  orderName: string,
  number: number,
): Promise<FoundReturn | null> {
  const [row] = await db.query<FoundReturn>(
    `SELECT r.id, r.name FROM orders o JOIN returns r ON r.order_id = o.id
      WHERE o.shop_id = $1 AND o.name_key = $2 AND r.number = $3`,
    [shopId, orderName, number],
  )
  return row ?? null
}

/**
 * A return's drop-off code as SQL, the same as qrCodeValue (domain/label.ts): the first 40 bits of
 * the SHA-256 of its id in lower case, as 8 Crockford base32 digits after "RB-". Migration 11
 * gave the returns made before codes were kept theirs with a frozen copy of this text.
 */
export function dropOffCodeSql(id: string): string {
  return `('RB-' || (
    SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((bits >> (5 * (7 - digit))) & 31)::int + 1, 1), '' ORDER BY digit)
      FROM generate_series(0, 7) AS digit,
           (SELECT (get_byte(d, 0)::bigint << 32) | (get_byte(d, 1)::bigint << 24) | (get_byte(d, 2)::bigint << 16)
                   | (get_byte(d, 3)::bigint << 8) | get_byte(d, 4)::bigint AS bits
              FROM (SELECT sha256(convert_to(lower(${id}), 'UTF8')) AS d) AS digest) AS code))`
}

/** The ids of the return's lines already inspected. */
export async function findInspectedLines(db: Queryable, returnId: string): Promise<Set<string>> {
  const rows = await db.query<{ line_item_id: string }>(
    'SELECT line_item_id FROM return_inspections WHERE return_id = $1',
    [returnId],
  )
  return new Set(rows.map((row) => row.line_item_id))
}

/** What the warehouse recorded of one item, or of one unit of it, as stored. */
export interface InspectionRow {
  line_item_id: string
  /** 1 to the line's quantity; 0 for a row of the whole line, every unit in its condition (decision 0085) */
  unit: number
  condition: (typeof INSPECTION_CONDITIONS)[number]
  /** null for a missing item (stored as '': the column predates items that never came) */
  disposition: (typeof DISPOSITIONS)[number] | null
  /** the item's note and photos, on its first row */
  note: string | null
  photo_ids: string[]
  percent: number
  deduction_minor: number
  restocked_variant_id: string | null
  inspected_at: Date
  inspected_by: string
}

/**
 * The return's inspections, in the order they were recorded, an item's units in order, as one
 * JSON array: an SQL expression over the return whose id is `returnId`, so that a read of a whole
 * return takes them in its one statement (readShopReturn).
 */
export const inspectionRowsJson = (returnId: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('line_item_id', x.line_item_id, 'unit', x.unit, 'condition', x.condition,
            'disposition', x.disposition, 'note', x.note, 'photo_ids', x.photo_ids, 'percent', x.percent,
            'deduction_minor', x.deduction_minor, 'restocked_variant_id', x.restocked_variant_id,
            'inspected_at', x.inspected_at, 'inspected_by', x.inspected_by)
            ORDER BY x.inspected_at, x.line_item_id, x.unit), '[]')
      FROM return_inspections x WHERE x.return_id = ${returnId})`

/** The rows of inspectionRowsJson, typed: numbers as numbers, times as dates, no disposition as null. */
export function inspectionsOf(
  rows: readonly (Omit<InspectionRow, 'inspected_at'> & { inspected_at: Date | string })[],
): InspectionRow[] {
  return rows.map((row) => ({
    ...row,
    unit: Number(row.unit),
    disposition: row.disposition || null,
    percent: Number(row.percent),
    // bigint: a string from node-postgres outside JSON
    deduction_minor: Number(row.deduction_minor),
    inspected_at: new Date(row.inspected_at),
  }))
}

export async function findInspections(db: Queryable, returnId: string): Promise<InspectionRow[]> {
  const [row] = await db.query<{ rows: Parameters<typeof inspectionsOf>[0] }>(
    `SELECT ${inspectionRowsJson('$1')} AS rows`,
    [returnId],
  )
  return inspectionsOf(row?.rows ?? [])
}

export type DeductionRow = Pick<InspectionRow, 'line_item_id' | 'condition' | 'percent' | 'deduction_minor'>

/**
 * What inspections took off the return's refund, per item: only items something was taken from.
 * An item's units in the same condition are one deduction, their amounts summed
 * (mergedDeductions, domain/inspection.ts, does the same for the preview). One JSON array, an SQL
 * expression as inspectionRowsJson.
 */
export const deductionRowsJson = (returnId: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('line_item_id', d.line_item_id, 'condition', d.condition,
            'percent', d.percent, 'deduction_minor', d.deduction_minor) ORDER BY d.first_at, d.line_item_id, d.first_unit), '[]')
      FROM (SELECT line_item_id, condition, percent, SUM(deduction_minor) AS deduction_minor,
                   MIN(inspected_at) AS first_at, MIN(unit) AS first_unit
              FROM return_inspections WHERE return_id = ${returnId} AND deduction_minor > 0
             GROUP BY line_item_id, condition, percent) AS d)`

/** The rows of deductionRowsJson, numbers as numbers. */
export const deductionsOf = (rows: readonly DeductionRow[]): DeductionRow[] =>
  rows.map((row) => ({ ...row, percent: Number(row.percent), deduction_minor: Number(row.deduction_minor) }))

export async function findDeductions(db: Queryable, returnId: string): Promise<DeductionRow[]> {
  const [row] = await db.query<{ rows: DeductionRow[] }>(`SELECT ${deductionRowsJson('$1')} AS rows`, [returnId])
  return deductionsOf(row?.rows ?? [])
}

export async function insertInspections(
  tx: Queryable,
  returnId: string,
  planned: readonly PlannedInspection[],
  at: Date,
  by: string,
): Promise<void> {
  for (const item of planned)
    for (const [index, unit] of item.units.entries())
      await tx.query(
        `INSERT INTO return_inspections (return_id, line_item_id, unit, condition, disposition, note, photo_ids, percent,
                                         deduction_minor, restocked_variant_id, inspected_at, inspected_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          returnId,
          item.line_item_id,
          unit.unit,
          unit.condition,
          unit.disposition ?? '',
          // The item's note and photos, once: on its first row.
          index === 0 ? item.note : null,
          JSON.stringify(index === 0 ? item.photo_ids : []),
          unit.percent,
          unit.deduction_minor,
          unit.restock_variant_id,
          at,
          by,
        ],
      )
}

/**
 * Puts a variant of the shop's catalogue back on sale (`available: true`, decision 0050). Only a
 * variant marked unavailable is written: one on sale already is left as it is, and nothing else
 * of the catalogue changes. Answers whether it wrote.
 */
export async function restockVariant(tx: Queryable, shopId: string, variantId: string): Promise<boolean> {
  // The variant's place in the catalogue, read in the statement that writes it: jsonb_set takes a
  // path, and the catalogue is never sent to and fro.
  const rows = await tx.query(
    `UPDATE shops SET catalogue = jsonb_set(catalogue, found.path, 'true'::jsonb)
       FROM (SELECT ARRAY[(p.i - 1)::text, 'variants', (v.j - 1)::text, 'available'] AS path
               FROM shops s,
                    jsonb_array_elements(s.catalogue) WITH ORDINALITY AS p (product, i),
                    jsonb_array_elements(p.product -> 'variants') WITH ORDINALITY AS v (variant, j)
              WHERE s.id = $1 AND v.variant ->> 'id' = $2 AND v.variant -> 'available' = 'false'::jsonb
              LIMIT 1) AS found
      WHERE shops.id = $1
      RETURNING shops.id`,
    [shopId, variantId],
  )
  return rows.length > 0
}

/** The return's photos staff took among `ids`, with the line each was taken of. */
export async function findStaffPhotos(
  db: Queryable,
  returnId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.query<{ id: string; line_item_id: string }>(
    `SELECT id, line_item_id FROM photos WHERE return_id = $1 AND source = 'staff' AND id = ANY($2::text[])`,
    [returnId, [...ids]],
  )
  return new Map(rows.map((row) => [row.id, row.line_item_id]))
}

/** Staff photos of one item of a return, counted: uploads are bounded per item. */
export async function countStaffPhotos(db: Queryable, returnId: string, lineItemId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT COUNT(*)::int AS n FROM photos WHERE return_id = $1 AND line_item_id = $2 AND source = 'staff'`,
    [returnId, lineItemId],
  )
  return Number(row?.n ?? 0)
}

export interface NewStaffPhoto {
  id: string
  orderId: string
  returnId: string
  lineItemId: string
  contentType: string
  size: number
  /** the bytes, or null when the photo store keeps them outside the row */
  bytes: Uint8Array | null
}

/** A photo the warehouse took of an item it received: the return's from the start, never the shopper's. */
export async function insertStaffPhoto(tx: Queryable, photo: NewStaffPhoto, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO photos (id, order_id, return_id, line_item_id, content_type, size, bytes, created_at, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'staff')`,
    [photo.id, photo.orderId, photo.returnId, photo.lineItemId, photo.contentType, photo.size, photo.bytes, now],
  )
}

/**
 * The return's inspections as the console shows them (contract/staff.ts `Inspection`), oldest
 * first, its items named as its status page names them.
 */
export async function inspectionViews(db: Queryable, shop: ShopRecord, returnId: string): Promise<Inspection[]> {
  const rows = await findInspections(db, returnId)
  if (rows.length === 0) return []
  return inspectionViewsOf(shop, returnId, rows, await itemTitles(db, shop, returnId))
}

/** inspectionViews of rows read already, `named` naming the items (the status's, when the caller has it). */
export function inspectionViewsOf(
  shop: ShopRecord,
  returnId: string,
  rows: readonly InspectionRow[],
  named: ReadonlyMap<string, string>,
): Inspection[] {
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const money = (minor: number): Money => ({
    amount: fromMinor(minor, shop.currency_code),
    currency_code: shop.currency_code,
  })
  const unitsOf = new Map<string, number>()
  for (const row of rows) if (row.unit > 0) unitsOf.set(row.line_item_id, (unitsOf.get(row.line_item_id) ?? 0) + 1)
  return rows.map((row) => ({
    line_item_id: row.line_item_id,
    ...(row.unit > 0 ? { unit: { number: row.unit, of: unitsOf.get(row.line_item_id) ?? row.unit } } : {}),
    condition: row.condition,
    disposition: row.disposition,
    note: row.note,
    photos: row.photo_ids.map((photo) => ({
      id: photo,
      line_item_id: row.line_item_id,
      url: `/admin/api/returns/${encodeURIComponent(returnId)}/photos/${photo}`,
    })),
    deduction:
      row.deduction_minor > 0
        ? {
            line_item_id: row.line_item_id,
            title: named.get(row.line_item_id) ?? 'Item',
            condition: row.condition,
            percent: row.percent,
            amount: money(row.deduction_minor),
          }
        : null,
    restocked_variant: row.restocked_variant_id ? variantLabel(catalogue, row.restocked_variant_id) : null,
    inspected_at: row.inspected_at.toISOString(),
    inspected_by: row.inspected_by,
  }))
}

/** The return's items by title, as its status page names them (routes/status.ts). */
async function itemTitles(db: Queryable, shop: ShopRecord, returnId: string): Promise<Map<string, string>> {
  const found = await findReturn(db, returnId)
  const order = found && (await findOrderById(db, found.order_id))
  if (!found || !order) return new Map()
  const answered = new Map((found.return_order?.items ?? []).map((item) => [item.line_item_id, item.title]))
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  return new Map(
    order.line_items.map((line) => [
      line.id,
      answered.get(line.id) ??
        line.title ??
        (line.variant_id ? catalogue.variant(line.variant_id)?.product_title : undefined) ??
        'Item',
    ]),
  )
}

/** A catalogue variant by title: "Classic Tee – M", or the product's title alone for a variant without options. */
export function variantLabel(catalogue: ReturnType<typeof indexCatalogue>, variantId: string): string {
  const variant = catalogue.variant(variantId)
  if (!variant) return variantId
  return variant.title ? `${variant.product_title} – ${variant.title}` : variant.product_title
}
