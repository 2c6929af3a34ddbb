/** An order name as matched: no leading '#', no surrounding spaces, upper case (docs/rules.md §11.4). */
export function orderNameKey(name: string): string {
  // '#' and spaces in any mix: stripping them in one pass keeps the key its own key ("# #1001" was
  // "#1001" and that "1001": a shopper typing a key would not find the order).
  return name
    .replace(/^[\s#]+/, '')
    .trim()
    .toUpperCase()
}

/** An e-mail as matched: no surrounding spaces, lower case (docs/rules.md §11.4). */
export function emailKey(email: string): string {
  return email.trim().toLowerCase()
}
