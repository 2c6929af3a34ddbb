import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { buildLine, buildOrder, buildShop } from './builders'
import { createTestSchema, engines } from './harness'
import { freePort, importWithCli, oneUnit, submit, verify } from './processApi'
import { startSmtp, startWebhookReceiver, type SmtpReceiver, type WebhookReceiver } from './receivers'
import { startServer, type ServerProcess } from './serverProcess'
import { within } from './spawned'

/**
 * The server as shipped (compiled, `npm start`), killed with SIGKILL after a return was made and
 * before its events were delivered: the restarted server delivers them, on PGlite and PostgreSQL.
 * Only loopback; the receivers are real (HTTP and SMTP); every wait bounded.
 */

const SLOW = 120_000
const SECRET = `whsec_${randomBytes(24).toString('base64')}`
const jane = buildOrder({ name: '#1001', email: 'jane@example.com', line_items: [buildLine({ id: 'li-tee' })] })

describe.each(engines())('events survive a kill -9 on %s', (engine) => {
  let hooks: WebhookReceiver
  let smtp: SmtpReceiver
  let env: Record<string, string>
  let cleanup: () => Promise<void>
  const started: ServerProcess[] = []
  beforeAll(async () => {
    hooks = await startWebhookReceiver()
    smtp = await startSmtp()
    if (engine === 'pglite') {
      const dir = mkdtempSync(join(tmpdir(), 'rebound-events-'))
      env = { DATA_DIR: dir }
      cleanup = () => Promise.resolve(rmSync(dir, { recursive: true, force: true }))
    } else {
      const schema = await createTestSchema('events')
      env = { DATABASE_URL: schema.url }
      cleanup = () => schema.drop()
    }
    env = { ...env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SMTP_URL: smtp.url }
    const shop = buildShop({
      shop: 'north',
      orders: [jane],
      webhooks: [{ url: hooks.url(), secret: SECRET, events: ['return.created'] }],
    })
    await importWithCli(env, [shop])
  })
  afterAll(async () => {
    for (const server of started) {
      server.process.killAll()
      await within(10_000, 'a server to end', server.process.exited).catch(() => {})
    }
    await hooks.close()
    await smtp.close()
    await cleanup()
  })

  test(
    'a return made while the receivers are down is delivered by the restarted server',
    async () => {
      hooks.mode = 'down'
      smtp.mode = 'refuse'
      const first = await startServer({ ...env, PORT: String(await freePort()) })
      started.push(first)
      const shop = buildShop({ shop: 'north', orders: [jane] })
      const { token } = await verify(first, shop, jane)
      const made = await submit(first, token, 'kill-9-events', oneUnit('li-tee'))
      expect(made.status).toBe(201)
      // The change is committed; its first delivery attempt failed; then the process dies.
      await hooks.waitFor(1)
      process.kill(first.process.child.pid!, 'SIGKILL')
      expect(await within(15_000, 'the killed server', first.process.exited)).toEqual({ code: null, signal: 'SIGKILL' })
      hooks.mode = 'ok'
      smtp.mode = 'ok'
      const second = await startServer({ ...env, PORT: String(await freePort()) })
      started.push(second)
      // The retry comes 5 s after the failed attempt, from the new process; when the kill came
      // before the attempt was written down, after the 30 s lease on PostgreSQL (released at the
      // start on PGlite, whose one process held it).
      const received = await hooks.waitFor(2, 60_000)
      const event = new Webhook(SECRET).verify(received[1]!.body, received[1]!.headers as Record<string, string>) as {
        type: string
        data: { return_id: string }
      }
      expect(event).toMatchObject({ type: 'return.created', data: { return_id: (made.body as { id: string }).id } })
      expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id'])
      const [mail] = await smtp.waitFor(1, 60_000)
      expect(mail!.subject).toMatch(/^Your return #1001-R1 is registered$/)
      expect(await second.stop()).toEqual({ code: 0, signal: null })
    },
    SLOW,
  )
})
