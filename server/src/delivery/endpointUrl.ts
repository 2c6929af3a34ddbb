/**
 * Where a webhook may go (docs/events.md: no request forgery): http(s) only, and only to public
 * addresses. Checked when an endpoint is saved, here, and again when each delivery connects
 * (webhook.ts), after DNS and on every redirect, so a name that later points inward is caught.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** Public unicast only: loopback, private, link-local, unique-local, mapped and reserved are refused. */
export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.parse(address).range() === 'unicast'
}

/** Why `url` cannot be a webhook endpoint, in words that follow its field's name; null when it can. */
export async function endpointUrlProblem(url: string, allowPrivateNetworks: boolean): Promise<string | null> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'must be an absolute http(s) address, like "https://oms.example.com/hooks/rebound"'
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must start with https:// or http://'
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password'
  if (allowPrivateNetworks) return null
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (isIP(host) !== 0) addresses = [host]
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)
    } catch {
      return `names a host that cannot be found (${host})`
    }
  }
  const inward = addresses.find((address) => !isPublicAddress(address))
  if (inward !== undefined)
    return `points to a private, loopback or link-local address (${inward}); webhooks go to public addresses only`
  return null
}
