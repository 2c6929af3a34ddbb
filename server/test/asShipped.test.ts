import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReturnInstructions, ReturnOrder, VerifiedOrder } from '../../contract/api'
import { buildOrder, buildShop, portalOf } from './builders'
import { freePort, importWithCli, oneUnit } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'

/**
 * The product as a shop runs it: `server.ts` started with no settings but a port and a data
 * directory (no VERIFY_*, no TRUST_PROXY, no LOG_LEVEL), called over HTTP. Every limit docs/settings.md
 * states must hold here, not only in an app built with test options. Clients are told apart by
 * their loopback address (127.0.0.2 is another client than 127.0.0.3), as phones are by theirs.
 */

const SLOW = 120_000
const FLOOR_MS = 250

/** #1001, guessed at; ten orders #1002 to #1011, timed; #1005 of them is returned from. */
const jane = buildOrder({ name: '#1001', email: 'jane@example.com' })
const ORDERS = Array.from({ length: 10 }, (_, i) => buildOrder({ name: `#${1002 + i}` }))
const solo = ORDERS[3]!
const SHOP = buildShop({ shop: 'north', orders: [jane, ...ORDERS] })

let server: ServerProcess
let dataDir: string
type Held = { ms: number; received: string }
let held: Promise<[Held, Held, Held]>
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rebound-shipped-'))
  // The shop is imported as an operator does before a first start (the import CLI).
  await importWithCli({ DATA_DIR: dataDir }, [SHOP])
  server = await startServer({ PORT: String(await freePort()), DATA_DIR: dataDir })
  // Held from the start, beside the other tests (they wait on the server's time limits, not on
  // its work), and looked at by the last test.
  held = Promise.all([
    heldConnection((write) => {
      write(
        'POST /portal-registration/verify HTTP/1.1\r\nHost: north.localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      )
      return setInterval(() => write(' '), 2_000)
    }),
    heldConnection((write) => {
      write('GET /health HTTP/1.1\r\nHost: north.localhost\r\n')
      return setInterval(() => write('X-Slow: 1\r\n'), 2_000)
    }),
    heldConnection(() => null),
  ])
  held.catch(() => {})
}, 120_000)
afterAll(async () => {
  await server?.stop().catch(() => server.process.killAll())
  rmSync(dataDir, { recursive: true, force: true })
})

const guess = (from: string, order_name: string, email = 'nobody@example.com') =>
  server.callFrom<{ error: string }>(from, 'POST', '/portal-registration/verify', {
    order_name,
    email,
    ...portalOf(SHOP),
  })

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

test(
  "one client's 31st verify within a minute is a 429; the 30 before are each a 400 that took at least 250 ms",
  async () => {
    const client = '127.0.0.2'
    for (let i = 0; i < 30; i++) {
      const answer = await guess(client, `#77${String(i).padStart(3, '0')}`)
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error: 'invalid_order' } })
      expect(answer.ms).toBeGreaterThanOrEqual(FLOOR_MS)
      expect(answer.headers['x-ratelimit-limit']).toBe('30')
    }
    const refused = await guess(client, '#77999')
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ error: 'too_many_attempts' })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Another client is not held back by it.
    expect((await guess('127.0.0.3', '#77999')).status).toBe(400)
  },
  SLOW,
)

test(
  'the 11th verify at one order name within a minute is a 429, whichever client sends it and however the name is written',
  async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await guess(`127.0.1.${i + 1}`, '#1001', `guess${i}@example.com`)
      expect(answer.status).toBe(400)
      expect(answer.ms).toBeGreaterThanOrEqual(FLOOR_MS)
    }
    expect((await guess('127.0.1.11', '1001', 'jane@example.com')).status).toBe(429)
    expect((await guess('127.0.1.12', ' #1001', 'jane@example.com')).status).toBe(429)
  },
  SLOW,
)

test(
  'a failed verify takes as long for an order that exists (a wrong e-mail) as for one that does not',
  async () => {
    // Ten orders of the shop, three wrong e-mails each (within the ten a minute an order allows),
    // each beside a name no order has, from a client of their own.
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 30; i++) {
      const from = `127.0.2.${i + 1}`
      const order = `#${1002 + (i % 10)}`
      const [exists, missing] = [
        await guess(from, order, `wrong${i}@example.com`),
        await guess(from, `#88${String(i).padStart(3, '0')}`),
      ]
      expect([exists.status, missing.status]).toEqual([400, 400])
      known.push(exists.ms)
      unknown.push(missing.ms)
    }
    expect(Math.min(...known, ...unknown)).toBeGreaterThanOrEqual(FLOOR_MS)
    const [a, b] = [median(known), median(unknown)]
    // Without the floor the medians were ~1.5 ms and ~3 ms (a ratio of 2); with it both are the
    // floor and a little. A machine busy with other work adds its own noise to each (1.07 was seen
    // beside two busy loops), so the bound is 1.2: well under what an order's existence showed.
    expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(1.2)
  },
  SLOW,
)

/** Opens a connection, runs `drip` on it, and resolves with when and how the server ended it. */
function heldConnection(drip: (write: (text: string) => boolean) => NodeJS.Timeout | null): Promise<Held> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const socket = connect({ host: '127.0.0.1', port: server.port })
    let received = ''
    let timer: NodeJS.Timeout | null = null
    // A bound on the test itself: a server that never cuts the connection fails it, not hangs it.
    const giveUp = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server still held the connection after 45 s; it sent ${JSON.stringify(received)}`))
    }, 45_000)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.on('connect', () => (timer = drip((text) => socket.write(text))))
    socket.on('error', () => {})
    socket.on('close', () => {
      if (timer) clearInterval(timer)
      clearTimeout(giveUp)
      resolve({ ms: performance.now() - started, received })
    })
  })
}

test(
  'the request log shows that a status link and a label link were opened, but not their signatures',
  async () => {
    const from = '127.0.3.1'
    const verified = await server.callFrom<VerifiedOrder>(from, 'POST', '/portal-registration/verify', {
      order_name: solo.name,
      email: solo.email,
      ...portalOf(SHOP),
    })
    expect(verified.status).toBe(200)
    const auth = { authorization: `Bearer ${verified.body.token}` }
    const submitted = await server.callFrom<ReturnOrder>(
      from,
      'POST',
      '/portal-registration/returns',
      oneUnit(verified.body.line_items[0]!.id),
      {
        ...auth,
        'idempotency-key': 'shipped-log-test',
      },
    )
    expect(submitted.status).toBe(201)
    const id = submitted.body.id!
    const instructions = await server.callFrom<ReturnInstructions>(
      from,
      'GET',
      `/portal-registration/returns/${id}/instructions`,
      undefined,
      auth,
    )
    expect(instructions.status).toBe(200)
    const { label_url: labelUrl, status_token: statusToken } = instructions.body
    const labelSignature = new URL(labelUrl, 'http://x').searchParams.get('signature')!
    expect((await server.callFrom(from, 'GET', labelUrl)).status).toBe(200)
    expect(
      (await server.callFrom(from, 'GET', `/portal-registration/returns/${id}/status?signature=${statusToken}`)).status,
    ).toBe(200)
    // The log is written as each request completes: wait until both lines reached the pipe.
    const opened = [`/portal-registration/returns/${id}/label.pdf?`, `/portal-registration/returns/${id}/status?`]
    const deadline = Date.now() + 20_000
    while (!opened.every((line) => server.log().includes(line)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    const log = server.log()
    expect(log).toContain(`/portal-registration/returns/${id}/label.pdf?expires=…&signature=…`)
    expect(log).toContain(`/portal-registration/returns/${id}/status?signature=…`)
    expect(log).not.toContain(labelSignature)
    expect(log).not.toContain(statusToken)
  },
  SLOW,
)

test("Fastify's own refusals answer as every error does: {error, message}", async () => {
  for (const path of ['/portal-registration/returns/%E0%A4%A/status', '/portal-registration/config/%ZZ']) {
    const answer = await server.call('GET', path)
    expect({ path, status: answer.status, body: answer.body }).toEqual({
      path,
      status: 400,
      body: { error: 'invalid_request', message: 'The address is not valid.' },
    })
  }
})

test(
  'a body that trickles in, headers that never end and an idle connection are each cut within 30 s',
  async () => {
    const [trickledBody, endlessHeaders, quiet] = await held
    for (const connection of [trickledBody, endlessHeaders, quiet]) expect(connection.ms).toBeLessThanOrEqual(30_000)
    // The body's sender is told why: the request took too long.
    expect(trickledBody.received).toMatch(/^HTTP\/1\.1 408/)
    // Each was held a while, so it was the time limit that ended it (not a refusal at once).
    expect(Math.min(trickledBody.ms, endlessHeaders.ms, quiet.ms)).toBeGreaterThan(10_000)
  },
  SLOW,
)
