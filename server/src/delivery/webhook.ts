/**
 * One webhook delivery (docs/events.md): the Standard Webhooks envelope, signed with the
 * endpoint's secret by the `standardwebhooks` library, POSTed within 10 s. A 2xx answer is done;
 * anything else, a refused address or a timeout is a failed attempt, tried again later.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { isPublicAddress } from './endpointUrl'

/** How long a receiver (or the mail server) has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 3

export interface WebhookDelivery {
  url: string
  secret: string
  /** the message id (webhook-id), the same on every attempt */
  id: string
  body: string
  at: Date
}

export interface WebhookOutcome {
  ok: boolean
  statusCode: number | null
  error: string | null
}

/** The signed headers of a delivery. */
export function signedHeaders(delivery: Pick<WebhookDelivery, 'secret' | 'id' | 'body' | 'at'>) {
  const timestamp = Math.floor(delivery.at.getTime() / 1000)
  return {
    'content-type': 'application/json',
    'user-agent': 'Rebound-Webhooks/1',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': new Webhook(delivery.secret).sign(delivery.id, new Date(timestamp * 1000), delivery.body),
  }
}

/**
 * POSTs the delivery and follows up to 3 redirects (each to http(s) only, each connection checked
 * after DNS by the rule of a saved endpoint, `isPublicAddress`). With `allowPrivateNetworks`,
 * inward addresses are allowed.
 */
export async function sendWebhook(
  delivery: WebhookDelivery,
  allowPrivateNetworks: boolean,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<WebhookOutcome> {
  const headers = signedHeaders(delivery)
  const deadline = Date.now() + timeoutMs
  let url = delivery.url
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let answer: { status: number; location: string | undefined }
    try {
      answer = await post(url, headers, delivery.body, allowPrivateNetworks, deadline - Date.now())
    } catch (error) {
      return { ok: false, statusCode: null, error: describe(error, timeoutMs) }
    }
    if (answer.status >= 200 && answer.status < 300) return { ok: true, statusCode: answer.status, error: null }
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      const next = new URL(answer.location, url)
      if (next.protocol !== 'https:' && next.protocol !== 'http:')
        return { ok: false, statusCode: answer.status, error: `Redirected to a ${next.protocol} address.` }
      url = next.toString()
      continue
    }
    return { ok: false, statusCode: answer.status, error: `Answered ${answer.status}.` }
  }
  return { ok: false, statusCode: null, error: `More than ${MAX_REDIRECTS} redirects.` }
}

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivateNetworks: boolean,
  timeoutMs: number,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    if (timeoutMs <= 0) return reject(new Error('timeout'))
    const target = new URL(url)
    // An address in the URL is connected to without DNS; a name goes through `publicOnly`.
    const literal = target.hostname.replace(/^\[|\]$/g, '')
    if (!allowPrivateNetworks && isIP(literal) !== 0 && !isPublicAddress(literal))
      return reject(new Error(`${literal} is not allowed`))
    const send = target.protocol === 'https:' ? https.request : http.request
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        ...(allowPrivateNetworks ? {} : { lookup: publicOnly }),
        timeout: timeoutMs,
      },
      (response) => {
        // What the receiver says is not kept: only its status.
        response.resume()
        response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }))
        response.on('error', reject)
      },
    )
    const timer = setTimeout(() => request.destroy(new Error('timeout')), timeoutMs)
    request.on('close', () => clearTimeout(timer))
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', reject)
    request.end(body)
  })
}

/** dns.lookup that fails when any address of the name is not public (net asks for all of them). */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0)
    const inward = addresses.find((entry) => !isPublicAddress(entry.address))
    if (inward) return callback(new Error(`${inward.address} is not allowed`), '', 0)
    if (options.all) return callback(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

function describe(error: unknown, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error)
  if (message === 'timeout') return `No answer within ${timeoutMs / 1000} s.`
  if (/is not allowed/.test(message)) return 'Refused: the address is private, loopback or link-local.'
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? `Could not connect (${code}).` : message
}
