import { beginsAsRequired } from './orderName'

// The WHATWG "valid e-mail address" pattern (what <input type=email> accepts), with a dot in the
// domain as shop customers' addresses have.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** True when the e-mail (ignoring surrounding spaces) matches a standard address pattern. */
export function isValidEmail(email: string): boolean {
  const trimmed = email.trim()
  return trimmed.length <= 254 && EMAIL.test(trimmed)
}

/**
 * docs/rules.md §6.1: the start button is enabled only for a name (beginning with the shop's prefix
 * or 'EXC' when it has one), a valid e-mail, and no verify running.
 */
export function canStartReturn(
  orderName: string,
  email: string,
  verifying: boolean,
  orderPrefix: string | null | undefined,
): boolean {
  return orderName.trim() !== '' && beginsAsRequired(orderName, orderPrefix) && isValidEmail(email) && !verifying
}
