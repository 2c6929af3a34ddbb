import { runInNewContext } from 'node:vm'
import { withAvailability, withProduct } from './catalogueUpdates'
import { sameJson } from './sameJson'
import type { CatalogueProduct } from './shop'

const product = (id: string, sizes: string[], available: Record<string, boolean> = {}): CatalogueProduct => ({
  id,
  title: id,
  variants: sizes.map((size) => ({
    id: `${id}-${size}`,
    options: [{ name: 'Size', value: size }],
    price: '25.00',
    ...(size in available ? { available: available[size] } : {}),
  })),
})

describe('withProduct', () => {
  const catalogue = [product('tee', ['s', 'm', 'l']), product('mug', ['one'])]

  test('replaces the product of its id in place, naming the variants it drops', () => {
    const next = withProduct(catalogue, product('tee', ['m', 'l', 'xl']))
    expect(next.created).toBe(false)
    expect(next.unchanged).toBe(false)
    expect(next.removedVariantIds).toEqual(['tee-s'])
    expect(next.catalogue.map((each) => each.id)).toEqual(['tee', 'mug'])
    expect(catalogue[0]!.variants).toHaveLength(3)
  })

  test('adds a new product at the end, and finds the same product unchanged whatever its keys’ order', () => {
    expect(withProduct(catalogue, product('cap', ['one']))).toMatchObject({ created: true, removedVariantIds: [] })
    const { variants, title, id } = product('mug', ['one'])
    expect(withProduct(catalogue, { variants, title, id }).unchanged).toBe(true)
  })
})

describe('withAvailability', () => {
  test('sets each named variant, counting only real changes; names the unknown ones by index', () => {
    const catalogue = [product('tee', ['s', 'm'], { m: false })]
    const next = withAvailability(catalogue, [
      { id: 'tee-s', available: true },
      { id: 'tee-m', available: true },
      { id: 'cap', available: true },
    ])
    expect(next.changed).toBe(1)
    expect(next.unknown).toEqual([2])
    expect(next.catalogue[0]!.variants.map((variant) => variant.available)).toEqual([undefined, true])
    expect(catalogue[0]!.variants[1]!.available).toBe(false)
  })
})

describe('sameJson', () => {
  test('compares as JSON: key order, undefined fields and the objects’ realm do not count', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1, d: undefined })).toBe(true)
    expect(sameJson(runInNewContext('({ a: [{ b: 1 }] })'), { a: [{ b: 1 }] })).toBe(true)
    expect(sameJson(new Date(5), new Date(5))).toBe(true)
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false)
    expect(sameJson([1, 2], [2, 1])).toBe(false)
    expect(sameJson({ a: null }, {})).toBe(false)
    expect(sameJson(new Date(5), '1970-01-01T00:00:00.005Z')).toBe(false)
  })
})
