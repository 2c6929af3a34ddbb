/**
 * The shoppers of bench/consoleUnderLoad.ts, in a process of their own so that their work never
 * delays the staff timings of the benchmark's process: `clients` loops, each as the portal does it
 * (verify the order, quote the choices, submit them with an Idempotency-Key), each on orders of its
 * own (#S<n>, submitter<n>@example.com, one tee each). Prints "ready" once every client has made a
 * return, and on SIGTERM, once every loop has finished its submit, one line of JSON: its figures.
 *   node --import tsx bench/submitters.ts <port> <clients> <orders>
 */
import { randomUUID } from 'node:crypto'

const [port, clients, orders] = process.argv.slice(2, 5).map(Number) as [number, number, number]
const base = `http://127.0.0.1:${port}/portal-registration`
const json = { 'content-type': 'application/json' }

let stopping = false
let ready = 0
const submits: number[] = []
const failures: string[] = []

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify(body),
  })
  const answer = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`)
  return answer
}

/** One shopper's return of order `n`: the submit's time in ms. */
async function shopper(n: number): Promise<number> {
  const verified = await post('/verify', {
    order_name: `#S${n}`,
    email: `submitter${n}@example.com`,
    shop: 'demo',
    portal_id: 'portal-demo',
  })
  const bearer = { authorization: `Bearer ${String(verified.token)}` }
  const [line] = verified.line_items as { id: string }[]
  const choices = {
    items: [{ line_item_id: line!.id, quantity: 1, reason_id: 'too_small' }],
    refund_method: 'original_payment',
  }
  await post('/returns/quote', choices, bearer)
  const started = performance.now()
  await post('/returns', choices, { ...bearer, 'idempotency-key': randomUUID() })
  return performance.now() - started
}

async function client(index: number) {
  let first = true
  for (let n = index + 1; !stopping && n <= orders; n += clients) {
    try {
      submits.push(await shopper(n))
    } catch (error) {
      failures.push((error as Error).message)
    }
    if (first && ++ready === clients) console.log('ready')
    first = false
  }
}

const started = performance.now()
const running = Promise.all(Array.from({ length: clients }, (_, index) => client(index)))
process.on('SIGTERM', () => {
  stopping = true
  void running.then(() => {
    const seconds = (performance.now() - started) / 1000
    const sorted = [...submits].sort((a, b) => a - b)
    const at = (share: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0)
    console.log(
      JSON.stringify({
        submits: submits.length,
        perSecond: Math.round((submits.length / seconds) * 10) / 10,
        p50: at(0.5),
        p99: at(0.99),
        failures: failures.length,
        firstFailure: failures[0] ?? null,
      }),
    )
    process.exit(0)
  })
})
