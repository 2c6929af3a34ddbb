/** An order name as matched: no leading '#', no surrounding spaces, upper case (PRODUCT.md §4). */
export function orderNameKey(name: string): string {
  return name.trim().replace(/^#+/, '').trim().toUpperCase()
}

/** An e-mail as matched: no surrounding spaces, lower case (PRODUCT.md §4). */
export function emailKey(email: string): string {
  return email.trim().toLowerCase()
}
