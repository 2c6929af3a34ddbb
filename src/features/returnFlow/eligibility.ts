import type { ExchangeData, LineItem } from '../../../contract/api'

/**
 * docs/rules.md §8: an item is exchangeable only if exchange data exists, the item has a
 * variant_id, that variant has an entry in the options, and the options are not empty or only
 * the item's own variant.
 */
export function isExchangeable(
  item: Pick<LineItem, 'variant_id'>,
  exchangeData: ExchangeData | null | undefined,
): boolean {
  if (!exchangeData || !item.variant_id) return false
  if (!Object.hasOwn(exchangeData.options, item.variant_id)) return false
  const options = exchangeData.options[item.variant_id]
  if (!Array.isArray(options)) return false
  return options.some((variantId) => variantId !== item.variant_id)
}

/** The variants an item may be exchanged for, without its own variant, in the server's order. */
export function exchangeOptions(
  item: Pick<LineItem, 'variant_id'>,
  exchangeData: ExchangeData | null | undefined,
): string[] {
  if (!isExchangeable(item, exchangeData)) return []
  return (exchangeData!.options[item.variant_id!] ?? []).filter((variantId) => variantId !== item.variant_id)
}
