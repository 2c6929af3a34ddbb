import type { AddressWithLines } from '../../contract/api'
import { apiUrl } from '../api/portalApi'
import { safeUrl } from '../shop/sanitizeConfig'

/** The label's URL: API-relative ones on the API host; only http(s) is used. */
export function labelHref(labelUrl: string): string | null {
  return safeUrl(labelUrl.startsWith('/') ? apiUrl(labelUrl) : labelUrl)
}

/** The SVG as an image URL: shown by <img>, so it can run nothing and touch nothing on the page. */
export const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`

function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code
  } catch {
    return code
  }
}

/**
 * Where the parcel goes, line by line as its country writes them (the server's `lines`; an answer
 * stored before they existed falls back to postcode and town), the country in the shopper's language.
 */
export function ReturnAddress({
  address,
  locale,
  className = 'instructions__address',
}: {
  address: AddressWithLines
  locale: string
  className?: string
}) {
  return (
    <address className={className}>
      {[
        address.name,
        ...(address.lines ?? [address.line1, address.line2, `${address.postal_code} ${address.city}`]),
        countryName(address.country_code, locale),
      ]
        .filter(Boolean)
        .map((line, index) => (
          <span key={index}>{line}</span>
        ))}
    </address>
  )
}
