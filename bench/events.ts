/**
 * Events out (docs/events.md): how long from a change to its receipt. The compiled server as
 * shipped on an embedded PGlite (its delivery loop looks every second and is woken by a change),
 * a webhook receiver and an SMTP server (smtp-server) on loopback; one submit after another, each
 * webhook timed from its outbox row's creation (the envelope's timestamp) to its arrival, each
 * e-mail from the submit's answer. Twice: idle, then while another shop's endpoint never answers
 * with 50 deliveries pending (issue 29: one shop cannot slow another).
 * Budget: the webhook within 1 s at p99 idle, within 2 s with the hung endpoint. Prints a table,
 * merges the figures into bench/results.json.
 *   npx tsx bench/events.ts [returns per run, default 100]
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
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import { freePort, machineLoad, startServer, stop } from './server'

const RETURNS = Number(process.argv[2] ?? 100)
const BUDGET = { webhookP99Ms: 1_000, hungWebhookP99Ms: 2_000 }
const HUNG = 50

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
  const reference = await measureReference()
  const hooks = await startWebhookReceiver()
  const hung = await startWebhookReceiver()
  hung.mode = 'hang'
  const smtp = await startSmtp()
  const orders = Array.from({ length: 2 * RETURNS }, (_, n) =>
    buildOrder({ name: `#${5000 + n}`, email: `p${n}@example.com`, line_items: [buildLine({ id: `li-${n}` })] }),
  )
  const secret = () => `whsec_${randomBytes(24).toString('base64')}`
  const shop = buildShop({
    shop: 'bench',
    orders,
    webhooks: [{ url: hooks.url(), secret: secret(), events: ['return.created'] }],
  })
  const stuck = buildOrder({
    name: '#9000',
    email: 'stuck@example.com',
    line_items: Array.from({ length: HUNG }, (_, n) => buildLine({ id: `li-stuck-${n}` })),
  })
  const stuckShop = buildShop({
    shop: 'stuck',
    orders: [stuck],
    webhooks: [{ url: hung.url(), secret: secret(), events: ['return.created'] }],
  })
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-events-'))
  const db = await openPglite(dataDir)
  await migrate(db)
  for (const file of [shop, stuckShop]) {
    const imported = await importShop(db, file, new Date(), undefined, { allowPrivateNetworks: true })
    if (!imported.ok) throw new Error(imported.errors.join('\n'))
  }
  await db.close()
  const port = await freePort()
  let server: ChildProcess | null = null
  const runs = { idle: { webhookMs: [] as number[], emailMs: [] as number[] }, hung: { webhookMs: [], emailMs: [] } }

  /** Submits orders[from..from+RETURNS) one after another, timing each webhook and e-mail into `into`. */
  async function measure(from: number, into: { webhookMs: number[]; emailMs: number[] }) {
    for (let n = from; n < from + RETURNS; n++) {
      const order = orders[n]!
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
      const created = Date.parse((JSON.parse(hook!.body) as { timestamp: string }).timestamp)
      into.webhookMs.push(hook!.at - created)
      await smtp.waitFor(n + 1)
      into.emailMs.push(Date.now() - answered)
      if (!hook!.body.includes(id)) throw new Error('a webhook arrived for another return')
    }
  }

  try {
    server = await startServer(port, {
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      VERIFY_FAILURE_FLOOR_MS: '0',
    })
    await measure(0, runs.idle)
    // Another shop's endpoint takes every delivery and never answers: 50 of them pending.
    const verified = await call(port, '/portal-registration/verify', {
      order_name: stuck.name,
      email: stuck.email,
      ...portalOf(stuckShop),
    })
    const { token } = JSON.parse(verified.body) as { token: string }
    for (let n = 0; n < HUNG; n++) {
      const answer = await call(port, '/portal-registration/returns', buildReturn([returnItem(`li-stuck-${n}`)]), {
        authorization: `Bearer ${token}`,
        'idempotency-key': `bench-stuck-${n}`,
      })
      if (answer.status !== 201) throw new Error(`submit: ${answer.status} ${answer.body}`)
    }
    await hung.waitFor(1)
    await measure(RETURNS, runs.hung)
  } finally {
    await hung.close()
    if (server) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
    await hooks.close()
    await smtp.close()
  }
  const row = (what: string, key: 'webhookMs' | 'emailMs', budget: [number, number] | null) => ({
    what,
    idle: { p50: percentile(runs.idle[key], 50), p99: percentile(runs.idle[key], 99) },
    hung: { p50: percentile(runs.hung[key], 50), p99: percentile(runs.hung[key], 99) },
    budget,
  })
  const rows = [
    row('webhook (signed POST answered 204)', 'webhookMs', [BUDGET.webhookP99Ms, BUDGET.hungWebhookP99Ms]),
    row('e-mail (taken by the SMTP server)', 'emailMs', null),
  ]
  console.log(`\nTo receipt, ${RETURNS} returns one after another (PGlite, loopback); ms`)
  console.log(`hung: while another shop's endpoint never answers, ${HUNG} deliveries pending\n`)
  const cells = ['idle p50', 'idle p99', 'hung p50', 'hung p99', 'budget']
  console.log(`${'delivery'.padEnd(36)} ${cells.map((cell) => cell.padStart(9)).join(' ')}`)
  for (const each of rows)
    console.log(
      `${each.what.padEnd(36)} ${[
        each.idle.p50,
        each.idle.p99,
        each.hung.p50,
        each.hung.p99,
        each.budget ? `≤ ${each.budget[0]}/${each.budget[1]}` : '—',
      ]
        .map((cell) => String(cell).padStart(9))
        .join(' ')}`,
    )
  const webhook = rows[0]!
  const held = webhook.idle.p99 <= BUDGET.webhookP99Ms && webhook.hung.p99 <= BUDGET.hungWebhookP99Ms
  console.log(
    `webhook p99 budget ≤ ${BUDGET.webhookP99Ms} ms idle, ≤ ${BUDGET.hungWebhookP99Ms} ms hung: ${held ? 'holds' : 'MISSED'}`,
  )
  console.log('Retries after a failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts, 27 h 35 min).')
  printReference(reference)
  saveResults('events', { returns: RETURNS, hung: HUNG, rows, machine: load.note }, reference)
  return held
})
