import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReturnOrder, ReturnRequest, VerifiedOrder } from '../../contract/api'
import type { OrderFile, ShopFile } from '../src/import/shopFile'
import { buildLine, buildOrder, buildReturn, buildShop, portalOf, returnItem } from './builders'
import { childEnv, runCommand, scriptCommand, within } from './spawned'

/**
 * What the process tests (process.test.ts on PGlite, processPostgres.test.ts on PostgreSQL) do to
 * a spawned server over HTTP: one set of calls, and the kill -9 burst both engines must survive.
 */

export { freePort } from './spawned'

/** An answer's status and its body, parsed as JSON when it is JSON (its type as the caller expects it). */
export interface Answer<T = unknown> {
  status: number
  body: T
}

/** A spawned server as the tests call it. */
export interface CallsServer {
  call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>
}

/**
 * Imports `shops` with the import CLI (`npm run import-shop`) into the database `env` names
 * (DATA_DIR or DATABASE_URL), as an operator does before a first start: a server started on it
 * then finds shops and loads no demo shops.
 */
export async function importWithCli(env: Record<string, string>, shops: ShopFile[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-shop-files-'))
  try {
    const paths = shops.map((shop) => {
      const path = join(dir, `${shop.shop}.json`)
      writeFileSync(path, JSON.stringify(shop))
      return path
    })
    const run = await runCommand(scriptCommand('import-shop'), paths, childEnv(env))
    if (run.code !== 0) throw new Error(`import-shop exited ${run.code}:\n${run.stdout}${run.stderr}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function verify(server: CallsServer, shop: ShopFile, order: OrderFile): Promise<VerifiedOrder> {
  const answer = await server.call<VerifiedOrder>('POST', '/portal-registration/verify', {
    order_name: order.name,
    email: order.email,
    ...portalOf(shop),
  })
  if (answer.status !== 200) throw new Error(`verify ${order.name}: ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer.body
}

export const submit = (server: CallsServer, token: string, key: string, request: ReturnRequest) =>
  server.call<ReturnOrder>('POST', '/portal-registration/returns', request, {
    authorization: `Bearer ${token}`,
    'idempotency-key': key,
  })

export const oneUnit = (lineItemId: string): ReturnRequest => buildReturn([returnItem(lineItemId)])

/**
 * The order killDuringBurst returns from: #1006 with 70 lines of one unit and two of two, in a
 * shop of its own. Import BURST_SHOP before the engine's first start.
 */
export const BULK = buildOrder({
  name: '#1006',
  email: 'bulk@example.com',
  line_items: [
    ...Array.from({ length: 70 }, (_, i) => buildLine({ id: `li-bulk-${String(i + 1).padStart(3, '0')}` })),
    buildLine({ id: 'li-bulk-pair-1', quantity: 2 }),
    buildLine({ id: 'li-bulk-pair-2', quantity: 2 }),
  ],
})
export const BURST_SHOP = buildShop({ shop: 'bulk', orders: [BULK] })

/** How a test starts its engine's server and kills it hard (kill -9 of the process running server.ts). */
export interface Engine<S extends CallsServer> {
  start(): Promise<S>
  killHard(server: S): Promise<void>
}

/**
 * Fires `burst` one-unit submits of BULK at once and kills the server the moment the third is
 * answered, while the rest are in flight (a burst large enough that a fast machine cannot answer
 * it all before the kill lands). After a restart: every return answered 201 is there (the same
 * key answers 200 with it), the unanswered ones are made at most once, and no unit is returned
 * twice. Resolves with the restarted server, for the caller to stop.
 */
export async function killDuringBurst<S extends CallsServer>(
  engine: Engine<S>,
  keyPrefix: string,
  burst = 60,
): Promise<S> {
  const first = await engine.start()
  const order = await verify(first, BURST_SHOP, BULK)
  const lines = order.line_items.filter((line) => line.quantity === 1 && line.returnable_quantity === 1).slice(0, burst)
  expect(lines).toHaveLength(burst)
  const submits = lines.map((line, i) => ({
    key: `${keyPrefix}-${String(i).padStart(4, '0')}`,
    request: oneUnit(line.id),
  }))

  const answered = new Map<string, Answer<ReturnOrder>>()
  // Set from the submits' callbacks: a field, which the compiler does not narrow to its first value.
  const kill: { done: Promise<void> | null } = { done: null }
  const fired = submits.map(async ({ key, request }) => {
    const answer = await submit(first, order.token, key, request).catch(() => null)
    if (answer === null) return
    expect(answer.status).toBe(201)
    answered.set(key, answer)
    if (answered.size === 3) kill.done ??= engine.killHard(first)
  })
  await within(60_000, 'the burst to settle', Promise.all(fired))
  expect(kill.done).not.toBeNull()
  await kill.done
  expect(answered.size).toBeGreaterThanOrEqual(3)
  expect(answered.size).toBeLessThan(burst)

  const second = await engine.start()
  for (const { key, request } of submits) {
    const retried = await submit(second, order.token, key, request)
    const before = answered.get(key)
    if (before) expect(retried).toEqual({ status: 200, body: before.body })
    // Unanswered: committed before the kill (200, its answer was lost) or never (201 now).
    else expect([200, 201]).toContain(retried.status)
  }
  const after = await verify(second, BURST_SHOP, BULK)
  for (const line of lines) {
    expect(after.line_items.find((item) => item.id === line.id)).toMatchObject({
      returnable_quantity: 0,
      ineligible_reason: 'already_returned',
    })
  }
  // No unit twice: the order's other lines are untouched.
  const others = after.line_items.filter((item) => !lines.some((line) => line.id === item.id))
  expect(others.every((item) => item.returnable_quantity === item.quantity)).toBe(true)
  return second
}
