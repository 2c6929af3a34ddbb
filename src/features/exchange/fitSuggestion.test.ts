import type { ExchangeData, ReasonFit, ReturnReason, Variant } from '../../../contract/api'
import { buildLineItem, buildVariant } from '../../testing/builders'
import { findReason, sizeOrder, suggestFit, type FitSuggestion } from './fitSuggestion'

const v = (id: string, options: Record<string, string>, available = true): Variant =>
  buildVariant({
    id,
    title: Object.values(options).join(' / '),
    options: Object.entries(options).map(([name, value]) => ({ name, value })),
    available,
  })

/** A product's exchange data: every variant offered for the bought one. */
function data(bought: string, variants: Variant[]): ExchangeData {
  return {
    options: { [bought]: variants.map((variant) => variant.id) },
    upsell_enabled: false,
    variants: Object.fromEntries(variants.map((variant) => [variant.id, variant])),
  }
}

const reason = (fit?: ReasonFit): ReturnReason => ({
  id: 'r',
  label: 'Reason',
  comment_required: false,
  ...(fit ? { fit } : {}),
})
const suggest = (bought: string, variants: Variant[], fit?: ReasonFit) =>
  suggestFit(buildLineItem({ variant_id: bought }), reason(fit), data(bought, variants))

const tees = (out: string[] = []) =>
  ['XS', 'S', 'M', 'L', 'XL'].map((size) => v(`tee-${size}`, { Size: size }, !out.includes(size)))

test.each<[string, string, Variant[], ReasonFit | undefined, FitSuggestion | null]>([
  [
    'too small: one size up',
    'tee-M',
    tees(),
    'too_small',
    { kind: 'picked', fit: 'too_small', variantId: 'tee-L', from: 'M', to: 'L', adjacent: true },
  ],
  [
    'too large: one size down',
    'tee-M',
    tees(),
    'too_large',
    { kind: 'picked', fit: 'too_large', variantId: 'tee-S', from: 'M', to: 'S', adjacent: true },
  ],
  [
    'the next size up out of stock: the nearest in stock beyond it',
    'tee-M',
    tees(['L']),
    'too_small',
    { kind: 'picked', fit: 'too_small', variantId: 'tee-XL', from: 'M', to: 'XL', adjacent: false },
  ],
  [
    'every smaller size out of stock: nothing, and says so',
    'tee-M',
    tees(['S', 'XS']),
    'too_large',
    { kind: 'none', fit: 'too_large', from: 'M' },
  ],
  ['already the largest: nothing', 'tee-XL', tees(), 'too_small', { kind: 'none', fit: 'too_small', from: 'XL' }],
  ['no fit marker: no suggestion', 'tee-M', tees(), undefined, null],
  [
    'numeric sizes listed out of order go by number',
    's-41',
    [v('s-42', { Size: '42' }), v('s-40', { Size: '40' }), v('s-41', { Size: '41' }), v('s-44', { Size: '44' })],
    'too_small',
    { kind: 'picked', fit: 'too_small', variantId: 's-42', from: '41', to: '42', adjacent: true },
  ],
  [
    'letter sizes listed out of order go by size',
    'tee-M',
    [v('tee-L', { Size: 'L' }), v('tee-S', { Size: 'S' }), v('tee-M', { Size: 'M' })],
    'too_large',
    { kind: 'picked', fit: 'too_large', variantId: 'tee-S', from: 'M', to: 'S', adjacent: true },
  ],
  [
    'a waist size counts as a size',
    'j-32',
    [v('j-30', { Waist: '30' }), v('j-32', { Waist: '32' }), v('j-34', { Waist: '34' })],
    'too_small',
    { kind: 'picked', fit: 'too_small', variantId: 'j-34', from: '32', to: '34', adjacent: true },
  ],
  [
    'a product without a size option: no suggestion',
    'mug-blue',
    [v('mug-blue', { Colour: 'Blue' }), v('mug-red', { Colour: 'Red' })],
    'too_small',
    null,
  ],
])('suggestFit: %s', (_name, bought, variants, fit, expected) => {
  expect(suggest(bought, variants, fit)).toEqual(expected)
})

test('suggestFit keeps the colour as bought: the next size up in blue, never the red one', () => {
  const variants = [
    v('blue-m', { Colour: 'Blue', Size: 'M' }),
    v('red-l', { Colour: 'Red', Size: 'L' }),
    v('blue-l', { Colour: 'Blue', Size: 'L' }, false),
    v('blue-xl', { Colour: 'Blue', Size: 'XL' }),
  ]
  expect(suggest('blue-m', variants, 'too_small')).toEqual({
    kind: 'picked',
    fit: 'too_small',
    variantId: 'blue-xl',
    from: 'M',
    to: 'XL',
    adjacent: false,
  })
})

test('suggestFit: an item without a variant, or without exchange data, gets no suggestion', () => {
  expect(suggestFit(buildLineItem({ variant_id: null }), reason('too_small'), data('tee-M', tees()))).toBeNull()
  expect(suggestFit(buildLineItem({ variant_id: 'tee-M' }), reason('too_small'), null)).toBeNull()
  // The bought variant is not described: its size is unknown.
  expect(suggestFit(buildLineItem({ variant_id: 'ghost' }), reason('too_small'), data('ghost', tees()))).toBeNull()
})

test.each([
  [
    ['L', 'S', 'XL', 'M'],
    ['S', 'M', 'L', 'XL'],
  ],
  [
    ['2XL', 'XL', 'XS'],
    ['XS', 'XL', '2XL'],
  ],
  [
    ['40', '38.5', '39'],
    ['38.5', '39', '40'],
  ],
  [
    ['Petite', 'Regular', 'Tall'],
    ['Petite', 'Regular', 'Tall'],
  ],
  [
    ['M', 'M', 'S'],
    ['S', 'M'],
  ],
])('sizeOrder(%j) is %j', (values, expected) => {
  expect(sizeOrder(values)).toEqual(expected)
})

test('findReason finds a reason by id, also among sub-reasons', () => {
  const leaf = reason('too_small')
  const nested = [{ ...reason(), id: 'fit', children: [{ ...leaf, id: 'fit-small' }] }] as unknown as ReturnReason[]
  expect(findReason(nested, 'fit-small')?.fit).toBe('too_small')
  expect(findReason(nested, 'nope')).toBeUndefined()
})
