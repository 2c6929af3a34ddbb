import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ApiError, VerifiedOrder } from '../../contract/api'
import { ENCODING_AT_ONCE } from '../src/domain/cleanPhoto'
import { buildOrder, buildShop, portalOf } from './builders'
import { bigNoiseJpeg, photo } from './images'
import { freePort, importWithCli } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'

/**
 * The photo queue of the product as a shop runs it (server.ts started with a port and a data
 * directory only), each shopper an order of their own on a loopback address of their own. The
 * queue holds 8 photos waiting for each place, and 5 of one order's.
 */
const CAPACITY = 9 * ENCODING_AT_ONCE
const SHOPPERS = Math.ceil(CAPACITY / 5) + 2
/** The fairness test's tries, each with two shoppers of its own (their orders hold no photo of another's). */
const TRIES = 5
/** The flood's shoppers, then the fairness test's. */
const ORDERS = Array.from({ length: SHOPPERS + 2 * TRIES }, (_, i) => buildOrder({ name: `#${1001 + i}` }))
const SHOP = buildShop({ shop: 'north', orders: ORDERS })
const SLOW = 180_000

let server: ServerProcess
let dataDir: string
let tokens: string[]
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rebound-photo-queue-'))
  await importWithCli({ DATA_DIR: dataDir }, [SHOP])
  server = await startServer({ PORT: String(await freePort()), DATA_DIR: dataDir })
  tokens = await Promise.all(
    ORDERS.map(async (order, i) => {
      const answer = await server.callFrom<VerifiedOrder>(from(i), 'POST', '/portal-registration/verify', {
        order_name: order.name,
        email: order.email,
        ...portalOf(SHOP),
      })
      if (answer.status !== 200) throw new Error(`verify ${order.name}: ${answer.status}`)
      return answer.body.token
    }),
  )
}, SLOW)
afterAll(async () => {
  await server?.stop().catch(() => server.process.killAll())
  rmSync(dataDir, { recursive: true, force: true })
})

/** Shopper i's address: 127.0.0.2, 127.0.0.3, … */
const from = (i: number) => `127.0.0.${2 + i}`

interface Answer {
  status: number
  retryAfter: string | undefined
  body: ApiError
}

/** Shopper i's upload of `body`, over HTTP from their own address. */
function upload(i: number, body: Buffer, type = 'image/jpeg'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: server.port,
        localAddress: from(i),
        method: 'POST',
        path: '/portal-registration/photos',
        agent: false,
        headers: { authorization: `Bearer ${tokens[i]}`, 'content-type': type, 'content-length': body.byteLength },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ApiError,
          }),
        )
        response.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** Until /health counts `photos` prepared or waiting, or `gaveUp` says there is no point. */
async function queueHolds(photos: number, gaveUp: () => boolean): Promise<void> {
  for (;;) {
    const health = await server.call<{ photos: { preparing: number; waiting: number } }>('GET', '/health')
    if (health.body.photos.preparing + health.body.photos.waiting >= photos || gaveUp()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test(
  'more large photos at once than the queue holds: the rest are refused at once with 503 and retry-after, none lost',
  async () => {
    const large = await bigNoiseJpeg()
    const answers = await Promise.all(Array.from({ length: SHOPPERS * 5 }, (_, n) => upload(n % SHOPPERS, large)))
    const busy = answers.filter((answer) => answer.status === 503)
    expect(busy.length).toBeGreaterThan(0)
    for (const answer of busy) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1)
      expect(answer.body).toEqual({
        error: 'busy',
        message: 'Many photos are being prepared at the moment. Please try again in a few seconds.',
      })
    }
    expect(answers.filter((answer) => answer.status !== 503).map((answer) => answer.status)).toEqual(
      answers.filter((answer) => answer.status !== 503).map(() => 201),
    )
  },
  SLOW,
)

test(
  'a small photo of one shopper is done before most of another shopper’s five large ones queued first',
  async () => {
    const large = await bigNoiseJpeg()
    const small = await photo('image/png', { width: 320, height: 240 })
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const [theirShopper, myShopper] = [SHOPPERS + 2 * attempt, SHOPPERS + 2 * attempt + 1]
      const done: string[] = []
      const theirs = [1, 2, 3, 4, 5].map((n) =>
        upload(theirShopper, large).then((answer) => (done.push(`large ${n}`), answer)),
      )
      // Their five are in line once the queue holds five (a busy machine reads large bodies slowly).
      await queueHolds(5, () => done.length > 0)
      // A sixth of theirs is refused (429) when all five are still in line: the queue says so
      // itself. One taken (201) came after the first was done, and this try did not test what it
      // meant to.
      const probe = await upload(theirShopper, small, 'image/png')
      if (probe.status !== 429) {
        expect({ status: probe.status, body: probe.body }).toEqual({ status: 201, body: probe.body })
        await Promise.all(theirs)
        continue
      }
      const mine = await upload(myShopper, small, 'image/png')
      done.push('small')
      expect(mine.status).toBe(201)
      expect((await Promise.all(theirs)).map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201])
      const largeAfterSmall = done.length - 1 - done.indexOf('small')
      // One place: the one large photo running when the small one came, and at most one more.
      expect({ done, fair: largeAfterSmall >= 4 - ENCODING_AT_ONCE }).toEqual({ done, fair: true })
      return
    }
    throw new Error(`in ${TRIES} tries, one shopper's five photos were never all in line before a sixth`)
  },
  SLOW,
)
