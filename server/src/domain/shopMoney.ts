/**
 * Where a shop's money enters the rules (docs/decisions/0093-money-in-minor-units.md): its
 * settings' amounts are decimal strings, as the shop file and storage hold them; the rules take
 * them in minor units, read here once per shop as it was read, not once per request.
 */
import type { Minor } from '../../../contract/money'
import { toMinor } from '../../../contract/money'
import { keepThreshold } from './keepItems'
import type { Shop } from './shop'

/** A shop's settings' amounts in minor units of its currency. */
export interface ShopMoney {
  /** settings.return_fee */
  returnFee: Minor
  /** settings.keep_item_below; null when the shop sets none (every item comes back) */
  keepBelow: Minor | null
}

const read = new WeakMap<Pick<Shop, 'currency_code' | 'settings'>, ShopMoney>()

/** The shop's amounts in minor units; a shop (as read from storage or a shop file) is read once. */
export function shopMoney(shop: Pick<Shop, 'currency_code' | 'settings'>): ShopMoney {
  let money = read.get(shop)
  if (!money) {
    money = {
      returnFee: toMinor(shop.settings.return_fee, shop.currency_code),
      keepBelow: keepThreshold(shop.settings, shop.currency_code),
    }
    read.set(shop, money)
  }
  return money
}
