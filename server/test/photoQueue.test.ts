import type { LightMyRequestResponse } from 'fastify'
import type { UploadedPhoto, VerifiedOrder } from '../../contract/api'
import { ENCODING_AT_ONCE, photoQueue } from '../src/domain/cleanPhoto'
import { buildOrder, buildShop } from './builders'
import { bearer, engines, loadShops, startApi, type TestApi, verified } from './harness'
import { bigNoiseJpeg, photo } from './images'

/** Three shoppers of one shop, each a client of the photo queue of their own. */
const orders = [
  buildOrder({ name: '#1001', email: 'ann@example.com' }),
  buildOrder({ name: '#1002', email: 'bob@example.com' }),
  buildOrder({ name: '#1003', email: 'cat@example.com' }),
]
const SHOP = buildShop({ shop: 'north', orders })

/** Places of the photo queue held until released: the queue as busy as the test needs, at once. */
function holdPlaces(count: number, client = 'someone else') {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const held = Array.from({ length: count }, (_, n) => photoQueue.run(`${client} ${n}`, () => released))
  return {
    release: async () => {
      release()
      await Promise.all(held)
    },
  }
}

/** Waits until the photo queue holds what `enough` asks for (requests reach it in their own time). */
async function until(enough: () => boolean, what: string) {
  const deadline = Date.now() + 60_000
  while (!enough()) {
    if (Date.now() > deadline)
      throw new Error(`the photo queue never held ${what}: ${JSON.stringify(photoQueue.load())}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe.each(engines())('the photo queue on %s', (engine) => {
  let api: TestApi
  let shoppers: VerifiedOrder[]
  beforeAll(async () => {
    api = await startApi(engine, [SHOP])
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await loadShops(api.db, [SHOP])
    shoppers = await Promise.all(orders.map((order) => verified(api.app, SHOP, order)))
  })
  afterEach(() => expect(photoQueue.load()).toEqual({ running: 0, waiting: 0 }))

  const upload = (shopper: VerifiedOrder, body: Buffer, type = 'image/png') =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { ...bearer(shopper.token), 'content-type': type },
      payload: body,
    })
  const stored = async () => (await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM photos'))[0]!.n

  test('a full queue answers 503 at once, with retry-after in seconds and the API’s error body; nothing is stored', async () => {
    const { limits } = photoQueue
    const busy = holdPlaces(limits.atOnce + limits.waiting)
    try {
      const refused = await upload(shoppers[0]!, await photo())
      expect(refused.statusCode).toBe(503)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(refused.json()).toEqual({
        error: 'busy',
        message: 'Many photos are being prepared at the moment. Please try again in a few seconds.',
      })
      expect(await stored()).toBe(0)
    } finally {
      await busy.release()
    }
    // Once the queue has room, the same photo is taken.
    expect((await upload(shoppers[0]!, await photo())).statusCode).toBe(201)
  })

  test('a shopper with 5 photos in the queue is told to wait for them (429, retry-after); another shopper is not', async () => {
    const busy = holdPlaces(ENCODING_AT_ONCE)
    const image = await photo()
    const mine = Array.from({ length: 5 }, () => upload(shoppers[0]!, image))
    try {
      await until(() => photoQueue.load(`order:${shoppers[0]!.order_id}`).waiting === 5, 'the 5 photos')
      const sixth = await upload(shoppers[0]!, image)
      expect(sixth.statusCode).toBe(429)
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(sixth.json()).toMatchObject({ error: 'too_many_uploads' })
      const theirs = upload(shoppers[1]!, image)
      await until(() => photoQueue.load(`order:${shoppers[1]!.order_id}`).waiting === 1, 'the other shopper’s photo')
      await busy.release()
      expect((await theirs).statusCode).toBe(201)
    } finally {
      await busy.release()
    }
    expect((await Promise.all(mine)).map((response) => response.statusCode)).toEqual([201, 201, 201, 201, 201])
  })

  test('a small photo of one shopper is done before another shopper’s large ones that were queued first', async () => {
    const large = await bigNoiseJpeg()
    const done: string[] = []
    const track = (name: string, sent: Promise<LightMyRequestResponse>) =>
      sent.then((response) => {
        done.push(name)
        return response
      })
    const small = await photo()
    const a = shoppers[0]!
    const b = shoppers[1]!
    const busy = holdPlaces(ENCODING_AT_ONCE)
    // Five large photos queued first, all waiting; then one small photo of another shopper.
    const theirs = [1, 2, 3, 4, 5].map((n) => track(`large ${n}`, upload(a, large, 'image/jpeg')))
    const queued = (async () => {
      await until(() => photoQueue.load(`order:${a.order_id}`).waiting === 5, 'the 5 large photos')
      const answer = track('small', upload(b, small))
      await until(() => photoQueue.load(`order:${b.order_id}`).waiting === 1, 'the small photo')
      return { answer }
    })()
    const { answer: mine } = await queued.finally(() => busy.release())
    const answers = await Promise.all([...theirs, mine])
    expect(answers.map((response) => response.statusCode)).toEqual([201, 201, 201, 201, 201, 201])
    expect(answers.at(-1)!.json<UploadedPhoto>().content_type).toBe('image/png')
    // The small photo waits for at most one large photo for each place, not for all five.
    const largeAfterSmall = done.length - 1 - done.indexOf('small')
    expect({ done, largeAfterSmall: largeAfterSmall >= 5 - ENCODING_AT_ONCE }).toEqual({
      done,
      largeAfterSmall: true,
    })
  }, 120_000)
})
