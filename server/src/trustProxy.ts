import { isIP } from 'node:net'

/** proxy-addr's names for address ranges, which Fastify's trustProxy takes as well. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true
  const [address = '', bits, ...rest] = entry.split('/')
  const version = isIP(address)
  if (!version || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128)
}

/**
 * TRUST_PROXY, for Fastify's trustProxy: the addresses and ranges of the proxies in front of the
 * API (`10.0.0.0/8,loopback`); unset: none. A client's address is then the one the nearest trusted
 * proxy saw. "Every proxy" (`1`, `true`) is refused: it takes the left end of X-Forwarded-For,
 * which a client writes itself, so anyone could step around the per-client rate limits by
 * sending a new one each time; a hop count cannot tell a proxy from a client either (Fastify
 * refuses it for that reason).
 */
export function trustProxyFrom(value: string | undefined): false | string[] {
  const text = value?.trim() ?? ''
  if (text === '' || text === '0' || text === 'false') return false
  const entries = text.split(',').map((entry) => entry.trim())
  const wrong = entries.find((entry) => !isAddressOrRange(entry))
  if (wrong === undefined) return entries
  const why =
    wrong === 'true' || wrong === '1'
      ? 'trusting any proxy lets every client choose its own address (X-Forwarded-For); name the load balancer instead'
      : /^\d+$/.test(wrong)
        ? 'a number of proxies cannot tell a proxy from a client that writes X-Forwarded-For itself; name the load balancer instead'
        : 'it is not an address or a range'
  throw new Error(
    `TRUST_PROXY: ${JSON.stringify(wrong)} is refused: ${why}. Give the proxies' addresses or ranges, e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback`,
  )
}
