/**
 * The operator import format: one JSON file per shop, loaded by `npm run import-shop -- file.json`
 * and, for the demo shops, on the first start. Documented in docs/shop-file.md.
 *
 * Amounts are decimal strings in the shop's currency ("25.00"). Dates are ISO 8601 timestamps or,
 * for demo and test files, times relative to the import: "now-5d", "now-12h", "now".
 *
 * The types are derived from the format's schema (shopFileSchema.ts).
 */
export type {
  CatalogueProductFile,
  CatalogueVariantFile,
  LineItemFile,
  OrderFile,
  ReturnLineFile,
  ShopFile,
  ShopSettings,
  TrackedReturnFile,
} from './shopFileSchema'
