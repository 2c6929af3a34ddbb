import { randomBytes } from 'node:crypto'
import { hashPassword } from '../src/domain/passwords'
import { importShop } from '../src/import/importShop'
import { addStaff } from '../src/storage/staff'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { buildLine, buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { bearer, engines, NOW, startApi, type TestApi, verified } from './harness'
import { eventually, startWebhookReceiver, type WebhookReceiver } from './receivers'

/**
 * No request forgery through an IPv6 form of an inward IPv4 address (docs/events.md, issue 29):
 * refused when staff save the endpoint, when a shop file brings it, and when a delivery connects.
 */

const PASSWORD = 'correct horse battery'
const SECRET = `whsec_${randomBytes(24).toString('base64')}`
const jane = buildOrder({ name: '#1001', email: 'jane@example.com', line_items: [buildLine({ id: 'li-tee' })] })
const DEMO = buildShop({ shop: 'demo', orders: [jane] })

/** Addresses as typed, and as the URL parser writes them in the refusal. */
const INWARD = [
  ['http://[::127.0.0.1]:9/hooks', '::7f00:1', 'IPv4-compatible loopback'],
  ['http://[::ffff:7f00:1]/hooks', '::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['http://[::ffff:0:10.0.0.1]/hooks', '::ffff:0:a00:1', 'IPv4-translated private'],
  ['http://[64:ff9b::169.254.169.254]/latest/meta-data', '64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
  ['http://[2002:c0a8:101::1]/hooks', '2002:c0a8:101::1', '6to4 private'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo loopback'],
] as const

describe.each(engines())('webhook addresses on %s', (engine) => {
  let api: TestApi
  let hooks: WebhookReceiver
  let cookie: string
  const headers = { host: 'demo.localhost', origin: 'http://demo.localhost' }
  beforeAll(async () => {
    hooks = await startWebhookReceiver()
    api = await startApi(engine, [DEMO], { delivery: { allowPrivateNetworks: false, pollMs: 20, timeoutMs: 2_000 } })
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
    const login = await api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers,
      payload: { email: 'staff@demo.example', password: PASSWORD },
    })
    cookie = `rebound_staff=${login.cookies.find((each) => each.name === 'rebound_staff')!.value}`
  }, 120_000)
  afterAll(async () => {
    await api.close()
    await hooks.close()
  })

  test.each(INWARD)('staff saving %s are refused with a 400 naming url (%s, %s)', async (url, shown) => {
    const answer = await api.app.inject({
      method: 'POST',
      url: '/admin/api/webhooks',
      headers: { ...headers, cookie },
      payload: { url, events: ['return.created'] },
    })
    expect(answer.statusCode).toBe(400)
    expect(answer.json<{ message: string }>().message).toBe(
      `url: points to a private, loopback or link-local address (${shown}); webhooks go to public addresses only`,
    )
    expect(await api.db.query('SELECT id FROM webhook_endpoints')).toEqual([])
  })

  test.each(INWARD)('a shop file with %s is refused, naming webhooks[0].url (%s, %s)', async (url, shown) => {
    const file = buildShop({ shop: 'north', webhooks: [{ url, secret: SECRET, events: ['return.created'] }] })
    expect(await importShop(api.db, file, NOW)).toEqual({
      ok: false,
      errors: [
        `webhooks[0].url: points to a private, loopback or link-local address (${shown}); webhooks go to public addresses only`,
      ],
    })
  })

  test('an endpoint at an IPv4-compatible loopback address is refused when a delivery connects', async () => {
    // Saved before the rule knew the form (or written by hand): the delivery refuses it itself.
    const port = new URL(hooks.url()).port
    await addEndpoint(
      api.db,
      'demo',
      { url: `http://[::127.0.0.1]:${port}/hooks`, secret: SECRET, events: ['return.created'] },
      NOW,
    )
    const { token } = await verified(api.app, DEMO, jane)
    const made = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': 'ipv4-compatible' },
      payload: buildReturn([returnItem('li-tee')]),
    })
    expect(made.statusCode).toBe(201)
    const [row] = await eventually(async () => {
      const rows = await api.db.query<{ last_error: string | null }>(
        "SELECT last_error FROM outbox WHERE channel = 'webhook'",
      )
      return rows[0]?.last_error ? rows : null
    }, 'the refused delivery')
    expect(row!.last_error).toBe('Refused: the address is private, loopback or link-local.')
    expect(hooks.received).toHaveLength(0)
  })
})
