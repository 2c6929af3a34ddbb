import type { Variant } from '../../../contract/api'
import { isPlaceholderOption } from '../../../contract/variantName'

/** An exchange option as the shopper sees it. */
export interface ExchangeOptionModel {
  variantId: string
  /** e.g. "Size L" or "Size L, Colour Blue"; null for a variant with no name at all */
  label: string | null
  available: boolean
}

/**
 * The options by their option values, naming only the options in which the variants differ
 * (a blue tee offered in S, L and XL reads "Size L", not "Size L, Colour Blue"). A variant
 * without usable option values falls back to its title, then to null (the screen names it in the shopper's language).
 * @example exchangeOptionModels(['v-l'], { 'v-l': tee('L') }, 'v-m') // [{ variantId: 'v-l', label: 'Size L', available: true }]
 */
export function exchangeOptionModels(
  variantIds: readonly string[],
  variants: Readonly<Record<string, Variant | undefined>>,
  currentVariantId: string | null,
  /** an option's name in the shopper's language (a size's; the shop's own names as they are) */
  optionName: (name: string) => string = (name) => name,
): ExchangeOptionModel[] {
  const compared = [...variantIds, ...(currentVariantId ? [currentVariantId] : [])]
    .map((id) => variants[id])
    .filter((variant) => variant !== undefined)
  const differing = new Set<string>()
  const seen = new Map<string, string>()
  for (const variant of compared) {
    for (const option of variant.options) {
      const before = seen.get(option.name)
      if (before === undefined) seen.set(option.name, option.value)
      else if (before !== option.value) differing.add(option.name)
    }
  }
  return variantIds.map((variantId) => {
    const variant = variants[variantId]
    const usable = (variant?.options ?? []).filter((option) => !isPlaceholderOption(option.value))
    const shown = usable.some((option) => differing.has(option.name))
      ? usable.filter((option) => differing.has(option.name))
      : usable
    const label =
      shown.length > 0
        ? shown.map((option) => `${optionName(option.name)} ${option.value}`).join(', ')
        : variant?.title || null
    // A variant the server did not describe is offered; the server decides when the return is made.
    return { variantId, label, available: variant?.available !== false }
  })
}
