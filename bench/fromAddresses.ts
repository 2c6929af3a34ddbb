/**
 * Load from many client addresses (bench/verifyReplicas.ts): each client is one keep-alive
 * connection whose socket is bound to its own loopback address (127.0.0.2, 127.0.0.3…; Linux
 * routes all of 127.0.0.0/8 on lo), so the server sees as many clients as a real deployment
 * would, each by its own source address, with no proxy header to trust. autocannon cannot bind its
 * sockets, so this is node:http with one agent per address; latencies go into an HDR histogram as
 * autocannon's do.
 */
import * as hdr from 'hdr-histogram-js'
import { Agent, request } from 'node:http'

/** The loopback address of client `index` (0-based): 127.0.0.2 and on, within 127.0.0.0/8. */
export function clientAddress(index: number): string {
  const n = index + 2
  return `127.0.${Math.floor(n / 256)}.${n % 256}`
}

export interface Call {
  method: 'GET' | 'POST'
  path: string
  body?: string
}

export interface Answer {
  status: number
  body: string
}

/** One request on `agent` (or a fresh socket bound to `localAddress`), with its answer. */
export function send(port: number, call: Call, bind: { agent?: Agent; localAddress?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = call.body === undefined ? undefined : Buffer.from(call.body)
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: call.method,
        path: call.path,
        ...(bind.agent ? { agent: bind.agent } : { agent: false, localAddress: bind.localAddress }),
        headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
        response.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

export interface Load {
  rps: number
  /** ms */
  p50: number
  p99: number
  /** answers by status */
  statuses: Record<number, number>
  errors: number
  /** µs of this process's CPU (the load generator's) an answer took */
  generatorCpuUs: number
}

/**
 * `clients` clients, each one connection from its own address to `ports[client % ports.length]`
 * (a balancer that keeps a connection on one replica), each sending `next(client, n)` as soon as
 * its previous answer came, for `seconds`.
 */
export async function loadFromAddresses(
  ports: number[],
  clients: number,
  seconds: number,
  next: (client: number, n: number) => Call,
): Promise<Load> {
  const histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  })
  const statuses: Record<number, number> = {}
  let errors = 0
  let answered = 0
  const agents = Array.from(
    { length: clients },
    (_, client) => new Agent({ keepAlive: true, maxSockets: 1, localAddress: clientAddress(client) }),
  )
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const until = started + seconds * 1000
  await Promise.all(
    agents.map(async (agent, client) => {
      const port = ports[client % ports.length]!
      for (let n = 0; performance.now() < until; n++) {
        const sent = performance.now()
        try {
          const { status } = await send(port, next(client, n), { agent })
          histogram.recordValue(Math.round((performance.now() - sent) * 1000))
          statuses[status] = (statuses[status] ?? 0) + 1
          answered++
        } catch {
          errors++
        }
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  for (const agent of agents) agent.destroy()
  const ms = (percentile: number) => Math.round(histogram.getValueAtPercentile(percentile) / 100) / 10
  const load = {
    rps: Math.round(answered / elapsed),
    p50: ms(50),
    p99: ms(99),
    statuses,
    errors,
    generatorCpuUs: Math.round((cpu.user + cpu.system) / Math.max(answered, 1)),
  }
  histogram.destroy()
  return load
}
