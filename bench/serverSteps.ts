/**
 * The server's part of the shopper's steps that wait on it (docs/benchmarks.md, "The shopper's
 * steps"): the compiled server as `npm start` runs it, on PGlite in a DATA_DIR of its own, the
 * demo shop put back before each run as bench/steps.ts does; then, one request at a time over
 * loopback, the verify of #1001 and #1006 (each after a reset) and the submit of the choices bench/steps.ts makes
 * (#1001: the tee too small, exchanged for L, the mug changed my mind, an upsell, store credit;
 * #1006: its first tee exchanged for L, its first cap refunded, store credit), each submit after
 * its quote as the portal asks it. Prints p50 / p75 / max of each call's time (the request sent
 * to its answer read), with the machine's reference.
 *   npx tsx bench/serverSteps.ts [runs, default 20]
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resetDemoShop } from '../e2e/resetDemo'
import { measureReference, printReference } from './reference'
import { freePort, machineLoad, startServer, stop } from './server'

const runs = Math.max(1, Number(process.argv[2] ?? 20))
const ADMIN_TOKEN = randomBytes(24).toString('hex')

interface Journey {
  order: string
  email: string
  /** the submit's items, by line */
  items: { line_item_id: string; quantity: number; reason_id: string; exchange_variant_id?: string }[]
  upsell_variant_id?: string
}

const JOURNEYS: Journey[] = [
  {
    order: '#1001',
    email: 'jane@example.com',
    items: [
      { line_item_id: 'li-1001-001', quantity: 1, reason_id: 'too_small', exchange_variant_id: 'classic-tee-l' },
      { line_item_id: 'li-1001-002', quantity: 1, reason_id: 'changed_mind' },
    ],
  },
  {
    order: '#1006',
    email: 'bulk@example.com',
    items: [
      { line_item_id: 'li-1006-001', quantity: 1, reason_id: 'too_small', exchange_variant_id: 'classic-tee-l' },
      { line_item_id: 'li-1006-002', quantity: 1, reason_id: 'changed_mind' },
    ],
  },
]

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number; body: unknown }> {
  const started = performance.now()
  const response = await fetch(url, init)
  const body: unknown = await response.json()
  return { ms: performance.now() - started, status: response.status, body }
}

async function main() {
  const reference = await measureReference()
  const before = machineLoad()
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-server-steps-'))
  const server = await startServer(port, { DATA_DIR: dataDir, ADMIN_TOKEN })
  const origin = `http://127.0.0.1:${port}`
  const base = `${origin}/portal-registration`
  const times = new Map<string, number[]>()
  const record = (call: string, ms: number) => times.set(call, [...(times.get(call) ?? []), ms])
  try {
    for (let run = 0; run <= runs; run++) {
      for (const journey of JOURNEYS) {
        // Before each journey: the e-mails and webhooks of the last submit are delivered by then
        // (the reset waits behind them on PGlite's one connection), not while the next is timed.
        await resetDemoShop(origin, ADMIN_TOKEN, 'demo.json')
        const verified = await timed(`${base}/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            order_name: journey.order,
            email: journey.email,
            shop: 'demo',
            portal_id: 'portal-demo',
          }),
        })
        if (verified.status !== 200) throw new Error(`verify ${journey.order}: ${verified.status}`)
        const headers = {
          'content-type': 'application/json',
          authorization: `Bearer ${(verified.body as { token: string }).token}`,
        }
        const choices = JSON.stringify({ items: journey.items, refund_method: 'store_credit' })
        const quoted = await timed(`${base}/returns/quote`, { method: 'POST', headers, body: choices })
        if (quoted.status !== 200)
          throw new Error(`quote ${journey.order}: ${quoted.status} ${JSON.stringify(quoted.body)}`)
        const submitted = await timed(`${base}/returns`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': randomUUID() },
          body: choices,
        })
        if (submitted.status !== 201)
          throw new Error(`submit ${journey.order}: ${submitted.status} ${JSON.stringify(submitted.body)}`)
        // The first run warms the server and is not counted, as bench/steps.ts does.
        if (run === 0) continue
        record(`${journey.order} verify`, verified.ms)
        record(`${journey.order} quote`, quoted.ms)
        record(`${journey.order} submit`, submitted.ms)
      }
    }
  } finally {
    await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
  const after = machineLoad()
  console.log(`PGlite (DATA_DIR), ${runs} runs, one request at a time; ms from the request sent to its answer read`)
  console.log('call               p50    p75    max')
  for (const [call, values] of times)
    console.log(
      `${call.padEnd(16)} ${[50, 75, 100].map((p) => percentile(values, p).toFixed(1).padStart(6)).join(' ')}`,
    )
  printReference(reference)
  console.log(`Load average: ${before.loadAverage} before, ${after.loadAverage} after, on ${after.cores} cores.`)
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
