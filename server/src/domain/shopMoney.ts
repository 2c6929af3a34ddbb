/**
 * Where a shop's settings' money enters and leaves (docs/decisions/0096-orders-and-settings-in-minor-units.md):
 * the shop file gives, and storage keeps, their amounts as decimal strings; the rules take them in
 * minor units, read here once per shop as it is read (storage/shops.ts, the import), not once per
 * request, and written back only as the shop is stored.
 */
import { fromMinor, toMinor } from '../../../contract/money'
import { keepThreshold } from './keepItems'
import type { ShopSettings, ShopSettingsFile } from './shop'

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
