/** The longest order name the API takes (VerifyRequest's `order_name` in contract/api.ts). */
export const ORDER_NAME_MAX = 100

/** The alternative order-name prefix of exchange orders (docs/rules.md §13.5). */
export const EXCHANGE_PREFIX = 'EXC'

const startsOrBegins = (value: string, prefix: string) => value.startsWith(prefix) || prefix.startsWith(value)
/** The shop's order prefix as the rules use it: upper case, '' for none. */
const shopPrefix = (orderPrefix: string | null | undefined) => (orderPrefix ?? '').trim().toUpperCase()

/**
 * docs/rules.md §6.2: with a prefix configured, an order name must begin with it or with 'EXC'. A
 * beginning of either ('A', 'EX'), kept while typing, is not yet an order name.
 */
export function beginsAsRequired(orderName: string, orderPrefix: string | null | undefined): boolean {
  const prefix = shopPrefix(orderPrefix)
  const name = orderName.trim()
  return prefix === '' || name.startsWith(prefix) || name.startsWith(EXCHANGE_PREFIX)
}

/**
 * Applies docs/rules.md §6.2 to what the shopper typed. With a prefix configured the order name is
 * upper case and begins with the prefix or 'EXC'; input that deviates becomes the prefix plus the
 * differing remainder. A beginning of either prefix is kept, so 'EXC2001' can be typed key by key.
 * Without a prefix the input is left as typed. Idempotent: rewriting twice changes nothing.
 * @example rewriteOrderName('1001', 'AC') // 'AC1001'
 * @example rewriteOrderName('a1', 'AC') // 'AC1'
 */
export function rewriteOrderName(input: string, orderPrefix: string | null | undefined): string {
  const prefix = shopPrefix(orderPrefix)
  if (prefix === '') return input
  const upper = input.toUpperCase()
  if (startsOrBegins(upper, prefix) || startsOrBegins(upper, EXCHANGE_PREFIX)) return upper
  // A leading '#' or space is not part of an order name (the API ignores it too).
  const bare = upper.replace(/^[\s#]+/, '')
  if (bare.startsWith(prefix) || bare.startsWith(EXCHANGE_PREFIX)) return bare
  // '#', '#A': the start of '#AC1001' typed key by key, kept until the prefix is whole and then
  // rewritten as a paste is ('ACAC1001' otherwise).
  if (upper.trimStart().startsWith('#') && (prefix.startsWith(bare) || EXCHANGE_PREFIX.startsWith(bare)))
    return `#${bare}`
  let shared = 0
  while (shared < prefix.length && bare[shared] === prefix[shared]) shared += 1
  return prefix + bare.slice(shared)
}
