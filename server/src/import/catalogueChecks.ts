/**
 * The checks of a catalogue product that its schema cannot express (the shop file's `catalogue[]`,
 * and the Orders API's product): ids that are not reserved names, variant ids unique across the
 * catalogue, amounts in the shop's currency, URLs, and variants that differ by the same options.
 */
import type { Segment } from './errorLines'
import type { FieldChecks } from './fieldChecks'
import type { CatalogueProductFile } from './shopFileSchema'

/**
 * One product, its fields named under `at` (`catalogue[3]` in a file, nothing for the Orders
 * API's body). `variantIds` are the catalogue's variant ids met so far: another product's id
 * again is an error, and this product's are added.
 */
export function checkProduct(
  product: CatalogueProductFile,
  at: Segment[],
  variantIds: Set<string>,
  { id, url, amount, fail }: FieldChecks,
): void {
  id([...at, 'id'], product.id)
  url([...at, 'image_src'], product.image_src)
  const optionNames = product.variants[0]?.options.map((o) => o.name).join('\u0000')
  const combinations = new Set<string>()
  product.variants.forEach((variant, v) => {
    const variantAt: Segment[] = [...at, 'variants', v]
    id([...variantAt, 'id'], variant.id)
    if (variantIds.has(variant.id))
      fail([...variantAt, 'id'], `"${variant.id}" is used by another variant of the catalogue`)
    variantIds.add(variant.id)
    amount([...variantAt, 'price'], variant.price)
    url([...variantAt, 'image_src'], variant.image_src)
    const names = variant.options.map((o) => o.name)
    if (new Set(names).size !== names.length) fail([...variantAt, 'options'], 'names an option twice')
    if (names.join('\u0000') !== optionNames) {
      fail([...variantAt, 'options'], "must name the same options, in the same order, as the product's first variant")
    }
    const combination = variant.options.map((o) => o.value).join('\u0000')
    if (combinations.has(combination)) {
      fail(
        [...variantAt, 'options'],
        'has the same option values as another variant of this product; variants must differ by their options',
      )
    }
    combinations.add(combination)
  })
}
