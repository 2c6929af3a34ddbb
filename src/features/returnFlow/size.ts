import { useCallback } from 'react'
import type { LineItem, ReturnReason, VariantOption } from '../../../contract/api'
import { optionsName, SIZE_NAMES, sizeKind } from '../../../contract/variantName'
import { useT } from '../../i18n/useT'

/**
 * An option's name as the shopper reads it: a size or a waist in the shopper's language ("Größe",
 * not the catalogue's "Size"), any other name as the shop wrote it.
 */
export function useOptionName(): (name: string) => string {
  const t = useT()
  return useCallback(
    (name: string) => {
      const kind = sizeKind(name)
      return kind === 'size' ? t('exchange.optionSize') : kind === 'waist' ? t('exchange.optionWaist') : name
    },
    [t],
  )
}

/** The name of the option that holds the size ("Size", "Waist"), if any. */
export const sizeOptionName = (options: readonly VariantOption[]) =>
  options.find((option) => SIZE_NAMES.has(option.name.trim().toLowerCase()))?.name

/**
 * The reasons offered for a line: without a size (a mug, a one-variant notebook) the reasons that
 * say it did not fit (`fit`) are left out, sub-reasons too. A line whose variant the catalogue
 * does not know keeps them all: nothing says it has no size.
 */
export function reasonsFor(line: LineItem, reasons: readonly ReturnReason[]): ReturnReason[] {
  if (!line.options || sizeOptionName(line.options) !== undefined) return [...reasons]
  const keep = (list: readonly ReturnReason[]): ReturnReason[] =>
    list.flatMap((reason) => {
      if (reason.fit) return []
      const children = (reason as ReturnReason & { children?: ReturnReason[] }).children
      return [children ? { ...reason, children: keep(children) } : reason]
    })
  return keep(reasons)
}

/**
 * A bought variant as its item line names it: by its options, each with its name ("Size 43",
 * "Size M, Colour Blue"), sizes named in the shopper's language; the variant's title when the
 * catalogue gave no options; null when it has neither.
 * @example variantName({ options: [{ name: 'Size', value: '43' }], variant_title: '43' }) // 'Size 43'
 */
export function variantName(
  line: Pick<LineItem, 'options' | 'variant_title'>,
  optionName: (name: string) => string = (name) => name,
): string | null {
  return optionsName(line.options, optionName) ?? (line.variant_title || null)
}

/** variantName with sizes named in the shopper's language. */
export function useVariantName(): (line: Pick<LineItem, 'options' | 'variant_title'>) => string | null {
  const optionName = useOptionName()
  return useCallback((line) => variantName(line, optionName), [optionName])
}
