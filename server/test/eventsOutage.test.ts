import { randomBytes } from 'node:crypto'
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net'
import { buildApp } from '../src/app'
import { importShop } from '../src/import/importShop'
import { openPostgres } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'
import { buildShop } from './builders'
import { createTestSchema, engines, NOW } from './harness'
import { eventually, startWebhookReceiver } from './receivers'

/**
 * The delivery loop when PostgreSQL goes away (docs/events.md, issue 29): the server reaches the
 * database through a loopback proxy that the test cuts (every connection reset, new ones refused)
 * and then restores. The loop logs the outage, goes on polling, and delivers once it can read.
 */

/** A TCP proxy on loopback to `port`: `cut()` resets every connection and refuses new ones. */
async function startProxy(port: number) {
  const sockets = new Set<Socket>()
  let server: Server | null = null
  let listenOn = 0
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(port, '127.0.0.1')
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('error', () => {})
          socket.on('close', () => {
            sockets.delete(socket)
            client.destroy()
            upstream.destroy()
          })
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(listenOn, '127.0.0.1', () => {
        listenOn = (server!.address() as AddressInfo).port
        resolve()
      })
    })
  await open()
  return {
    port: () => listenOn,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.resetAndDestroy()
        server!.close(() => resolve())
      }),
    restore: open,
  }
}

if (engines().includes('postgres'))
  describe('the delivery loop while PostgreSQL is away', () => {
    test('logs it, goes on polling, and delivers again when the database is back', async () => {
      const hooks = await startWebhookReceiver()
      const schema = await createTestSchema('outage')
      const url = new URL(schema.url)
      const proxy = await startProxy(Number(url.port))
      url.host = `127.0.0.1:${proxy.port()}`
      const direct = await openPostgres(schema.url, 2)
      const db = await openPostgres(url.toString(), 5)
      const lines: string[] = []
      let app: Awaited<ReturnType<typeof buildApp>> | null = null
      try {
        await migrate(direct)
        const shop = buildShop({
          shop: 'north',
          webhooks: [
            { url: hooks.url(), secret: `whsec_${randomBytes(24).toString('base64')}`, events: ['return.created'] },
          ],
        })
        const imported = await importShop(direct, shop, NOW, undefined, { allowPrivateNetworks: true })
        if (!imported.ok) throw new Error(imported.errors.join('\n'))
        const [endpoint] = await direct.query<{ id: string }>('SELECT id FROM webhook_endpoints')
        const enqueue = (id: string) =>
          direct.query(
            `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, payload, created_at, due_at)
             VALUES ($1, 'north', $1, 'return.created', 'webhook', $2, '{"type":"return.created"}', now(), now())`,
            [id, endpoint!.id],
          )
        app = await buildApp({
          db,
          secret: Buffer.from('test-secret'),
          logger: { level: 'info', stream: { write: (line) => void lines.push(line) } },
          delivery: { allowPrivateNetworks: true, pollMs: 50, timeoutMs: 2_000 },
        })
        await enqueue('msg_before')
        await hooks.waitFor(1)

        await proxy.cut()
        await eventually(
          () => (lines.some((line) => line.includes('could not read the outbox')) ? true : null),
          'the outage in the log',
        )
        await enqueue('msg_during')
        await proxy.restore()
        const received = await hooks.waitFor(2, 30_000)
        expect(received.map((hook) => hook.headers['webhook-id'])).toEqual(['msg_before', 'msg_during'])
        expect(lines.filter((line) => line.includes('could not read the outbox'))).toHaveLength(1)
        expect(lines.some((line) => line.includes('reads the outbox again'))).toBe(true)
        const [error] = lines.filter((line) => line.includes('could not read the outbox'))
        expect(error).toContain('DatabaseUnavailableError')
      } finally {
        await app?.close()
        await db.close()
        await direct.close()
        await proxy.cut()
        await schema.drop()
        await hooks.close()
      }
    }, 120_000)
  })
