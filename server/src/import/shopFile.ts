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
  CommerceFile,
  CatalogueVariantFile,
  LineItemFile,
  OrderFile,
  ReturnLineFile,
  ShopFile,
  ShopSettings,
  TrackedReturnFile,
} from './shopFileSchema'

import type { CatalogueProduct, LineItemFile as DomainLineItemFile, Shop, ShopSettingsFile } from '../domain/shop'
import type * as File from './shopFileSchema'

// The file's parts are stored as they are, so each must be the domain's shape (the settings and
// the lines: the shapes the domain reads their amounts from): these lines stop compiling when the
// schema and the domain's shapes (server/src/domain/shop.ts) drift apart.
type Is<A extends B, B> = A
type _Checks = [
  Is<File.ShopSettings, ShopSettingsFile>,
  Is<File.CatalogueProductFile, CatalogueProduct>,
  Is<File.LineItemFile, DomainLineItemFile>,
  Is<File.ShopFile['config'], Shop['config']>,
  Is<NonNullable<File.ShopFile['config_variants']>, Shop['config_variants']>,
  Is<NonNullable<File.ShopFile['return_reason_variants']>, Shop['return_reason_variants']>,
  Is<File.ShopFile['return_reasons'], Shop['return_reasons']>,
  Is<File.ShopFile['return_address'], Shop['return_address']>,
  Is<NonNullable<File.ShopFile['email']>, NonNullable<Shop['email']>>,
]
