/**
 * Events out (docs/events.md): how long from a change to its receipt. The compiled server as
 * shipped on an embedded PGlite (its delivery loop looks every second and is woken by a change),
 * a webhook receiver and an SMTP server (smtp-server) on loopback; one submit after another, each
 * timed from the submit's answer to the signed webhook's arrival and to the e-mail's.
 * Budget: the webhook within 1 s at p99. Prints a table, merges the figures into bench/results.json.
 *   npx tsx bench/events.ts [returns, default 100]
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReturnOrder } from '../contract/api'
import { importShop } from '../server/src/import/importShop'
import { openPglite } from '../server/src/storage/database'
import { migrate } from '../server/src/storage/migrations'
import { buildLine, buildOrder, buildReturn, buildShop, portalOf, returnItem } from '../server/test/builders'
import { startSmtp, startWebhookReceiver } from '../server/test/receivers'
import { runBenchmark, saveResults } from './results'
import { freePort, machineLoad, startServer, stop } from './server'

const RETURNS = Number(process.argv[2] ?? 100)
const BUDGET = { webhookP99Ms: 1_000 }

/** A JSON call to the server on loopback, as the shop's portal host (Host: bench.localhost). */
function call(port: number, path: string, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { host: 'bench.localhost', 'content-type': 'application/json', ...headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!)
}

runBenchmark('Events out', async () => {
  const load = machineLoad()
  const hooks = await startWebhookReceiver()
  const smtp = await startSmtp()
  const orders = Array.from({ length: RETURNS }, (_, n) =>
    buildOrder({ name: `#${5000 + n}`, email: `p${n}@example.com`, line_items: [buildLine({ id: `li-${n}` })] }),
  )
  const shop = buildShop({
    shop: 'bench',
    orders,
    webhooks: [
      {
        url: hooks.url(),
        secret: `whsec_${randomBytes(24).toString('base64')}`,
        events: ['return.created'],
      },
    ],
  })
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-events-'))
  const db = await openPglite(dataDir)
  await migrate(db)
  const imported = await importShop(db, shop, new Date(), undefined, { allowPrivateNetworks: true })
  await db.close()
  if (!imported.ok) throw new Error(imported.errors.join('\n'))
  const port = await freePort()
  let server: ChildProcess | null = null
  const webhookMs: number[] = []
  const emailMs: number[] = []
  try {
    server = await startServer(port, {
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      VERIFY_FAILURE_FLOOR_MS: '0',
    })
    for (const [n, order] of orders.entries()) {
      const verified = await call(port, '/portal-registration/verify', {
        order_name: order.name,
        email: order.email,
        ...portalOf(shop),
      })
      const { token } = JSON.parse(verified.body) as { token: string }
      const answer = await call(port, '/portal-registration/returns', buildReturn([returnItem(`li-${n}`)]), {
        authorization: `Bearer ${token}`,
        'idempotency-key': `bench-return-${n}`,
      })
      const answered = Date.now()
      if (answer.status !== 201) throw new Error(`submit: ${answer.status} ${answer.body}`)
      const id = (JSON.parse(answer.body) as ReturnOrder).id!
      const [hook] = (await hooks.waitFor(n + 1)).slice(n)
      webhookMs.push(hook!.at - answered)
      await smtp.waitFor(n + 1)
      emailMs.push(Date.now() - answered)
      if (!hook!.body.includes(id)) throw new Error('a webhook arrived for another return')
    }
  } finally {
    if (server) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
    await hooks.close()
    await smtp.close()
  }
  const rows = [
    { what: 'webhook (signed POST answered 204)', p50: percentile(webhookMs, 50), p99: percentile(webhookMs, 99) },
    { what: 'e-mail (taken by the SMTP server)', p50: percentile(emailMs, 50), p99: percentile(emailMs, 99) },
  ]
  console.log(`\nFrom a submit's answer to receipt, ${RETURNS} returns one after another (PGlite, loopback)\n`)
  console.log(`${'delivery'.padEnd(40)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'budget'.padStart(8)}`)
  for (const [at, row] of rows.entries())
    console.log(
      `${row.what.padEnd(40)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${(at === 0 ? `≤ ${BUDGET.webhookP99Ms}` : '—').padStart(8)}`,
    )
  const held = rows[0]!.p99 <= BUDGET.webhookP99Ms
  console.log(`webhook p99 budget ≤ ${BUDGET.webhookP99Ms} ms: ${held ? 'holds' : 'MISSED'}`)
  console.log('Retries after a failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts, 27 h 35 min).')
  saveResults('events', { returns: RETURNS, rows, machine: load.note })
  return held
})
