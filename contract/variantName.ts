/**
 * How a variant is named by its options, the same in the portal and in e-mails (decision 0066):
 * "Size 43", "Colour Blue, Size M", a size or a waist named in the reader's language.
 */

/** Option names that hold a size (a waist too), in the shop languages we speak, in lower case. */
export const SIZE_NAMES: ReadonlySet<string> = new Set([
  'size',
  'waist',
  'größe',
  'grösse',
  'groesse',
  'taille',
  'talla',
  'tamaño',
])

/** What an option name means: a size, a waist, or something of the shop's own (null). */
export function sizeKind(name: string): 'size' | 'waist' | null {
  const key = name.trim().toLowerCase()
  return key === 'waist' ? 'waist' : SIZE_NAMES.has(key) ? 'size' : null
}

/** Shopify's placeholder for a product without real options names nothing the shopper can pick. */
export const isPlaceholderOption = (value: string) => value.trim() === '' || value === 'Default Title'

/**
 * A variant by its options, each with its name as `nameOf` says it ("Größe 43"); a value that
 * already says its option's name stands alone ("One size", not "Size One size"); null without
 * options (or with only a placeholder's).
 */
export function optionsName(
  options: readonly { name: string; value: string }[] | null | undefined,
  nameOf: (name: string) => string,
): string | null {
  const named = (options ?? []).filter((option) => !isPlaceholderOption(option.value))
  if (named.length === 0) return null
  return named
    .map(({ name, value }) => {
      const said = value.toLowerCase().includes(name.trim().toLowerCase())
      return said ? value : `${nameOf(name)} ${value}`
    })
    .join(', ')
}
