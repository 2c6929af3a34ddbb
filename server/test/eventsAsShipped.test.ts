import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReturnOrder, VerifiedOrder } from '../../contract/api'
import type { DeliveryList, EmailList } from '../../contract/events'
import { openPglite } from '../src/storage/database'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { buildShop } from './builders'
import { freePort } from './processApi'
import { eventually, startWebhookReceiver, type WebhookReceiver } from './receivers'
import { startServer, type ServerProcess } from './serverProcess'
import { childEnv, runCommand, scriptCommand } from './spawned'

/**
 * Events out as a user starts the product (`npm start` with no settings but its port and data
 * directory, docs/events.md): e-mails are kept in the outbox and it says so; a webhook to a
 * loopback address is refused when staff save it, when an operator imports it, and when it is
 * delivered (an endpoint whose name turned inward). Only 127.0.0.1; every wait bounded.
 */

const SLOW = 180_000
const HOST = 'demo.localhost'
const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`

let dataDir: string
let hooks: WebhookReceiver
let server: ServerProcess | undefined
beforeAll(async () => {
  hooks = await startWebhookReceiver()
})
afterAll(() => hooks.close())
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'rebound-events-shipped-'))
})
afterEach(async () => {
  await server?.stop().catch(() => server?.process.killAll())
  server = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

const start = async () => (server = await startServer({ PORT: String(await freePort()), DATA_DIR: dataDir }))

test(
  'with no settings: e-mails are kept and the start says where; webhooks to loopback are refused when saved, imported and delivered',
  async () => {
    const first = await start()
    expect(first.log()).toContain(
      `E-mails to shoppers are kept in the outbox (no SMTP_URL): read them in the back office, http://demo.localhost:${first.port}/admin/emails`,
    )
    const password = /Staff sign-in: \S+ {2}staff@demo\.example \/ (\S+)/.exec(first.log())![1]!
    const console = async (running: ServerProcess) => {
      const headers = { host: `${HOST}:${running.port}`, origin: `http://${HOST}:${running.port}` }
      const session = await running.callFrom(
        '127.0.0.1',
        'POST',
        '/admin/api/session',
        {
          email: 'staff@demo.example',
          password,
        },
        headers,
      )
      expect(session.status).toBe(200)
      const cookie = String(session.headers['set-cookie']).split(';')[0]!
      return <T>(method: string, path: string, body?: unknown) =>
        running.callFrom<T>('127.0.0.1', method, path, body, { ...headers, cookie })
    }
    const staff = await console(first)

    // Saved by staff: refused, naming the field.
    const saved = await staff<{ message: string }>('POST', '/admin/api/webhooks', {
      url: hooks.url(),
      events: ['return.created'],
    })
    expect(saved.status).toBe(400)
    expect(saved.body.message).toMatch(/^url: points to a private, loopback or link-local address \(127\.0\.0\.1\)/)
    await first.stop()
    server = undefined

    // Imported by an operator: refused, nothing changed.
    const file = join(dataDir, 'north.json')
    writeFileSync(
      file,
      JSON.stringify(
        buildShop({ shop: 'north', webhooks: [{ url: hooks.url(), secret: SECRET, events: ['return.created'] }] }),
      ),
    )
    const imported = await runCommand(scriptCommand('import-shop'), [file], childEnv({ DATA_DIR: dataDir }))
    expect(imported.code).toBe(1)
    expect(imported.stderr).toContain('webhooks[0].url: points to a private, loopback or link-local address')

    // An endpoint saved while its name was public now points to loopback: refused when sent.
    const db = await openPglite(dataDir)
    const endpoint = await addEndpoint(
      db,
      'demo',
      { url: `http://localhost:${new URL(hooks.url()).port}/hooks`, secret: SECRET, events: ['return.created'] },
      new Date(),
    )
    await db.close()
    const second = await start()
    const again = await console(second)
    const verified = await second.callFrom<VerifiedOrder>(
      '127.0.0.1',
      'POST',
      '/portal-registration/verify',
      { order_name: '#1001', email: 'jane@example.com', shop: 'demo', portal_id: 'portal-demo' },
      { host: `${HOST}:${second.port}` },
    )
    expect(verified.status).toBe(200)
    const made = await second.callFrom<ReturnOrder>(
      '127.0.0.1',
      'POST',
      '/portal-registration/returns',
      {
        items: [{ line_item_id: 'li-1001-001', quantity: 1, reason_id: 'changed_mind' }],
        refund_method: 'original_payment',
      },
      {
        host: `${HOST}:${second.port}`,
        authorization: `Bearer ${verified.body.token}`,
        'idempotency-key': 'as-shipped-events-1',
      },
    )
    expect(made.status).toBe(201)
    const deliveries = await eventually(async () => {
      const log = await again<DeliveryList>('GET', `/admin/api/webhooks/${endpoint.id}/deliveries`)
      return log.body.deliveries[0]?.attempts.length ? log.body.deliveries : null
    }, 'the refused delivery')
    expect(deliveries[0]!.attempts[0]).toMatchObject({
      ok: false,
      error: 'Refused: the address is private, loopback or link-local.',
    })
    expect(hooks.received).toHaveLength(0)

    // The shopper's e-mail is kept, written in full, for the back office.
    const emails = await eventually(async () => {
      const list = await again<EmailList>('GET', '/admin/api/emails')
      return list.body.emails.some((email) => email.state === 'kept') ? list.body : null
    }, 'the kept e-mail')
    expect(emails.smtp).toBe(false)
    expect(emails.emails.find((email) => email.return_id === made.body.id)).toMatchObject({
      kind: 'created',
      to: 'jane@example.com',
      state: 'kept',
      subject: `Your return ${made.body.name} is registered`,
    })
  },
  SLOW,
)
