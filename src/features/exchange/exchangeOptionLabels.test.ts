import type { VariantOption } from '../../../contract/api'
import { buildVariant } from '../../testing/builders'
import { exchangeOptionModels } from './exchangeOptionLabels'

const variant = (id: string, options: VariantOption[], more: { title?: string; available?: boolean } = {}) =>
  buildVariant({
    id,
    options,
    title: more.title ?? options.map((option) => option.value).join(' / '),
    available: more.available ?? true,
  })
const size = (value: string) => ({ name: 'Size', value })
const colour = (value: string) => ({ name: 'Colour', value })

test.each([
  ['one option', { m: variant('m', [size('M')]), l: variant('l', [size('L')]) }, ['l'], 'Size L'],
  [
    'only the differing option is named',
    { m: variant('m', [size('M'), colour('Blue')]), l: variant('l', [size('L'), colour('Blue')]) },
    ['l'],
    'Size L',
  ],
  [
    'both differ',
    { m: variant('m', [size('M'), colour('Blue')]), l: variant('l', [size('L'), colour('Red')]) },
    ['l'],
    'Size L, Colour Red',
  ],
  ['no options: the title', { m: variant('m', []), l: variant('l', [], { title: 'Large' }) }, ['l'], 'Large'],
  [
    "Shopify's placeholder: the title",
    {
      m: variant('m', [{ name: 'Title', value: 'Default Title' }]),
      l: variant('l', [{ name: 'Title', value: 'Default Title' }], { title: 'Refill' }),
    },
    ['l'],
    'Refill',
  ],
  ['a variant the server did not describe', { m: variant('m', [size('M')]) }, ['ghost'], null],
])('exchangeOptionModels: %s', (_name, variants, ids, label) => {
  expect(exchangeOptionModels(ids, variants, 'm')[0]!.label).toBe(label)
})

test('exchangeOptionModels: availability follows the variant, unknown counts as available', () => {
  const variants = { m: variant('m', [size('M')]), xl: variant('xl', [size('XL')], { available: false }) }
  expect(exchangeOptionModels(['xl', 'ghost'], variants, 'm').map((option) => option.available)).toEqual([false, true])
})
