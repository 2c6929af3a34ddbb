import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import sharp from 'sharp'
import type { UploadedPhoto, VerifiedOrder } from '../../contract/api'
import { buildApp } from '../src/app'
import { PHOTO_READS_PER_MINUTE } from '../src/routes/photos'
import { UNATTACHED_PHOTO_TTL_MS, UNATTACHED_PHOTOS_PER_ORDER } from '../src/domain/photos'
import { buildOrder, buildShop } from './builders'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, startApi, type TestApi, verified } from './harness'
import { blackPng, noisyPalettePng, photo } from './images'

/** Any order will do: photos are uploaded for an order, whatever it holds. */
const jane = buildOrder({ name: '#1001', email: 'jane@example.com' })
const SHOP = buildShop({ shop: 'north', orders: [jane] })

const upload = (app: FastifyInstance, token: string, body: Buffer, type = 'image/png') =>
  app.inject({
    method: 'POST',
    url: '/portal-registration/photos',
    headers: { ...bearer(token), 'content-type': type },
    payload: body,
  })
const preview = (app: FastifyInstance, token: string, id: string) =>
  app.inject({ method: 'GET', url: `/portal-registration/photos/${id}`, headers: bearer(token) })

async function uploaded(app: FastifyInstance, token: string, body?: Buffer): Promise<UploadedPhoto> {
  const response = await upload(app, token, body ?? (await photo()))
  expect(response.statusCode).toBe(201)
  return response.json<UploadedPhoto>()
}

describe.each(engines())('photo sizes and limits on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, [SHOP], [SHOP, jane], (ready) => ({ api, order } = ready))
  const countPhotos = async () =>
    ((await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM photos')) as [{ n: number }])[0].n

  test('a 400-megapixel PNG of 50 KB is a 413 that says the limit in megapixels, and nothing is stored', async () => {
    const huge = blackPng(20_000, 20_000)
    expect(huge.byteLength).toBeLessThan(300 * 1024)
    const response = await upload(api.app, order.token, huge)
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ error: 'photo_too_large', message: 'A photo can be at most 50 megapixels.' })
    expect(await countPhotos()).toBe(0)
  })

  test('a photo that would grow as a PNG is stored as a JPEG, no larger than sent, and previewed as one', async () => {
    const sent = await noisyPalettePng(800, 600)
    const answer = await uploaded(api.app, order.token, sent)
    expect(answer.content_type).toBe('image/jpeg')
    expect(answer.size).toBeLessThanOrEqual(sent.byteLength)
    const shown = await preview(api.app, order.token, answer.id)
    expect(shown.headers['content-type']).toBe('image/jpeg')
    expect(shown.rawPayload.byteLength).toBe(answer.size)
    expect(await sharp(shown.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 800, height: 600 })
  })

  test('a photo larger than what one query reads (256 KB) is read back whole', async () => {
    const sent = await photo('image/png', { width: 400, height: 300 })
    const answer = await uploaded(api.app, order.token, sent)
    expect(answer).toMatchObject({ content_type: 'image/png' })
    expect(answer.size).toBeGreaterThan(256 * 1024)
    const shown = await preview(api.app, order.token, answer.id)
    expect(shown.rawPayload.byteLength).toBe(answer.size)
    // Lossless: the same pixels as sent.
    const [after, before] = await Promise.all([sharp(shown.rawPayload).raw().toBuffer(), sharp(sent).raw().toBuffer()])
    expect(after.equals(before)).toBe(true)
  })

  test(`a client reads at most ${PHOTO_READS_PER_MINUTE} photos a minute: the next is a 429`, async () => {
    // A client of its own: the suite's other tests read and upload from the default address.
    const remoteAddress = '192.0.2.7'
    const from = (request: {
      method: 'GET' | 'POST'
      url: string
      headers: Record<string, string>
      payload?: Buffer
    }) => api.app.inject({ ...request, remoteAddress })
    const sent = await from({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { ...bearer(order.token), 'content-type': 'image/png' },
      payload: await photo(),
    })
    const { id } = sent.json<UploadedPhoto>()
    const read = () => from({ method: 'GET', url: `/portal-registration/photos/${id}`, headers: bearer(order.token) })
    for (let i = 0; i < PHOTO_READS_PER_MINUTE; i++) expect((await read()).statusCode).toBe(200)
    const refused = await read()
    expect(refused.statusCode).toBe(429)
    // Another client still reads; and this one's uploads are counted apart from its reads.
    expect((await preview(api.app, order.token, id)).statusCode).toBe(200)
    const another = await from({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { ...bearer(order.token), 'content-type': 'image/png' },
      payload: await photo(),
    })
    expect(another.statusCode).toBe(201)
  })
})

describe('photos on PGlite with a data directory: the bytes are files, the rows keep the rest', () => {
  const ADMIN_TOKEN = 'admin-token-for-photo-tests'
  let dataDir: string
  let photosDir: string
  let api: TestApi
  let order: VerifiedOrder
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rebound-photo-files-'))
    photosDir = join(dataDir, 'photos')
    api = await startApi('pglite', [SHOP], { dataDir, adminToken: ADMIN_TOKEN })
    order = await verified(api.app, SHOP, jane)
  })
  afterEach(async () => {
    await api.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const files = () => readdirSync(photosDir).sort()

  test('an upload leaves no bytes in its row and the photo in a file, which the preview reads', async () => {
    const answer = await uploaded(api.app, order.token, await photo('image/png', { width: 64, height: 48 }))
    const rows = await api.db.query<{ empty: boolean; size: number; content_type: string }>(
      'SELECT bytes IS NULL AS empty, size, content_type FROM photos WHERE id = $1',
      [answer.id],
    )
    expect(rows).toEqual([{ empty: true, size: answer.size, content_type: 'image/png' }])
    expect(files()).toEqual([answer.id])
    const onDisk = readFileSync(join(photosDir, answer.id))
    expect(onDisk.byteLength).toBe(answer.size)
    const shown = await preview(api.app, order.token, answer.id)
    expect(shown.statusCode).toBe(200)
    expect(shown.rawPayload.equals(onDisk)).toBe(true)
  })

  test('a photo stored before the bytes moved out of the rows (migration 6) is still read from its row', async () => {
    const bytes = await photo('image/png', { width: 300, height: 300 })
    const id = randomBytes(16).toString('base64url')
    await api.db.query('INSERT INTO photos (id, order_id, content_type, size, bytes) VALUES ($1, $2, $3, $4, $5)', [
      id,
      order.order_id,
      'image/png',
      bytes.byteLength,
      bytes,
    ])
    const shown = await preview(api.app, order.token, id)
    expect(shown.statusCode).toBe(200)
    expect(shown.rawPayload.equals(bytes)).toBe(true)
    expect(files()).toEqual([])
  })

  test('a photo whose file is gone is a 404, not an error', async () => {
    const { id } = await uploaded(api.app, order.token)
    rmSync(join(photosDir, id))
    expect((await preview(api.app, order.token, id)).statusCode).toBe(404)
  })

  test('a shop imported again (POST /admin/shops) without an order removes the files of that order’s photos', async () => {
    const first = await uploaded(api.app, order.token)
    const second = await uploaded(api.app, order.token)
    expect(files()).toEqual([first.id, second.id].sort())
    const response = await api.app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: bearer(ADMIN_TOKEN),
      payload: { ...SHOP, orders: [] },
    })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({ removed: 1, kept: [] })
    expect(await api.db.query('SELECT id FROM photos')).toEqual([])
    expect(files()).toEqual([])
  })

  test('an upload no return took within 24 hours goes at the order’s next upload, file and all', async () => {
    const old = await uploaded(api.app, order.token)
    const later = new Date(NOW.getTime() + UNATTACHED_PHOTO_TTL_MS + 60_000)
    const next = await buildApp({
      db: api.db,
      dataDir,
      secret: Buffer.from('test-secret'),
      now: () => later,
      limits: { verifyFailureFloorMs: 0 },
    })
    try {
      const again = await verified(next, SHOP, jane)
      const fresh = await uploaded(next, again.token)
      expect(await api.db.query('SELECT id FROM photos')).toEqual([{ id: fresh.id }])
      expect(files()).toEqual([fresh.id])
      expect(existsSync(join(photosDir, old.id))).toBe(false)
    } finally {
      await next.close()
    }
  })

  test(`an upload refused because the order holds ${UNATTACHED_PHOTOS_PER_ORDER} photos leaves no file`, async () => {
    for (let i = 0; i < UNATTACHED_PHOTOS_PER_ORDER; i++) await uploaded(api.app, order.token)
    expect((await upload(api.app, order.token, await photo())).statusCode).toBe(422)
    expect(files()).toHaveLength(UNATTACHED_PHOTOS_PER_ORDER)
    const rows = await api.db.query<{ id: string }>('SELECT id FROM photos ORDER BY id')
    expect(rows.map((row) => row.id).sort()).toEqual(files())
  })

  test('at start, files without rows (and what a crash left half written) are removed; photos with rows stay', async () => {
    const kept = await uploaded(api.app, order.token)
    const orphan = randomBytes(16).toString('base64url')
    writeFileSync(join(photosDir, orphan), 'a photo whose row is gone')
    writeFileSync(join(photosDir, `${kept.id}.123abc.tmp`), 'half a photo')
    const restarted = await buildApp({ db: api.db, dataDir, secret: Buffer.from('test-secret'), now: () => NOW })
    try {
      expect(files()).toEqual([kept.id])
      expect((await preview(restarted, order.token, kept.id)).statusCode).toBe(200)
    } finally {
      await restarted.close()
    }
  })
})
