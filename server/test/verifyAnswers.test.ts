import Fastify from 'fastify'
import { VerifiedOrder } from '../../contract/api'
import { DEFAULT_LIMITS } from '../src/context'
import { issueToken, readToken } from '../src/domain/token'
import { replies } from '../src/routes/typed'
import { aroundToken } from '../src/routes/verify'
import {
  buildLine,
  buildOrder,
  buildProduct,
  buildReason,
  buildShop,
  portalOf,
  returnItem,
  buildReturn,
} from './builders'
import { bearer, engines, NOW, startApi, submitted, type TestApi } from './harness'

/**
 * Verify keeps each answer but its token with the order it found (on PGlite, until the process
 * writes; see docs/decisions/0032-verify-cache-pglite.md): these show that what it answers is what
 * it answered before it kept anything, and that a return, an import and the clock reach it at once.
 */
const ADMIN_TOKEN = 'admin-token-for-tests'
/** the secret startApi signs with */
const SECRET = Buffer.from('test-secret')
const DAY_MS = 24 * 60 * 60 * 1000
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'tee-line', variant_id: 'tee-m', quantity: 2 })],
})
const SHOP = buildShop({
  shop: 'north',
  return_reasons: [buildReason('changed_mind', { label: 'Changed my mind' })],
  return_reason_variants: { de: { changed_mind: 'Ich habe es mir anders überlegt' } },
  catalogue: [buildProduct({ id: 'tee', title: 'Classic Tee' })],
  orders: [jane],
})
const BODY = { order_name: '#1001', email: 'jane@example.com', ...portalOf(SHOP) }

describe.each(engines())('verify answers on %s', (engine) => {
  let api: TestApi
  let clock: Date
  beforeEach(async () => {
    clock = NOW
    api = await startApi(engine, [SHOP], { now: () => clock, adminToken: ADMIN_TOKEN })
  })
  afterEach(() => api.close())

  const verify = (language?: string) =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/verify',
      headers: language ? { 'accept-language': language } : {},
      payload: BODY,
    })
  const tee = async () => (await verify()).json<VerifiedOrder>().line_items[0]!

  test('are the bytes the contract’s serialiser writes, the first time and the next', async () => {
    // The route's answer schema on a bare Fastify: what verify answered when it serialised each one whole.
    const reference = Fastify()
    reference.post('/', { schema: { response: replies({ 200: VerifiedOrder }) } }, (request, reply) =>
      reply.send(request.body),
    )
    try {
      const answers = [await verify(), await verify(), await verify('de')]
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200)
        const expected = await reference.inject({ method: 'POST', url: '/', payload: answer.json<object>() })
        expect(answer.body).toBe(expected.body)
        expect(answer.headers['content-type']).toBe(expected.headers['content-type'])
        expect(answer.headers['cache-control']).toBe('no-store')
      }
      // The token issueToken signs for the order and the time, kept within the second, new after it.
      const [first, second] = answers.map((answer) => answer.json<VerifiedOrder>())
      const signed = (at: Date) => {
        const expires = Math.floor(at.getTime() / 1000) + DEFAULT_LIMITS.tokenTtlSeconds
        return issueToken(SECRET, { orderId: first!.order_id, shopId: 'north', expires, readOnly: false })
      }
      expect(first!.token).toBe(signed(NOW))
      expect(second!.token).toBe(first!.token)
      expect(second!.token_expires_at).toBe(first!.token_expires_at)
      const later = new Date(NOW.getTime() + 60_000)
      clock = later
      const third = (await verify()).json<VerifiedOrder>()
      expect(third.token).toBe(signed(later))
      expect(readToken(SECRET, third.token, later)).toMatchObject({ orderId: first!.order_id, readOnly: false })
      expect(new Date(third.token_expires_at).getTime() - new Date(first!.token_expires_at).getTime()).toBe(60_000)
    } finally {
      await reference.close()
    }
  })

  test('the token’s place is found in what the contract’s serialiser writes, with an e-mail or without', async () => {
    const schema = replies({ 200: VerifiedOrder })[200]
    const reference = Fastify()
    reference.post('/', (request, reply) => {
      const order = request.body as VerifiedOrder
      const around = aroundToken((value) => reply.serializeInput(value, schema), order)
      return reply.send({
        around,
        whole: reply.serializeInput({ ...order, token: 'a.b', token_expires_at: 'c' }, schema),
      })
    })
    try {
      const answer = (await verify()).json<VerifiedOrder>()
      const { email, ...withoutEmail } = answer
      expect(email).toBe('jane@example.com')
      for (const order of [answer, withoutEmail]) {
        const { around, whole } = (await reference.inject({ method: 'POST', url: '/', payload: order })).json<{
          around: [string, string] | null
          whole: string
        }>()
        expect(around).not.toBeNull()
        expect(`${around![0]}"token":"a.b","token_expires_at":"c"${around![1]}`).toBe(whole)
      }
    } finally {
      await reference.close()
    }
  })

  test('each language has its own answer', async () => {
    for (const [language, label] of [
      ['de', 'Ich habe es mir anders überlegt'],
      [undefined, 'Changed my mind'],
      ['de', 'Ich habe es mir anders überlegt'],
    ] as const)
      expect((await verify(language)).json<VerifiedOrder>().return_reasons[0]!.label).toBe(label)
  })

  test('a return submitted is in the next verify', async () => {
    const before = (await verify()).json<VerifiedOrder>()
    expect(before.line_items[0]!.returnable_quantity).toBe(2)
    await submitted(api.app, before.token, buildReturn([returnItem('tee-line')]))
    expect((await tee()).returnable_quantity).toBe(1)
  })

  test('a shop imported again is in the next verify', async () => {
    expect((await tee()).title).toBe('Classic Tee')
    const file = { ...SHOP, catalogue: [buildProduct({ id: 'tee', title: 'Organic Tee' })] }
    const imported = await api.app.inject({
      method: 'POST',
      url: '/admin/shops',
      headers: bearer(ADMIN_TOKEN),
      payload: file,
    })
    expect(imported.statusCode).toBe(201)
    expect((await tee()).title).toBe('Organic Tee')
  })

  test('the return window is judged at every verify', async () => {
    // jane was fulfilled 5 days before NOW, in a 30-day window: it closes 25 days after NOW.
    expect((await verify()).statusCode).toBe(200)
    clock = new Date(NOW.getTime() + 25 * DAY_MS + 1)
    const late = await verify()
    expect(late.statusCode).toBe(400)
    expect(late.json()).toEqual({ error: 'order_too_old' })
    clock = new Date(NOW.getTime() + 25 * DAY_MS)
    expect((await verify()).statusCode).toBe(200)
  })
})
