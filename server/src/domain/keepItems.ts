import type { ShopSettingsFile } from './shop'
import { toMinor } from '../../../contract/money'

/**
 * Keep-item returns: a refunded item whose price per unit paid (after its share of the order
 * discount, rounded up, as verify shows it) is strictly below the shop's `keep_item_below` is
 * refunded without being sent back. An exchanged item always comes back (the shop sends another).
 * @example keepsItem({ unitPaid: 990, threshold: 1000, exchanged: false }) === true
 */
export function keepsItem({
  unitPaid,
  threshold,
  exchanged,
}: {
  unitPaid: number
  threshold: number | null
  exchanged: boolean
}): boolean {
  return threshold !== null && !exchanged && unitPaid < threshold
}

/** The threshold of the shop's settings as its file gives them, in minor units; null when it sets none (every item comes back). */
export function keepThreshold(settings: ShopSettingsFile, currency: string): number | null {
  return settings.keep_item_below === undefined ? null : toMinor(settings.keep_item_below, currency)
}
