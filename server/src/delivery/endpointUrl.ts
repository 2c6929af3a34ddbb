/**
 * Where a webhook may go (docs/events.md: no request forgery): http(s) only, and only to public
 * addresses. Checked when an endpoint is saved, here, and again when each delivery connects
 * (webhook.ts), after DNS and on every redirect, so a name that later points inward is caught.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Public unicast only: loopback, private, link-local, unique-local and reserved are refused. An
 * IPv6 address that carries an IPv4 one (mapped, compatible, translated, NAT64, 6to4, Teredo) is
 * judged by the IPv4 address it carries, since that is where its packets end up.
 * @example isPublicAddress('::ffff:7f00:1') // false: 127.0.0.1, mapped
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast'
  const carried = carriedIPv4(parsed as ipaddr.IPv6)
  if (carried === 'refused') return false
  if (carried) return carried.every((embedded) => embedded.range() === 'unicast')
  return parsed.range() === 'unicast'
}

const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

/**
 * The IPv4 addresses an IPv6 address carries, null for none, or `refused` for a prefix whose
 * embedding is local (NAT64's local-use 64:ff9b:1::/48, whose translator is the network's own).
 */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | 'refused' | null {
  const p = address.parts
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0)
  // ::a.b.c.d (IPv4-compatible, RFC 4291), with :: and ::1 among them
  if (zeros(0, 6)) return [ipv4(p[6]!, p[7]!)]
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated, RFC 6145)
  if (zeros(0, 5) && p[5] === 0xffff) return [ipv4(p[6]!, p[7]!)]
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [ipv4(p[6]!, p[7]!)]
  // 64:ff9b::/96 (NAT64, RFC 6052); the rest of 64:ff9b::/32, local-use 64:ff9b:1::/48 (RFC 8215)
  // among it, is translated by the network's own translator, into anything
  if (p[0] === 0x64 && p[1] === 0xff9b) return zeros(2, 6) ? [ipv4(p[6]!, p[7]!)] : 'refused'
  // 2002:AABB:CCDD::/48 (6to4, RFC 3056)
  if (p[0] === 0x2002) return [ipv4(p[1]!, p[2]!)]
  // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC (Teredo, RFC 4380): the server, and the client's
  // address obfuscated (every bit flipped)
  if (p[0] === 0x2001 && p[1] === 0) return [ipv4(p[2]!, p[3]!), ipv4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)]
  return null
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
