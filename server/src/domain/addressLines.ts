import { format } from '@fragaria/address-formatter'
import type { Address, AddressWithLines } from '../../../contract/api'

/**
 * An address's street, town and postcode lines as its country writes them, from OpenCage's
 * address-formatting templates (US "Phoenix, AZ 85001", DE "20457 Hamburg", GB postcode on a line
 * of its own). The name and the country are the caller's: the label prints the code, the portal
 * the country's name in the shopper's language. docs/shop-file.md lists the fields.
 * @example addressLines({ name: 'Ada', line1: '1 Road Runner Way', city: 'Phoenix', region: 'AZ', postal_code: '85001', country_code: 'US' })
 * // ['1 Road Runner Way', 'Phoenix, AZ 85001']
 */
export function addressLines(address: Address): string[] {
  const lines = format(
    {
      road: address.line1,
      city: address.city,
      postcode: address.postal_code,
      ...(address.region ? { state: address.region } : {}),
      countryCode: address.country_code,
    },
    { output: 'array', fallbackCountryCode: 'US' },
  )
  // The templates have no second street line: it follows the first, wherever the country puts that.
  const street = lines.indexOf(address.line1.trim())
  const line2 = address.line2?.trim()
  if (line2) lines.splice(street === -1 ? 1 : street + 1, 0, line2)
  return lines
}

/** The address with its lines, as the API answers it. */
export const withLines = (address: Address): AddressWithLines => ({ ...address, lines: addressLines(address) })
