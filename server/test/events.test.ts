import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { Webhook } from 'standardwebhooks'
import type { ReturnOrder, ReturnStatus } from '../../contract/api'
import type { StaffLinkSent } from '../../contract/staff'
import { buildApp, type AppOptions } from '../src/app'
import type { DeliveryOptions } from '../src/delivery/worker'
import { importShop } from '../src/import/importShop'
import type { OrderFile, ShopFile } from '../src/import/shopFile'
import { openPostgres, type Database } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { addStaff } from '../src/storage/staff'
import { hashPassword } from '../src/domain/passwords'
import { buildLine, buildOrder, buildProduct, buildReturn, buildShop, returnItem } from './builders'
import { NOW, bearer, createTestSchema, engines, openTestDatabase, staffCookie, verified } from './harness'
import {
  eventually,
  startSilentSmtp,
  startSmtp,
  startWebhookReceiver,
  type SmtpReceiver,
  type WebhookReceiver,
} from './receivers'

/**
 * Events out (docs/events.md), delivered for real: webhooks to an HTTP receiver on loopback,
 * e-mails to an SMTP server (smtp-server), each verified as a shop or a shopper would.
 */

const ADMIN_TOKEN = 'admin-token-for-events-tests'
const SECRET = `whsec_${randomBytes(24).toString('base64')}`
const HOST = 'north.localhost:8080'

const jane = buildOrder({
  name: '#1001',
  email: 'Jane@Example.com',
  line_items: [buildLine({ id: 'li-tee' }), buildLine({ id: 'li-mug', variant_id: 'mug-default' })],
})
/** Another shopper of the same shop: nothing of hers may reach Jane. */
const max = buildOrder({ name: '#1002', email: 'max.other@example.com', line_items: [buildLine({ id: 'li-max' })] })

const shopWith = (hooks: WebhookReceiver): ShopFile =>
  buildShop({
    shop: 'north',
    catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [] })],
    orders: [jane, max],
    config: { document_title_text: 'North Store', logo_src: '/demo-assets/logo.svg', button_color: '#0a7d45' },
    // Texts in German, French and Spanish: e-mails in a language the shop has none in are English (decision 0063).
    config_variants: {
      de: { need_help_message: 'Fragen? Wir helfen gern.' },
      fr: { need_help_message: 'Des questions ?' },
      es: { need_help_message: '¿Preguntas?' },
    },
    email: { from: 'North Store <returns@north.example>', reply_to: 'help@north.example' },
    webhooks: [{ url: hooks.url(), secret: SECRET, events: ['return.created', 'return.updated', 'return.refunded'] }],
  })

interface Harness {
  app: FastifyInstance
  db: Database
  /** moves the delivery loop's clock on (the request clock stays at NOW) */
  advance(ms: number): void
}

async function startWith(db: Database, delivery: Partial<DeliveryOptions>, extra: Partial<AppOptions> = {}) {
  // The loop's clock stands still but for `advance`: a retry comes due when a test says so, never
  // because a busy machine took five seconds between two of its steps.
  const started = Date.now()
  let offset = 0
  const app = await buildApp({
    db,
    secret: Buffer.from('test-secret'),
    now: () => NOW,
    limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    adminToken: ADMIN_TOKEN,
    delivery: {
      allowPrivateNetworks: true,
      pollMs: 20,
      timeoutMs: 2_000,
      clock: () => new Date(started + offset),
      ...delivery,
    },
    ...extra,
  })
  return { app, advance: (ms: number) => void (offset += ms) }
}

async function submit(
  app: FastifyInstance,
  items = [returnItem('li-tee')],
  lang = 'de-DE,de;q=0.9',
  order: OrderFile = jane,
) {
  const { token } = await verified(app, shopFile, order)
  const answer = await app.inject({
    method: 'POST',
    url: '/portal-registration/returns',
    headers: {
      ...bearer(token),
      'idempotency-key': randomBytes(8).toString('hex'),
      'accept-language': lang,
      host: HOST,
    },
    payload: buildReturn(items),
  })
  expect(answer.statusCode).toBe(201)
  return answer.json<ReturnOrder>()
}

const move = (app: FastifyInstance, id: string, state: string) =>
  app.inject({
    method: 'POST',
    url: `/admin/returns/${id}/status`,
    headers: bearer(ADMIN_TOKEN),
    payload: { state },
  })

let shopFile: ShopFile

const outboxRows = (db: Database, channel: string) =>
  db.query<{ id: string; event: string; state: string; attempts: number; last_error: string | null; due_at: Date }>(
    'SELECT id, event, state, attempts, last_error, due_at FROM outbox WHERE channel = $1 ORDER BY seq',
    [channel],
  )

describe.each(engines())('events out on %s', (engine) => {
  let db: Database
  let hooks: WebhookReceiver
  let smtp: SmtpReceiver
  let harness: Harness
  beforeAll(async () => {
    hooks = await startWebhookReceiver()
    smtp = await startSmtp()
    shopFile = shopWith(hooks)
  })
  afterAll(async () => {
    await hooks.close()
    await smtp.close()
  })
  beforeEach(async () => {
    db = await openTestDatabase(engine)
    const imported = await importShop(db, shopFile, NOW, undefined, { allowPrivateNetworks: true })
    if (!imported.ok) throw new Error(imported.errors.join('\n'))
    hooks.received.length = 0
    hooks.mode = 'ok'
    smtp.messages.length = 0
    smtp.mode = 'ok'
    harness = { db, ...(await startWith(db, { smtpUrl: smtp.url })) }
  })
  afterEach(async () => {
    await harness.app.close()
    await db.close()
  })

  test('a submit sends the signed return.created and the shopper’s e-mail in her language', async () => {
    const created = await submit(harness.app)
    const [hook] = await hooks.waitFor(1)
    // Verified as a shop's system does, with the Standard Webhooks library and the shared secret.
    const event = new Webhook(SECRET).verify(hook!.body, hook!.headers as Record<string, string>) as {
      type: string
      data: ReturnStatus
    }
    expect(event.type).toBe('return.created')
    expect(event.data.return_id).toBe(created.id)
    expect(event.data.items.map((item) => [item.line_item_id, item.state])).toEqual([['li-tee', 'requested']])
    expect(hook!.headers['webhook-id']).toMatch(/^msg_/)
    // A forged body does not verify.
    expect(() =>
      new Webhook(SECRET).verify(hook!.body.replace('requested', 'refunded'), hook!.headers as Record<string, string>),
    ).toThrow()

    const [mail] = await smtp.waitFor(1)
    expect(mail!.subject).toBe(`Ihre Rücksendung ${created.name} ist angemeldet`)
    expect(mail!.to).toMatchObject({ text: 'jane@example.com' })
    expect(mail!.from?.value).toEqual([{ name: 'North Store', address: 'returns@north.example' }])
    expect(mail!.replyTo?.text).toBe('help@north.example')
    // Plain text as html-to-text writes it: headings in capitals.
    expect(mail!.text).toContain('DIESE ARTIKEL SENDEN SIE ZURÜCK')
    expect(mail!.text).toContain('Rücksendung verfolgen')
    const html = String(mail!.html)
    expect(html).toMatch(/<html[^>]* lang="de"/)
    // Every link goes to the portal the shopper used, absolute.
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!)
    expect(links.length).toBeGreaterThanOrEqual(2)
    for (const link of links) expect(link.startsWith(`http://${HOST}/`)).toBe(true)
    // The status page opens in her language.
    expect(links.some((link) => link.startsWith(`http://${HOST}/status/${created.id}?lang=de#`))).toBe(true)
    expect(links.some((link) => link.includes(`/returns/${created.id}/label.pdf?`))).toBe(true)
    // The drop-off code travels as an attached image shown inline.
    expect(mail!.attachments.map((part) => [part.contentType, part.cid])).toEqual([
      ['image/png', 'dropoff-code@rebound'],
    ])
    // mailparser puts the part its cid names in place: the code's image is in the mail itself.
    expect(html).toMatch(/<img alt="RB-[0-9A-Z]+" height="160" src="data:image\/png;base64,/)
    // Nobody else's data.
    for (const other of ['max.other@example.com', '#1002', 'li-max']) {
      expect(html).not.toContain(other)
      expect(mail!.text).not.toContain(other)
    }
  })

  test('moves send return.updated and the received e-mail; the refund sends return.refunded and its e-mail', async () => {
    const created = await submit(harness.app, [returnItem('li-tee')], 'fr')
    expect((await move(harness.app, created.id!, 'received')).statusCode).toBe(200)
    expect((await move(harness.app, created.id!, 'refunded')).statusCode).toBe(200)
    const received = await hooks.waitFor(4)
    expect(received.map((hook) => (JSON.parse(hook.body) as { type: string }).type)).toEqual([
      'return.created',
      'return.updated',
      'return.updated',
      'return.refunded',
    ])
    const refunded = JSON.parse(received[3]!.body) as { data: ReturnStatus }
    expect(refunded.data.items[0]!.state).toBe('refunded')
    const mails = await smtp.waitFor(3)
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Votre retour ${created.name} est enregistré`,
      `Nous avons reçu vos articles (${created.name})`,
      `Votre remboursement pour ${created.name} est émis`,
    ])
    expect(mails[2]!.text).toMatch(/25,00\s€ sur votre moyen de paiement d’origine/)
  })

  test('with a mail server, a staff invite goes by e-mail with its link, and the owner is not handed it', async () => {
    await addStaff(db, 'north', 'owner@north.example', await hashPassword('correct horse battery'), NOW)
    const cookie = await staffCookie(harness.app, 'owner@north.example', 'correct horse battery', HOST)
    const invited = await harness.app.inject({
      method: 'POST',
      url: '/admin/api/staff/invites',
      headers: { host: HOST, origin: `http://${HOST}`, cookie },
      payload: { email: 'agent@north.example', role: 'agent' },
    })
    expect(invited.statusCode).toBe(201)
    expect(invited.json<StaffLinkSent>().link).toBeNull()
    const [mail] = await smtp.waitFor(1)
    expect(mail!.to).toMatchObject({ text: 'agent@north.example' })
    expect(String(mail!.html)).toMatch(new RegExp(`href="http://${HOST}/admin/invite#token=[A-Za-z0-9_-]{43}"`))
  })

  test('a receiver down for a while gets every event once it is back, in order, with the same ids', async () => {
    hooks.mode = 'down'
    const created = await submit(harness.app)
    expect((await move(harness.app, created.id!, 'in_transit')).statusCode).toBe(200)
    await hooks.waitFor(1)
    // The update waits behind the created event of its return: nothing overtakes.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(hooks.received).toHaveLength(1)
    const [first] = await outboxRows(db, 'webhook')
    expect(first).toMatchObject({ state: 'pending', attempts: 1, last_error: 'Answered 503.' })
    // The first retry comes 5 s later (the loop's clock moved on), still down: the next is 5 min on.
    harness.advance(6_000)
    await hooks.waitFor(2)
    hooks.mode = 'ok'
    harness.advance(6 * 60_000)
    const all = await hooks.waitFor(4)
    const types = all.map((hook) => (JSON.parse(hook.body) as { type: string }).type)
    expect(types).toEqual(['return.created', 'return.created', 'return.created', 'return.updated'])
    expect(new Set(all.slice(0, 3).map((hook) => hook.headers['webhook-id'])).size).toBe(1)
    const attempts = await db.query<{ attempt: number; ok: boolean; status_code: number }>(
      'SELECT a.attempt, a.ok, a.status_code FROM delivery_attempts a JOIN outbox o ON o.seq = a.outbox_seq WHERE o.id = $1 ORDER BY a.attempt',
      [first!.id],
    )
    expect(attempts).toEqual([
      { attempt: 1, ok: false, status_code: 503 },
      { attempt: 2, ok: false, status_code: 503 },
      { attempt: 3, ok: true, status_code: 204 },
    ])
  })

  test('a receiver that never answers is given up on after the timeout and tried again', async () => {
    hooks.mode = 'hang'
    await submit(harness.app)
    const [row] = await eventually(async () => {
      const rows = await outboxRows(db, 'webhook')
      return rows[0]?.attempts === 1 && rows[0].last_error ? rows : null
    }, 'the first attempt to time out')
    expect(row!.last_error).toBe('No answer within 2 s.')
    expect(row!.state).toBe('pending')
  })

  test('a mail server that refuses is retried like a webhook, and the e-mail arrives', async () => {
    smtp.mode = 'refuse'
    await submit(harness.app)
    const [row] = await eventually(async () => {
      const rows = await outboxRows(db, 'email')
      return rows[0]?.last_error ? rows : null
    }, 'the refused attempt')
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'The mail server answered 451.' })
    smtp.mode = 'ok'
    harness.advance(6_000)
    await smtp.waitFor(1)
    // The server took it; the row says so once the worker has heard its answer.
    const [delivered] = await eventually(async () => {
      const rows = await outboxRows(db, 'email')
      return rows[0]?.state === 'delivered' ? rows : null
    }, 'the delivered e-mail')
    expect(delivered).toMatchObject({ state: 'delivered', attempts: 2 })
  })

  test('a mail server that never answers times out, and the e-mail waits for its retry', async () => {
    await harness.app.close()
    const silent = await startSilentSmtp()
    try {
      harness = { db, ...(await startWith(db, { smtpUrl: silent.url })) }
      await submit(harness.app)
      const [row] = await eventually(async () => {
        const rows = await outboxRows(db, 'email')
        return rows[0]?.last_error ? rows : null
      }, 'the silent server to time out')
      expect(row).toMatchObject({ state: 'pending', attempts: 1 })
      expect(row!.last_error).toMatch(/did not answer|ETIMEDOUT|Greeting never received|timeout/i)
    } finally {
      await silent.close()
    }
  })

  test('without a mail server, e-mails are kept in the outbox, rendered, for the back office', async () => {
    await harness.app.close()
    harness = { db, ...(await startWith(db, {})) }
    await submit(harness.app, [returnItem('li-tee')], 'es')
    const [row] = await eventually(async () => {
      const rows = await db.query<{ state: string; message: { subject: string; html: string; to: string } | null }>(
        "SELECT state, message FROM outbox WHERE channel = 'email'",
      )
      return rows[0]?.state === 'kept' ? rows : null
    }, 'the e-mail to be kept')
    expect(row!.message!.subject).toMatch(/^Tu devolución #1001-R\d+ está registrada$/)
    expect(row!.message!.to).toBe('jane@example.com')
    expect(smtp.messages).toHaveLength(0)
  })

  test('an endpoint that now points inward is refused at delivery, after DNS', async () => {
    await harness.app.close()
    harness = { db, ...(await startWith(db, { smtpUrl: smtp.url, allowPrivateNetworks: false })) }
    // Saved when it was allowed; "localhost" resolves to loopback when it is sent.
    await db.query('DELETE FROM webhook_endpoints')
    const port = new URL(hooks.url()).port
    await addEndpoint(
      db,
      'north',
      { url: `http://localhost:${port}/hooks`, secret: SECRET, events: ['return.created'] },
      NOW,
    )
    await submit(harness.app)
    const [row] = await eventually(async () => {
      const rows = await outboxRows(db, 'webhook')
      return rows[0]?.last_error ? rows : null
    }, 'the refused delivery')
    expect(row!.last_error).toBe('Refused: the address is private, loopback or link-local.')
    expect(hooks.received).toHaveLength(0)
  })
})

describe('the shop file’s webhooks', () => {
  test.each([
    ['http://127.0.0.1:9/hooks', 'loopback'],
    ['http://10.1.2.3/hooks', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[::1]/hooks', 'IPv6 loopback'],
    ['http://[fd00::1]/hooks', 'IPv6 unique-local'],
    ['http://localhost/hooks', 'a name for loopback'],
  ])('refuse %s (%s), naming the field', async (url) => {
    const db = await openTestDatabase('pglite')
    try {
      const file = buildShop({ shop: 'north', webhooks: [{ url, secret: SECRET, events: ['return.created'] }] })
      const result = await importShop(db, file, NOW)
      expect(result).toEqual({
        ok: false,
        errors: [expect.stringMatching(/^webhooks\[0\]\.url: points to a private, loopback or link-local address/)],
      })
    } finally {
      await db.close()
    }
  })

  test.each([
    ['ftp://example.com/hooks', 'must start with https:// or http://'],
    ['https://user:pw@example.com/hooks', 'must not carry a user name or password'],
  ])('refuse %s', async (url, why) => {
    const db = await openTestDatabase('pglite')
    try {
      const file = buildShop({ shop: 'north', webhooks: [{ url, secret: SECRET, events: ['return.created'] }] })
      expect(await importShop(db, file, NOW)).toEqual({ ok: false, errors: [`webhooks[0].url: ${why}`] })
    } finally {
      await db.close()
    }
  })
})

if (engines().includes('postgres'))
  describe('two replicas on one PostgreSQL', () => {
    test('deliver each event once per attempt, never twice', async () => {
      const hooks = await startWebhookReceiver()
      const shoppers = [1, 2, 3, 4].map((n) =>
        buildOrder({ name: `#30${n}`, email: `p${n}@example.com`, line_items: [buildLine({ id: `li-${n}` })] }),
      )
      shopFile = { ...shopWith(hooks), orders: shoppers }
      const schema = await createTestSchema('events')
      const one = await openPostgres(schema.url, 5)
      const two = await openPostgres(schema.url, 5)
      await migrate(one)
      const imported = await importShop(one, shopFile, NOW, undefined, { allowPrivateNetworks: true })
      expect(imported.ok).toBe(true)
      const replicas = [await startWith(one, { pollMs: 5 }), await startWith(two, { pollMs: 5 })]
      try {
        for (const [at, shopper] of shoppers.entries())
          await submit(replicas[at % 2]!.app, [returnItem(`li-${at + 1}`)], 'en', shopper)
        // Each return's items move twice more, on either replica.
        const ids = (await one.query<{ id: string }>('SELECT id FROM returns ORDER BY created_at, id')).map((r) => r.id)
        for (const id of ids) {
          await move(replicas[0]!.app, id, 'in_transit')
          await move(replicas[1]!.app, id, 'received')
        }
        const expected = ids.length * 3
        await hooks.waitFor(expected)
        await new Promise((resolve) => setTimeout(resolve, 500))
        const seen = hooks.received.map((hook) => hook.headers['webhook-id'])
        expect(seen).toHaveLength(expected)
        expect(new Set(seen).size).toBe(expected)
        const attempts = await one.query<{ n: string }>(
          "SELECT count(*) AS n FROM delivery_attempts a JOIN outbox o ON o.seq = a.outbox_seq WHERE o.channel = 'webhook'",
        )
        expect(Number(attempts[0]!.n)).toBe(expected)
      } finally {
        for (const replica of replicas) await replica.app.close()
        await one.close()
        await two.close()
        await schema.drop()
        await hooks.close()
      }
    })
  })
