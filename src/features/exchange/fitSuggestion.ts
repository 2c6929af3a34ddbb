import type { ExchangeData, LineItem, ReasonFit, ReturnReason, Variant } from '../../../contract/api'
import { sizeOptionName } from '../returnFlow/size'

/** What the exchange step suggests for an item whose reason says it did not fit. */
export type FitSuggestion =
  /** `to` is the size picked; `adjacent` when it is the very next size (none was skipped) */
  | { kind: 'picked'; fit: ReasonFit; variantId: string; from: string; to: string; adjacent: boolean }
  /** no size in that direction is in stock (with the other options as bought) */
  | { kind: 'none'; fit: ReasonFit; from: string }

/** Letter sizes by rank: "XXL" and "2XL" are the same size. */
const LETTER_RANK: Record<string, number> = {
  XXXS: 0,
  '3XS': 0,
  XXS: 1,
  '2XS': 1,
  XS: 2,
  S: 3,
  M: 4,
  L: 5,
  XL: 6,
  XXL: 7,
  '2XL': 7,
  XXXL: 8,
  '3XL': 8,
  XXXXL: 9,
  '4XL': 9,
  '5XL': 10,
}
const NUMERIC = /^\d+(?:[.,]\d+)?$/

const rank = (value: string) => LETTER_RANK[value.trim().toUpperCase()]
const number = (value: string) => Number(value.trim().replace(',', '.'))

/**
 * The distinct sizes from small to large: numbers numerically (38, 39, 40), letter sizes by
 * rank (XS … XXL), anything else in the order the product lists its variants.
 * @example sizeOrder(['L', 'S', 'M']) // ['S', 'M', 'L']
 */
export function sizeOrder(values: readonly string[]): string[] {
  const distinct = [...new Set(values)]
  if (distinct.every((value) => NUMERIC.test(value.trim()))) return distinct.sort((a, b) => number(a) - number(b))
  if (distinct.every((value) => rank(value) !== undefined)) return distinct.sort((a, b) => rank(a)! - rank(b)!)
  return distinct
}

const sizeName = (variant: Variant) => sizeOptionName(variant.options)
const optionValue = (variant: Variant, name: string) => variant.options.find((option) => option.name === name)?.value

/** The same product in another size only: every other option (colour, fit) as bought. */
function sameButSize(variant: Variant, bought: Variant, size: string): boolean {
  const others = bought.options.filter((option) => option.name !== size)
  return (
    variant.options.length === bought.options.length &&
    others.every((option) => optionValue(variant, option.name) === option.value)
  )
}

/** A reason by id, looking into sub-reasons too (a shop may nest them). */
export function findReason(reasons: readonly ReturnReason[], id: string | undefined): ReturnReason | undefined {
  for (const reason of reasons) {
    if (reason.id === id) return reason
    const children = (reason as ReturnReason & { children?: readonly ReturnReason[] }).children
    const found = Array.isArray(children) ? findReason(children, id) : undefined
    if (found) return found
  }
  return undefined
}

/**
 * The next size up (too small) or down (too large) that is in stock, relative to the bought
 * variant's size, skipping sizes out of stock; null when the reason says nothing about fit or the
 * item has no size to move along.
 * @example suggestFit(teeInM, { fit: 'too_small', … }, data) // { kind: 'picked', to: 'L', adjacent: true, … }
 */
export function suggestFit(
  line: LineItem,
  reason: ReturnReason | undefined,
  data: ExchangeData | null | undefined,
): FitSuggestion | null {
  const fit = reason?.fit
  if ((fit !== 'too_small' && fit !== 'too_large') || !line.variant_id || !data) return null
  const bought = data.variants[line.variant_id]
  const size = bought ? sizeName(bought) : undefined
  const from = bought && size ? optionValue(bought, size) : undefined
  if (!bought || !size || from === undefined) return null
  const offered = (data.options[line.variant_id] ?? []).flatMap((id) =>
    id !== bought.id && data.variants[id] ? [data.variants[id]] : [],
  )
  const family = offered.filter((variant) => sameButSize(variant, bought, size))
  const sizes = sizeOrder([from, ...family.map((variant) => optionValue(variant, size)!)])
  const step = fit === 'too_small' ? 1 : -1
  const start = sizes.indexOf(from)
  for (let index = start + step; index >= 0 && index < sizes.length; index += step) {
    const candidate = family.find((variant) => optionValue(variant, size) === sizes[index] && variant.available)
    if (candidate)
      return { kind: 'picked', fit, variantId: candidate.id, from, to: sizes[index]!, adjacent: index === start + step }
  }
  return { kind: 'none', fit, from }
}
