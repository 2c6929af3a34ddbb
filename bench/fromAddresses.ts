/**
 * Load from many client addresses (bench/verifyReplicas.ts): each client is one keep-alive
 * connection whose socket is bound to its own loopback address (127.0.0.2, 127.0.0.3…; Linux
 * routes all of 127.0.0.0/8 on lo), so the server sees as many clients as a real deployment
 * would, each by its own source address, with no proxy header to trust. autocannon cannot bind its
 * sockets, so the load is a small HTTP/1.1 client of its own on node:net (one request at a time per
 * connection, no pipelining); latencies go into an HDR histogram as autocannon's do.
 */
import * as hdr from 'hdr-histogram-js'
import { request, type Agent } from 'node:http'
import { connect, type Socket } from 'node:net'

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
 * One client's keep-alive connection, bound to its address, with as little work a request as
 * HTTP/1.1 allows: the request written as one buffer, the answer read by its status line and its
 * content-length. node:http's client took 80–200 µs of CPU a request on this machine, as much as
 * the bare route's server, on the same two cores (docs/benchmarks.md).
 */
class Connection {
  private socket: Socket | null = null
  private buffered: Buffer | null = null
  private waiting: { resolve: (status: number) => void; reject: (error: Error) => void } | null = null

  constructor(
    private readonly port: number,
    private readonly localAddress: string,
  ) {}

  /** Sends one request (bytes of requestBytes) and resolves with its answer's status. */
  send(bytes: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
      this.open().write(bytes)
    })
  }

  close() {
    this.socket?.destroy()
    this.socket = null
  }

  private open(): Socket {
    if (this.socket) return this.socket
    const socket = connect({ host: '127.0.0.1', port: this.port, localAddress: this.localAddress, noDelay: true })
    socket.on('data', (chunk: Buffer) => this.read(chunk))
    const lost = (error?: Error) => {
      if (this.socket === socket) this.socket = null
      this.buffered = null
      const waiting = this.waiting
      this.waiting = null
      waiting?.reject(error ?? new Error('connection closed'))
    }
    socket.on('error', lost)
    socket.on('close', () => lost())
    return (this.socket = socket)
  }

  private read(chunk: Buffer) {
    const buffer = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk
    const headEnd = buffer.indexOf('\r\n\r\n')
    const length = headEnd < 0 ? null : /\r\ncontent-length: *(\d+)/i.exec(buffer.toString('latin1', 0, headEnd))
    const total = length ? headEnd + 4 + Number(length[1]) : Infinity
    if (headEnd >= 0 && !length) {
      this.close()
      this.waiting?.reject(new Error('an answer without content-length'))
      this.waiting = null
      return
    }
    if (buffer.length < total) {
      this.buffered = buffer
      return
    }
    this.buffered = buffer.length > total ? buffer.subarray(total) : null
    const waiting = this.waiting
    this.waiting = null
    waiting?.resolve(Number(buffer.toString('latin1', 9, 12)))
  }
}

/** A call as the bytes of an HTTP/1.1 request to 127.0.0.1:`port`, the headers node:http sends. */
function requestBytes(port: number, call: Call): Buffer {
  const body = call.body === undefined ? null : Buffer.from(call.body)
  const head = [
    `${call.method} ${call.path} HTTP/1.1`,
    ...(body ? ['content-type: application/json', `content-length: ${body.length}`] : []),
    `Host: 127.0.0.1:${port}`,
    'Connection: keep-alive',
  ]
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), ...(body ? [body] : [])])
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
  const connections = Array.from(
    { length: clients },
    (_, client) => new Connection(ports[client % ports.length]!, clientAddress(client)),
  )
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const until = started + seconds * 1000
  await Promise.all(
    connections.map(async (connection, client) => {
      const port = ports[client % ports.length]!
      for (let n = 0; performance.now() < until; n++) {
        const bytes = requestBytes(port, next(client, n))
        const sent = performance.now()
        try {
          const status = await connection.send(bytes)
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
  for (const connection of connections) connection.close()
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
