import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { ReturnOrder } from '../../contract/api'
import type { EngineActionList } from '../../contract/events'
import { EngineError, type CommerceEngine, type EngineDirectory } from '../src/commerce/engine'
import { hashPassword } from '../src/domain/passwords'
import type { EngineAction } from '../src/domain/engineActions'
import { signStatus } from '../src/domain/token'
import { claimDue, writeEngineAction } from '../src/storage/outbox'
import { addStaff } from '../src/storage/staff'
import { buildLine, buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { bearer, engines, loadShops, NOW, staffCookie, startApi, type TestApi, verified } from './harness'
import { eventually } from './receivers'

/**
 * The actions in the shop's commerce engine as staff follow them (docs/commerce.md): listed for a
 * return and across returns, filtered by kind and state, and retried under the same key, never
 * once done. The shopper's status page says nothing of them. Rows are written as the use cases
 * write them (`writeEngineAction`); a fake engine fails or succeeds on demand.
 */

const PASSWORD = 'correct horse battery'
const jane = buildOrder({ name: '#1001', email: 'jane@example.com', line_items: [buildLine({ id: 'li-tee' })] })
const bob = buildOrder({ name: '#1002', email: 'bob@example.com', line_items: [buildLine({ id: 'li-cap' })] })
const DEMO = buildShop({ shop: 'demo', orders: [jane, bob] })
const ACME = buildShop({ shop: 'acme' })
const DEMO_HOST = 'demo.localhost'

const refund = (amount_minor: number): EngineAction => ({ kind: 'refund', order_id: 'order_1', amount_minor, note: '' })
const opened: EngineAction = { kind: 'request_return', order_id: 'order_1', items: [], note: '' }

/** An engine that fails while `failing`, and otherwise makes one thing per key (as Medusa's adapter does). */
function fakeEngine() {
  const calls: { kind: string; key: string }[] = []
  const made = new Map<string, string>()
  const state = { failing: true }
  const engine: CommerceEngine = {
    name: 'medusa',
    carryOut(action, key) {
      calls.push({ kind: action.kind, key })
      if (state.failing) return Promise.reject(new EngineError('unreachable', 'The engine could not be reached.'))
      const found = made.get(key)
      if (found) return Promise.resolve({ reference: found, alreadyDone: true })
      const reference = `ref_${made.size + 1}`
      made.set(key, reference)
      return Promise.resolve({ reference, alreadyDone: false })
    },
  }
  const directory: EngineDirectory = { forShop: (shop) => Promise.resolve(shop === 'demo' ? engine : null) }
  return { directory, calls, made, state }
}

describe.each(engines())('engine actions in the back office on %s', (engine) => {
  let api: TestApi
  let fake: ReturnType<typeof fakeEngine>
  let cookie: string
  let acmeCookie: string
  beforeAll(async () => {
    fake = fakeEngine()
    // The delivery clock stands still: a failed action waits for its retry until staff retry it.
    api = await startApi(engine, [], {
      delivery: { allowPrivateNetworks: false, pollMs: 20, timeoutMs: 2_000, clock: () => NOW },
      engines: fake.directory,
    })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM outbox; DELETE FROM store_connections; DELETE FROM shops')
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'staff@acme.example', await hashPassword(PASSWORD), NOW)
    cookie = await staffCookie(api.app, 'staff@demo.example', PASSWORD, DEMO_HOST)
    acmeCookie = await staffCookie(api.app, 'staff@acme.example', PASSWORD, 'acme.localhost')
    fake.calls.length = 0
    fake.made.clear()
    fake.state.failing = true
  })

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, as = cookie, host = DEMO_HOST, payload?: object) =>
    api.app.inject({
      method,
      url,
      headers: { host, cookie: as, origin: `http://${host}` },
      ...(payload ? { payload } : {}),
    })
  const json = <T>(response: LightMyRequestResponse) => {
    if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`)
    return response.json<T>()
  }
  const list = async (query = '') => json<EngineActionList>(await call('GET', `/admin/api/engine-actions${query}`))

  async function submit(order = jane): Promise<ReturnOrder & { id: string }> {
    const { token } = await verified(api.app, DEMO, order)
    const answer = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': randomBytes(8).toString('hex'), host: `${DEMO_HOST}:8080` },
      payload: buildReturn([returnItem(order.line_items[0]!.id)]),
    })
    return answer.json<ReturnOrder & { id: string }>()
  }
  const write = (returnId: string, action: EngineAction) =>
    api.db.transaction((tx) => writeEngineAction(tx, { shopId: 'demo', returnId, action }, NOW))
  /** The actions of a return once its first has had an attempt (the others wait behind it, in order). */
  const attempted = (returnId: string) =>
    eventually(async () => {
      const answer = await list(`?return_id=${returnId}`)
      const first = answer.actions.at(-1)
      return first && (first.last_error !== null || first.state !== 'pending') ? answer : null
    }, 'the first action to be attempted')

  test('a return’s actions: kind, amount, state, attempts and last error, for this shop’s staff only', async () => {
    const created = await submit()
    const openedId = await write(created.id, opened)
    const refundId = await write(created.id, refund(3154))
    const answer = await attempted(created.id)
    expect(answer.engine).toBeNull()
    // Newest first; the refund waits behind the return it refunds (in order per return).
    expect(answer.actions).toEqual([
      expect.objectContaining({ id: refundId, kind: 'refund', amount: { amount: '31.54', currency_code: 'EUR' } }),
      {
        id: openedId,
        return_id: created.id,
        return_name: created.name,
        kind: 'request_return',
        amount: null,
        state: 'pending',
        attempts: 1,
        created_at: NOW.toISOString(),
        done_at: null,
        next_attempt_at: new Date(NOW.getTime() + 5_000).toISOString(),
        last_error: 'The engine could not be reached.',
        reference: null,
      },
    ])
    expect(
      (await call('GET', `/admin/api/engine-actions?return_id=${created.id}`, acmeCookie, 'acme.localhost')).json(),
    ).toEqual({ engine: null, actions: [] })
    expect(
      (await call('POST', `/admin/api/engine-actions/${openedId}/retry`, acmeCookie, 'acme.localhost')).statusCode,
    ).toBe(404)
    // The shopper's status page tells nothing of the engine.
    const status = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/status?signature=${signStatus(Buffer.from('test-secret'), created.id)}`,
      headers: { host: `${DEMO_HOST}:8080` },
    })
    expect(status.statusCode).toBe(200)
    expect(status.body).not.toMatch(/engine|could not be reached|act_/i)
  })

  test('a retry carries the action out under the same key, once; one done cannot be retried', async () => {
    const created = await submit()
    const openedId = await write(created.id, opened)
    await attempted(created.id)
    fake.state.failing = false
    expect((await call('POST', `/admin/api/engine-actions/${openedId}/retry`)).statusCode).toBe(202)
    const done = await eventually(async () => {
      const [action] = (await list(`?return_id=${created.id}`)).actions
      return action?.state === 'delivered' ? action : null
    }, 'the action to be done')
    expect(done).toMatchObject({ reference: 'ref_1', last_error: null, attempts: 2, done_at: NOW.toISOString() })
    expect(fake.calls).toEqual([
      { kind: 'request_return', key: openedId },
      { kind: 'request_return', key: openedId },
    ])
    const again = await call('POST', `/admin/api/engine-actions/${openedId}/retry`)
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ error: 'already_done' })
    expect(fake.made.size).toBe(1)
  })

  test('an action given up is retried; one under way is refused; a webhook’s redeliver takes no action', async () => {
    const created = await submit()
    const refundId = await write(created.id, refund(1000))
    await attempted(created.id)
    await api.db.query("UPDATE outbox SET state = 'failed', attempts = 8 WHERE id = $1", [refundId])
    expect((await list(`?return_id=${created.id}`)).actions[0]).toMatchObject({
      state: 'failed',
      next_attempt_at: null,
    })

    await api.db.query("UPDATE outbox SET state = 'pending', locked_until = $2 WHERE id = $1", [
      refundId,
      new Date(NOW.getTime() + 30_000),
    ])
    const busy = await call('POST', `/admin/api/engine-actions/${refundId}/retry`)
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toMatchObject({ error: 'in_flight' })
    await api.db.query("UPDATE outbox SET state = 'failed', locked_until = NULL WHERE id = $1", [refundId])

    // The webhooks' redeliver knows message ids only, and the retry engine action ids only.
    expect((await call('POST', `/admin/api/deliveries/${refundId}/redeliver`)).statusCode).toBe(400)
    expect((await call('POST', `/admin/api/engine-actions/act_${'0'.repeat(32)}/retry`)).statusCode).toBe(404)
    expect((await call('POST', `/admin/api/engine-actions/msg_${'0'.repeat(32)}/retry`)).statusCode).toBe(400)

    fake.state.failing = false
    expect((await call('POST', `/admin/api/engine-actions/${refundId}/retry`)).statusCode).toBe(202)
    const done = await eventually(async () => {
      const [action] = (await list(`?return_id=${created.id}`)).actions
      return action?.state === 'delivered' ? action : null
    }, 'the refund to be done')
    expect(done).toMatchObject({ reference: 'ref_1', attempts: 9 })
  })

  test('a cancel waits behind the opening it undoes; once written, that opening is never retried', async () => {
    const created = await submit()
    const openedId = await write(created.id, opened)
    const cancelId = await write(created.id, { kind: 'cancel_return', order_id: 'order_1', return_key: openedId })
    await attempted(created.id)
    // The opening waits for its retry (the clock stands still): the cancel behind it is not due.
    expect(await claimDue(api.db, NOW, new Date(NOW.getTime() + 30_000), 10)).toEqual([])
    expect(fake.calls).toEqual([{ kind: 'request_return', key: openedId }])
    const refused = await call('POST', `/admin/api/engine-actions/${openedId}/retry`)
    expect({ status: refused.statusCode, body: refused.json<unknown>() }).toMatchObject({
      status: 409,
      body: { error: 'return_cancelled' },
    })
    // The console is told, so it offers no Retry there; the cancel itself is not marked.
    const marked = (await list(`?return_id=${created.id}`)).actions.map((action) => [
      action.kind,
      action.return_cancelled,
    ])
    expect(marked).toEqual([
      ['cancel_return', undefined],
      ['request_return', true],
    ])

    // Given up, the opening lets the cancel go: it finds nothing opened (decision 0088).
    fake.state.failing = false
    await api.db.query("UPDATE outbox SET state = 'failed', attempts = 8 WHERE id = $1", [openedId])
    await eventually(async () => {
      const [cancel] = (await list(`?return_id=${created.id}`)).actions
      return cancel?.state === 'delivered' ? cancel : null
    }, 'the cancel to be done')
    expect(fake.calls).toEqual([
      { kind: 'request_return', key: openedId },
      { kind: 'cancel_return', key: cancelId },
    ])
    const again = await call('POST', `/admin/api/engine-actions/${openedId}/retry`)
    expect(again.json()).toMatchObject({ error: 'return_cancelled' })
    expect((await list(`?return_id=${created.id}&kind=cancel_return`)).actions.map((action) => action.id)).toEqual([
      cancelId,
    ])
  })

  test('across returns: every refund the engine has not confirmed, named by the connected engine', async () => {
    const first = await submit()
    const second = await submit(bob)
    fake.state.failing = false
    const doneRefund = await write(first.id, refund(2500))
    await eventually(async () => ((await list('?state=delivered')).actions.length === 1 ? true : null), 'one done')
    fake.state.failing = true
    const waitingRefund = await write(second.id, refund(3154))
    const waitingOpen = await write(second.id, opened)
    await attempted(second.id)
    const connected = await call('PUT', '/admin/api/store-connection', cookie, DEMO_HOST, {
      engine: 'medusa',
      url: 'http://127.0.0.1:9000',
      api_key: 'sk_test_engine_actions',
      sales_channel_id: 'sc_01',
      stock_location_id: 'sloc_01',
    })
    expect(connected.statusCode).toBe(200)

    const unconfirmed = await list('?kind=refund&state=unconfirmed')
    expect(unconfirmed.engine).toBe('medusa')
    expect(unconfirmed.actions.map((action) => [action.id, action.return_name])).toEqual([[waitingRefund, second.name]])
    expect((await list('?state=delivered')).actions.map((action) => action.id)).toEqual([doneRefund])
    expect((await list('?kind=request_return')).actions.map((action) => action.id)).toEqual([waitingOpen])
    expect((await list()).actions).toHaveLength(3)
    expect((await call('GET', '/admin/api/engine-actions?kind=restock')).statusCode).toBe(400)
    expect((await call('GET', '/admin/api/engine-actions?state=kept')).statusCode).toBe(400)
  })
})
