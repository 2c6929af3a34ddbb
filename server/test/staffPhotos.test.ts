import { randomBytes } from 'node:crypto'
import type { ApiError } from '../../contract/api'
import { STAFF_PHOTOS_PER_ITEM } from '../src/services/staffPhotos'
import { buildLine, buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { engines, loadShops, startApi, submitted, type TestApi, verified, demoStaffCookie } from './harness'
import { blackPng, MAGIC, photo } from './images'

const HOST = 'demo.localhost'
const jane = buildOrder({ name: '#1001', email: 'jane@example.com', line_items: [buildLine({ id: 'jane-tee' })] })
const DEMO = buildShop({ shop: 'demo', orders: [jane] })

describe.each(engines())('staff photos of an item on %s', (engine) => {
  let api: TestApi
  let cookie: string
  let returnId: string
  beforeAll(async () => {
    api = await startApi(engine, [], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0, signInPerClient: 1000 },
    })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops')
    await loadShops(api.db, [DEMO])
    cookie = await demoStaffCookie(api)
    const order = await verified(api.app, DEMO, jane)
    returnId = (await submitted(api.app, order.token, buildReturn([returnItem('jane-tee')]))).id!
  })

  const upload = (body: Buffer) =>
    api.app.inject({
      method: 'POST',
      url: `/admin/api/returns/${returnId}/photos?line_item_id=jane-tee`,
      headers: { host: HOST, cookie, origin: `http://${HOST}`, 'content-type': 'image/png' },
      payload: body,
    })

  test(`an item with ${STAFF_PHOTOS_PER_ITEM} photos is told so before another photo is decoded`, async () => {
    for (let i = 0; i < STAFF_PHOTOS_PER_ITEM; i++) expect((await upload(await photo())).statusCode).toBe(201)
    const full = {
      error: 'too_many_photos',
      message: `This item already has ${STAFF_PHOTOS_PER_ITEM} photos taken on receipt.`,
    }
    expect((await upload(await photo())).json<ApiError>()).toEqual(full)
    // Photos that decoding would refuse (too many pixels, unreadable) get the count's answer: no
    // decoding was tried.
    for (const body of [blackPng(8000, 8000), Buffer.concat([MAGIC.png, randomBytes(200)])]) {
      const response = await upload(body)
      expect({ status: response.statusCode, body: response.json<ApiError>() }).toEqual({ status: 422, body: full })
    }
  })
})
