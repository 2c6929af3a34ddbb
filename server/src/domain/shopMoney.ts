/**
 * Where a shop's money enters and leaves (docs/decisions/0096-orders-settings-minor.md):
 * the shop file gives, and storage keeps, the amounts of its settings and its orders' lines as
 * decimal strings; the rules take them in minor units, read here once per shop or order as it is
 * read (storage/shops.ts, storage/orders.ts, the import), not once per request, and written back
 * only as they are stored.
 */
import { fromMinor, toMinor } from '../../../contract/money'
import { keepThreshold } from './keepItems'
import type { LineItem, LineItemFile, ShopSettings, ShopSettingsFile } from './shop'

/** The settings as the file gives them, their amounts read in minor units of `currency`. */
export function settingsInMinor(file: ShopSettingsFile, currency: string): ShopSettings {
  const { return_fee: fee, keep_item_below: _keep, ...rest } = file
  return { ...rest, return_fee: toMinor(fee, currency), keep_item_below: keepThreshold(file, currency) }
}

/** The settings as the file gives them (and storage keeps them), their amounts written in `currency`. */
export function settingsAsFile(settings: ShopSettings, currency: string): ShopSettingsFile {
  const { return_fee: fee, keep_item_below: keep, ...rest } = settings
  return {
    ...rest,
    return_fee: fromMinor(fee, currency),
    ...(keep === null ? {} : { keep_item_below: fromMinor(keep, currency) }),
  }
}

/** A line as the file gives it, its price read in minor units of `currency`. */
export function lineInMinor(line: LineItemFile, currency: string): LineItem {
  return { ...line, price: toMinor(line.price, currency) }
}

/** A line as the file gives it (and storage keeps it), its price written in `currency`. */
export function lineAsFile(line: LineItem, currency: string): LineItemFile {
  return { ...line, price: fromMinor(line.price, currency) }
}
