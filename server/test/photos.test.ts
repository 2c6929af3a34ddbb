import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { PHOTO_MAX_SIDE } from '../../contract/constants'
import type { ApiError, ReturnOrder, ReturnRequest, UploadedPhoto, VerifiedOrder } from '../../contract/api'
import { sniffImage, UNATTACHED_PHOTOS_PER_ORDER } from '../src/domain/photos'
import { issueToken } from '../src/domain/token'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop } from './builders'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'
import { blackPng, MAGIC, photo } from './images'
import { anyNumber, stringMatching } from './matchers'

/**
 * A shop whose "damaged" asks for a comment and a photo, and whose "not as described" has
 * sub-reasons (labelled in German too); #1001 has a tee and a mug, #1005 one tee.
 */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ variant_id: 'tee-m' }), buildLine({ variant_id: 'mug-default', price: '14.00' })],
})
const solo = buildOrder({ name: '#1005', email: 'solo@example.com' })
const SHOP = buildShop({
  shop: 'north',
  return_reasons: [
    buildReason('not_as_described', {
      label: 'Not as described',
      children: [
        buildReason('colour_differs', { label: 'Colour differs from photos' }),
        buildReason('quality_not_expected', { label: 'Material or quality not as expected' }),
        buildReason('wrong_item', { label: 'Wrong item sent', photos_required: 1 }),
      ],
    }),
    buildReason('changed_mind'),
    buildReason('damaged', { comment_required: true, photos_required: 1 }),
  ],
  return_reason_variants: {
    de: {
      not_as_described: 'Entspricht nicht der Beschreibung',
      colour_differs: 'Farbe weicht von den Fotos ab',
      quality_not_expected: 'Material oder Qualität nicht wie erwartet',
      wrong_item: 'Falscher Artikel geliefert',
    },
  },
  catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' })],
  orders: [jane, solo],
})
/** Another shop, whose "other" takes a comment and no photos. */
const ada = buildOrder({ name: 'AC1001', email: 'ada@example.com' })
const OTHER = buildShop({ shop: 'south', orders: [ada] })

describe('sniffImage', () => {
  test.each([
    ['a PNG', 'image/png', MAGIC.png],
    ['a JPEG', 'image/jpeg', MAGIC.jpeg],
    ['a WebP', 'image/webp', MAGIC.webp],
    ['HTML', null, Buffer.from('<!doctype html><script>alert(1)</script>')],
    ['an SVG', null, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a GIF', null, Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000')],
    [
      'a RIFF that is not WebP (a WAV)',
      null,
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(16)]),
    ],
    ['three bytes of a JPEG', null, Buffer.from([0xff, 0xd8, 0xff])],
  ])('%s is sniffed as %s', (_name, type, bytes) => {
    expect(sniffImage(bytes)).toBe(type)
  })
})

describe.each(engines())('photos on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, [SHOP, OTHER], [SHOP, jane], (ready) => ({ api, order } = ready))

  const tee = () => order.line_items[0]!
  const mug = () => order.line_items[1]!
  const upload = (body: Buffer | string, type = 'image/png', token = order.token) =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { ...bearer(token), 'content-type': type },
      payload: body,
    })
  const uploaded = async (body?: Buffer, token = order.token) => {
    const response = await upload(body ?? (await photo()), 'image/png', token)
    expect(response.statusCode).toBe(201)
    return response.json<UploadedPhoto>().id
  }
  const preview = (id: string, token = order.token) =>
    api.app.inject({ method: 'GET', url: `/portal-registration/photos/${id}`, headers: bearer(token) })
  const quote = (body: ReturnRequest, token = order.token) =>
    api.app.inject({ method: 'POST', url: '/portal-registration/returns/quote', headers: bearer(token), payload: body })
  const submit = (body: ReturnRequest, key = 'key-photos-0001') =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(order.token), 'idempotency-key': key },
      payload: body,
    })
  /** The mug, arrived damaged: a comment and the photos given. */
  const damagedMug = (photo_ids: string[]): ReturnRequest => ({
    items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'damaged', comment: 'Chipped rim', photo_ids }],
  })

  test('an upload stores the image for the order and answers an unguessable id; the order’s token previews it', async () => {
    const image = await photo('image/png', { width: 24, height: 16 })
    const response = await upload(image)
    expect(response.statusCode).toBe(201)
    const answer = response.json<UploadedPhoto>()
    expect(answer).toEqual({
      id: stringMatching(/^[A-Za-z0-9_-]{22}$/),
      content_type: 'image/png',
      size: anyNumber(),
    })
    const shown = await preview(answer.id)
    expect(shown.statusCode).toBe(200)
    expect(shown.headers['content-type']).toBe('image/png')
    expect(shown.headers['cache-control']).toBe('private, no-store')
    expect(shown.rawPayload.byteLength).toBe(answer.size)
    expect(await sharp(shown.rawPayload).metadata()).toMatchObject({ format: 'png', width: 24, height: 16 })
  })

  test('the bytes decide the type: a JPEG sent as image/png is stored as a JPEG', async () => {
    const response = await upload(await photo('image/jpeg'), 'image/png')
    expect(response.statusCode).toBe(201)
    expect(response.json<UploadedPhoto>().content_type).toBe('image/jpeg')
  })

  test.each(['image/jpeg', 'image/png', 'image/webp'] as const)(
    'a %s keeps only its pixels: where it was taken (EXIF, XMP) and bytes hidden after the image are gone',
    async (type) => {
      const place = 'Taken at 51.5007 N 0.1246 W'
      const sent = Buffer.concat([
        await photo(type, {
          width: 40,
          height: 30,
          exif: { ImageDescription: place, Artist: 'Jane Doe' },
          xmp: `<x:xmpmeta xmlns:x="adobe:ns:meta/">${place}</x:xmpmeta>`,
        }),
        Buffer.from('<script>alert(document.cookie)</script>'),
      ])
      expect(sent.includes(place)).toBe(true)
      const id = await uploaded(sent)
      const stored = (await preview(id)).rawPayload
      expect(stored.includes(place)).toBe(false)
      expect(stored.includes('Jane Doe')).toBe(false)
      expect(stored.includes('<script>')).toBe(false)
      const metadata = await sharp(stored).metadata()
      expect(metadata).toMatchObject({ width: 40, height: 30 })
      expect([metadata.exif, metadata.xmp]).toEqual([undefined, undefined])
    },
  )

  test(`a phone photo held upright is stored upright, at most ${PHOTO_MAX_SIDE} px on its longest side and in fewer bytes`, async () => {
    // The sensor's picture is 3200 × 2400; the phone says "turn it a quarter" (orientation 6).
    const sent = await photo('image/jpeg', { width: 3200, height: 2400, orientation: 6 })
    const response = await upload(sent, 'image/jpeg')
    expect(response.statusCode).toBe(201)
    const stored = (await preview(response.json<UploadedPhoto>().id)).rawPayload
    const metadata = await sharp(stored).metadata()
    expect(metadata).toMatchObject({ format: 'jpeg', width: 1920, height: PHOTO_MAX_SIDE })
    expect(metadata.orientation).toBeUndefined()
    expect(stored.byteLength).toBeLessThan(sent.byteLength)
  }, 20_000)

  test('a decompression bomb (a small file of 64 megapixels) is a 413 before it is decoded, and nothing is stored', async () => {
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer()
    expect(bomb.byteLength).toBeLessThan(1024 * 1024)
    const response = await upload(bomb)
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ error: 'photo_too_large', message: 'A photo can be at most 50 megapixels.' })
    const [{ n }] = (await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM photos')) as [{ n: number }]
    expect(n).toBe(0)
  }, 20_000)

  test.each([
    ['a PNG signature followed by noise', 'image/png', () => Buffer.concat([MAGIC.png, randomBytes(200)])],
    [
      'a JPEG cut short',
      'image/jpeg',
      async () => (await photo('image/jpeg', { width: 64, height: 64 })).subarray(0, 400),
    ],
    ['a WebP header and nothing else', 'image/webp', () => MAGIC.webp],
  ])('%s is a 415 that says the image could not be read, and nothing is stored', async (_name, type, body) => {
    const response = await upload(await body(), type)
    expect(response.statusCode).toBe(415)
    expect(response.json()).toEqual({
      error: 'unsupported_media_type',
      message: 'The image could not be read: it may be damaged or cut short.',
    })
    const [{ n }] = (await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM photos')) as [{ n: number }]
    expect(n).toBe(0)
  })

  test('a photo over 5 MB is a 413 that says the limit', async () => {
    const big = Buffer.concat([await photo(), Buffer.alloc(5 * 1024 * 1024)])
    const response = await upload(big)
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ error: 'photo_too_large', message: 'A photo can be at most 5 MB.' })
  })

  test.each([
    ['a GIF', 'image/gif', Buffer.from('GIF89a')],
    ['an SVG', 'image/svg+xml', Buffer.from('<svg/>')],
    ['text', 'text/plain', Buffer.from('hello')],
    ['JSON', 'application/json', Buffer.from('{"a":1}')],
  ])('%s is a 415', async (_name, type, body) => {
    const response = await upload(body, type)
    expect(response.statusCode).toBe(415)
    expect(response.json()).toEqual({
      error: 'unsupported_media_type',
      message: 'The file is not a JPEG, PNG or WebP image.',
    })
  })

  test.each([
    ['HTML named image/png', 'image/png', Buffer.from('<!doctype html><script>alert(document.cookie)</script>')],
    [
      'an SVG named image/jpeg',
      'image/jpeg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    ],
    ['a PNG signature cut short', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  ])('forged magic bytes: %s is a 415 and nothing is stored', async (_name, type, body) => {
    expect((await upload(body, type)).statusCode).toBe(415)
    const [{ n }] = (await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM photos')) as [{ n: number }]
    expect(n).toBe(0)
  })

  test('without a token an upload is a 401 before its body is read; a support token’s is a 403', async () => {
    const anonymous = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { 'content-type': 'image/png' },
      payload: await photo(),
    })
    expect(anonymous.statusCode).toBe(401)
    const readOnly = issueToken(Buffer.from('test-secret'), {
      orderId: order.order_id,
      shopId: 'north',
      expires: Math.floor(NOW.getTime() / 1000) + 3600,
      readOnly: true,
    })
    expect((await upload(await photo(), 'image/png', readOnly)).json()).toMatchObject({ error: 'read_only_session' })
    const id = await uploaded()
    expect((await preview(id, readOnly)).statusCode).toBe(403)
  })

  test('another order’s token neither previews nor uses this order’s photo', async () => {
    const id = await uploaded()
    const stranger = await verified(api.app, OTHER, ada)
    expect((await preview(id, stranger.token)).statusCode).toBe(404)
    const theirs = await quote(
      {
        items: [
          { line_item_id: stranger.line_items[0]!.id, quantity: 1, reason_id: 'other', comment: 'x', photo_ids: [id] },
        ],
      },
      stranger.token,
    )
    expect(theirs.statusCode).toBe(422)
    expect(theirs.json<ApiError>().message).toContain('items[0].photo_ids: this reason takes no photos')
    // Even for a reason that takes photos, a photo of another order is unknown.
    const another = await verified(api.app, SHOP, solo)
    const response = await quote(
      {
        items: [
          { line_item_id: another.line_items[0]!.id, quantity: 1, reason_id: 'damaged', comment: 'x', photo_ids: [id] },
        ],
      },
      another.token,
    )
    expect(response.json<ApiError>().message).toContain('items[0].photo_ids[0]: not a photo uploaded for this order')
  })

  test('a reason that asks for a photo is refused without one, and accepted with it', async () => {
    const missing = await quote(damagedMug([]))
    expect(missing.statusCode).toBe(422)
    expect(missing.json<ApiError>().message).toBe('items[0].photo_ids: this reason needs at least 1 photo')
    const ok = await quote(damagedMug([await uploaded()]))
    expect(ok.statusCode).toBe(200)
  })

  test('a submitted return takes its photos: they are stored with it and cannot go with another item or return', async () => {
    const id = await uploaded()
    const first = await submit(damagedMug([id]))
    expect(first.statusCode).toBe(201)
    const created = first.json<ReturnOrder>()
    const rows = await api.db.query<{ return_id: string; line_item_id: string }>(
      'SELECT return_id, line_item_id FROM photos WHERE id = $1',
      [id],
    )
    expect(rows).toEqual([{ return_id: created.id, line_item_id: mug().id }])
    // The same submit again (a retry) is the same return, not a reuse.
    expect((await submit(damagedMug([id]))).statusCode).toBe(200)

    const again = await submit(
      { items: [{ line_item_id: tee().id, quantity: 1, reason_id: 'damaged', comment: 'Hole', photo_ids: [id] }] },
      'key-photos-0002',
    )
    expect(again.statusCode).toBe(422)
    expect(again.json<ApiError>().message).toContain('items[0].photo_ids[0]: already sent with another return')
  })

  test('one photo for two items is refused', async () => {
    const id = await uploaded()
    const response = await quote({
      items: [
        { line_item_id: tee().id, quantity: 1, reason_id: 'damaged', comment: 'Hole', photo_ids: [id] },
        { line_item_id: mug().id, quantity: 1, reason_id: 'damaged', comment: 'Chip', photo_ids: [id] },
      ],
    })
    expect(response.statusCode).toBe(422)
    expect(response.json<ApiError>().message).toContain('items[1].photo_ids[0]: already used for another item')
  })

  test('at most 3 photos per item, each id of the upload’s shape', async () => {
    const ids = [await uploaded(), await uploaded(), await uploaded(), await uploaded()]
    const tooMany = await quote(damagedMug(ids))
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json<ApiError>().message).toContain('items[0].photo_ids: must NOT have more than 3 items')
    const forged = await quote(damagedMug(['../../etc/passwd']))
    expect(forged.statusCode).toBe(400)
    expect(forged.json<ApiError>().message).toContain('items[0].photo_ids[0]')
  })

  test(`an order holds at most ${UNATTACHED_PHOTOS_PER_ORDER} photos no return has taken, and is told so before a photo is decoded`, async () => {
    for (let i = 0; i < UNATTACHED_PHOTOS_PER_ORDER; i++) await uploaded()
    const full = await upload(await photo())
    expect(full.statusCode).toBe(422)
    expect(full.json<ApiError>()).toEqual({
      error: 'too_many_photos',
      message: `This order already has ${UNATTACHED_PHOTOS_PER_ORDER} photos waiting for a return.`,
    })
    // Photos that decoding would refuse (too many pixels, unreadable) get the count's answer: no
    // decoding was tried.
    const bomb = blackPng(8000, 8000)
    const damaged = Buffer.concat([MAGIC.png, randomBytes(200)])
    for (const body of [bomb, damaged]) expect((await upload(body)).json<ApiError>().error).toBe('too_many_photos')
  })

  test('a sub-reason is a reason; its parent is not, and verify names both in the shopper’s language', async () => {
    const parent = await quote({ items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'not_as_described' }] })
    expect(parent.statusCode).toBe(422)
    expect(parent.json<ApiError>().message).toBe('items[0].reason_id: has sub-reasons; choose one of them')
    const leaf = await quote({ items: [{ line_item_id: mug().id, quantity: 1, reason_id: 'colour_differs' }] })
    expect(leaf.statusCode).toBe(200)
    expect(leaf.json<ReturnOrder>().items[0]).toMatchObject({
      reason_id: 'colour_differs',
      reason_label: 'Not as described: Colour differs from photos',
    })

    const german = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      headers: { 'accept-language': 'de' },
      payload: { order_name: '#1001', email: 'jane@example.com', shop: 'north', portal_id: 'portal-north' },
    })
    const described = german.json<VerifiedOrder>().return_reasons.find((reason) => reason.id === 'not_as_described')!
    expect(described.label).toBe('Entspricht nicht der Beschreibung')
    expect(described.children!.map((child) => child.label)).toEqual([
      'Farbe weicht von den Fotos ab',
      'Material oder Qualität nicht wie erwartet',
      'Falscher Artikel geliefert',
    ])
  })
})
