import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { ReturnOrder } from '../../contract/api'
import type { AuditEntry, AuditPage, AuditPeople, CreatedApiKey } from '../../contract/staff'
import type { CreatedWebhook } from '../../contract/events'
import { hashPassword } from '../src/domain/passwords'
import { appendAudit } from '../src/storage/audit'
import { addStaff } from '../src/storage/staff'
import { insertSupportReference } from '../src/storage/supportReferences'
import { buildLine, buildOrder, buildProduct, buildReturn, buildShop, returnItem } from './builders'
import { bearer, engines, loadShops, NOW, staffCookie, startApi, type TestApi, verified } from './harness'
import { photo } from './images'

/**
 * The audit log (docs/back-office.md, "The audit log"): each change by staff or an API key, made
 * through the HTTP API, is found in the log with who made it, from which address and what
 * changed, and never with a secret; the page filters, pages and exports it. No route changes or
 * deletes an entry (the table's trigger refuses it too: auditLog.test.ts).
 */

const PASSWORD = 'correct horse battery'
const STORE_KEY = 'sk_store_key_that_must_never_show'
const OWNER = 'owner@demo.example'
const HOST = 'demo.localhost'

/** jane's two tees (50.00) wait for review; sam's one does not. bob's order has no return. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'jane-tee', variant_id: 'tee-m', quantity: 2 })],
})
const sam = buildOrder({ name: '#1002', email: 'sam@example.com', line_items: [buildLine({ id: 'sam-tee' })] })
const bob = buildOrder({ name: '#1003', email: 'bob@example.com', line_items: [buildLine({ id: 'bob-tee' })] })
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct()],
  orders: [jane, sam, bob],
  policy: { review: { over_amount: '40.00' } },
})
const ACME = buildShop({ shop: 'acme' })

describe.each(engines())('the audit log through the API on %s', (engine) => {
  let api: TestApi
  let cookie: string
  let apiToken = ''
  beforeAll(async () => {
    api = await startApi(engine, [], {
      delivery: { allowPrivateNetworks: true, pollMs: 60_000, timeoutMs: 500, clock: () => NOW },
    })
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', OWNER, await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'owner@acme.example', await hashPassword(PASSWORD), NOW)
    cookie = await staffCookie(api.app, OWNER, PASSWORD, HOST)
  }, 120_000)
  afterAll(() => api.close())

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    { as = cookie, address = '203.0.113.7' }: { as?: string; address?: string } = {},
  ) =>
    api.app.inject({
      method,
      url,
      remoteAddress: address,
      headers: { host: HOST, cookie: as, origin: `http://${HOST}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  const json = <T>(response: LightMyRequestResponse) => {
    if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`)
    return response.json<T>()
  }
  const page = async (query = '') => json<AuditPage>(await call('GET', `/admin/api/audit${query}`))
  /** Every entry of the shop, newest first, all pages. */
  async function everything(query = ''): Promise<AuditEntry[]> {
    const all: AuditEntry[] = []
    let next: string | null = null
    do {
      const answer: AuditPage = await page(next ? `${query}${query === '' ? '?' : '&'}before=${next}` : query)
      all.push(...answer.entries)
      next = answer.next
    } while (next)
    return all
  }
  const last = async (kind: string) => (await everything(`?kind=${kind}`))[0]
  const signIn = (email: string, password: string, address: string) =>
    api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      remoteAddress: address,
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { email, password },
    })
  async function submit(order = sam): Promise<ReturnOrder & { id: string }> {
    const { token } = await verified(api.app, DEMO, order)
    const answer = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': randomBytes(8).toString('hex'), host: `${HOST}:8080` },
      payload: buildReturn([returnItem(order.line_items[0]!.id, { quantity: order.line_items[0]!.quantity })]),
    })
    if (answer.statusCode !== 201) throw new Error(`${answer.statusCode} ${answer.body}`)
    return answer.json<ReturnOrder & { id: string }>()
  }

  test('sign-ins, failed ones (an unknown e-mail too, never the password), lockouts and sign-outs', async () => {
    expect((await signIn(OWNER, 'wrong guess!', '198.51.100.1')).statusCode).toBe(401)
    expect((await signIn('  Nobody@Demo.Example ', 'another guess', '198.51.100.2')).statusCode).toBe(401)
    const mine = await staffCookie(api.app, OWNER, PASSWORD, HOST)
    expect(
      (await call('DELETE', '/admin/api/session', undefined, { as: mine, address: '198.51.100.3' })).statusCode,
    ).toBe(204)
    const entries = await everything('?kind=sign_ins')
    expect(entries.find((entry) => entry.detail.reason === 'wrong_password')).toMatchObject({
      actor: { kind: 'staff', label: OWNER },
      address: '198.51.100.1',
      kind: 'session.sign_in_failed',
    })
    expect(entries.find((entry) => entry.detail.reason === 'unknown_email')).toMatchObject({
      actor: { kind: 'staff', id: null, label: 'nobody@demo.example' },
      address: '198.51.100.2',
    })
    expect(entries[0]).toMatchObject({ kind: 'session.signed_out', address: '198.51.100.3', actor: { label: OWNER } })
    expect(entries[1]).toMatchObject({ kind: 'session.signed_in', actor: { label: OWNER } })

    // Ten wrong passwords lock an e-mail: the tenth is a lockout, and a try while locked is a failure.
    const locked = 'locked@demo.example'
    for (let i = 0; i < 10; i++) await signIn(locked, `guess ${i}`, `198.51.100.${20 + i}`)
    expect((await signIn(locked, 'one more', '198.51.100.40')).statusCode).toBe(429)
    expect(await last('session.locked_out')).toMatchObject({ actor: { label: locked }, address: '198.51.100.29' })
    const tries = await everything(`?person=${encodeURIComponent(locked)}`)
    expect(tries[0]).toMatchObject({
      kind: 'session.sign_in_failed',
      detail: { reason: 'locked' },
    })
  })

  test('a policy change, with what it was and what it is', async () => {
    const policy = { review: { over_amount: '45.00' }, blocked: { emails: ['bad@example.com'] } }
    json(await call('PUT', '/admin/api/policy', policy))
    expect(await last('policy.changed')).toMatchObject({
      actor: { kind: 'staff', label: OWNER },
      address: '203.0.113.7',
      detail: {
        before: { review: { over_amount: '40.00' } },
        after: { review: { over_amount: '45.00' } },
        blocked: { emails: { added: ['bad@example.com'], removed: [] } },
      },
    })
    // The same policy again changes nothing, and writes nothing.
    json(await call('PUT', '/admin/api/policy', policy))
    expect(await everything('?kind=policy.changed')).toHaveLength(1)
    json(await call('PUT', '/admin/api/policy', { review: { over_amount: '40.00' } }))
  })

  test('webhooks added, disabled, enabled, removed; a redeliver and an engine action retried', async () => {
    const url = 'http://127.0.0.1:9/hook'
    const created = json<CreatedWebhook>(await call('POST', '/admin/api/webhooks', { url, events: ['return.created'] }))
    json(await call('PUT', `/admin/api/webhooks/${created.id}/enabled`, { enabled: false }))
    json(await call('PUT', `/admin/api/webhooks/${created.id}/enabled`, { enabled: true }))
    expect((await call('DELETE', `/admin/api/webhooks/${created.id}`)).statusCode).toBe(204)
    const hooks = await everything('?kind=settings')
    expect(hooks.filter((entry) => entry.subject === created.id).map((entry) => entry.kind)).toEqual([
      'webhook.removed',
      'webhook.enabled',
      'webhook.disabled',
      'webhook.added',
    ])
    expect(hooks.find((entry) => entry.kind === 'webhook.added')!.detail).toEqual({ url, events: ['return.created'] })
    expect(JSON.stringify(hooks)).not.toContain(created.secret)

    const message = `msg_${randomBytes(16).toString('hex')}`
    const action = `act_${randomBytes(16).toString('hex')}`
    await api.db.query(
      `INSERT INTO outbox (id, shop_id, event, channel, target, payload, created_at, due_at, state)
       VALUES ($1, 'demo', 'return.created', 'webhook', 'ep_gone', '{}', $3, $3, 'failed'),
              ($2, 'demo', 'engine.refund', 'engine', 'engine', '{}', $3, $3, 'failed')`,
      [message, action, NOW],
    )
    expect((await call('POST', `/admin/api/deliveries/${message}/redeliver`)).statusCode).toBe(202)
    expect((await call('POST', `/admin/api/engine-actions/${action}/retry`)).statusCode).toBe(202)
    expect(await last('delivery.redelivered')).toMatchObject({ subject: message, actor: { label: OWNER } })
    expect(await last('engine_action.retried')).toMatchObject({ subject: action, actor: { label: OWNER } })
  })

  test('the store connection set (never its key), tested and removed', async () => {
    const body = {
      engine: 'medusa',
      url: 'http://127.0.0.1:9',
      api_key: STORE_KEY,
      sales_channel_id: 'sc_1',
      stock_location_id: 'sloc_1',
    }
    json(await call('PUT', '/admin/api/store-connection', body))
    json(await call('PUT', '/admin/api/store-connection', { ...body, api_key: undefined, sales_channel_id: 'sc_2' }))
    const sets = await everything('?kind=store_connection.set')
    expect(sets[0]!.detail).toEqual({
      before: { sales_channel_id: 'sc_1' },
      after: { sales_channel_id: 'sc_2' },
      key_changed: false,
    })
    expect(sets[1]!.detail).toMatchObject({ after: { url: 'http://127.0.0.1:9' }, key_changed: true })
    json(await call('POST', '/admin/api/store-connection/test'))
    expect(await last('store_connection.tested')).toMatchObject({ detail: { ok: false } })
    expect((await call('DELETE', '/admin/api/store-connection')).statusCode).toBe(204)
    expect(await last('store_connection.removed')).toMatchObject({ detail: { before: { sales_channel_id: 'sc_2' } } })
  })

  test('API keys made and revoked by staff; the Orders API’s changes by its key', async () => {
    const made = json<CreatedApiKey>(await call('POST', '/admin/api/api-keys', { label: 'ERP sync' }))
    apiToken = made.token
    expect(await last('api_key.created')).toMatchObject({ subject: made.id, detail: { label: 'ERP sync' } })
    const removed = await api.app.inject({
      method: 'DELETE',
      url: '/api/v1/shops/demo/orders/%231003',
      remoteAddress: '192.0.2.50',
      headers: bearer(made.token),
    })
    expect(removed.statusCode).toBe(204)
    expect(await last('orders_api.order_deleted')).toMatchObject({
      actor: { kind: 'api_key', id: made.id, label: 'ERP sync' },
      address: '192.0.2.50',
      subject: '#1003',
    })
    expect((await everything('?person=ERP%20sync')).map((entry) => entry.kind)).toEqual(['orders_api.order_deleted'])
    expect((await call('DELETE', `/admin/api/api-keys/${made.id}`)).statusCode).toBe(204)
    expect(await last('api_key.revoked')).toMatchObject({ subject: made.id, actor: { label: OWNER } })
  })

  test('a review decided, items moved, a photo added, an inspection recorded', async () => {
    const waiting = await submit(jane)
    json(await call('POST', '/admin/api/reviews', { return_ids: [waiting.id], decision: 'approve' }))
    expect(await last('return.approved')).toMatchObject({ subject: waiting.id, detail: { return_name: waiting.name } })

    const made = await submit(sam)
    json(await call('POST', `/admin/api/returns/${made.id}/status`, { state: 'in_transit', note: 'on its way' }))
    expect(await last('return.items_moved')).toMatchObject({
      subject: made.id,
      detail: { state: 'in_transit', note: 'on its way', return_name: made.name },
    })
    const upload = await api.app.inject({
      method: 'POST',
      url: `/admin/api/returns/${made.id}/photos?line_item_id=sam-tee`,
      remoteAddress: '203.0.113.8',
      headers: { host: HOST, cookie, origin: `http://${HOST}`, 'content-type': 'image/png' },
      payload: await photo(),
    })
    expect(upload.statusCode).toBe(201)
    expect(await last('return.photo_added')).toMatchObject({
      address: '203.0.113.8',
      detail: { line_item_id: 'sam-tee', photo_id: upload.json<{ id: string }>().id },
    })
    json(
      await call('POST', `/admin/api/returns/${made.id}/inspection`, {
        items: [{ line_item_id: 'sam-tee', condition: 'as_new', disposition: 'restock' }],
      }),
    )
    expect(await last('return.inspected')).toMatchObject({
      subject: made.id,
      detail: { items: [{ line_item_id: 'sam-tee', condition: 'as_new' }] },
    })
  })

  test('a support reference opened, and the exports', async () => {
    await insertSupportReference(api.db, {
      reference: '7KQ2-9XHD',
      shopId: 'demo',
      code: 'support-code-never-in-the-log',
      createdAt: NOW,
      expiresAt: new Date(NOW.getTime() + 86_400_000),
    })
    json(await call('GET', '/admin/api/support/7KQ2-9XHD'))
    expect(await last('support.reference_opened')).toMatchObject({ subject: '7KQ2-9XHD', actor: { label: OWNER } })
    expect((await call('GET', '/admin/api/returns.csv?state=requested')).statusCode).toBe(200)
    expect(await last('returns.exported')).toMatchObject({ detail: { filters: { state: 'requested' } } })
  })

  test('no entry holds a secret: the store key, an API token, a password, a support code', async () => {
    const all = JSON.stringify(await everything())
    for (const secret of [STORE_KEY, apiToken, PASSWORD, 'wrong guess!', 'another guess', 'support-code-never'])
      expect(all).not.toContain(secret)
    expect(apiToken).not.toBe('')
  })

  test('no route changes or deletes an entry', () => {
    const routes = api.app.printRoutes({ commonPrefix: false })
    const audit = routes.split('\n').filter((line) => line.includes('audit'))
    expect(audit.join('\n')).not.toMatch(/PUT|PATCH|DELETE|POST/)
    expect(audit.join('\n')).toMatch(/GET/)
  })

  test('filters by person, kind and day; newest first; 50 a page with a cursor; another shop sees none', async () => {
    const base = new Date('2026-10-01T08:00:00Z')
    for (let i = 0; i < 120; i++)
      await appendAudit(api.db, {
        shopId: 'demo',
        at: new Date(base.getTime() + Math.floor(i / 2) * 3_600_000),
        actor: { kind: 'staff', id: 's9', label: i % 3 === 0 ? 'agent@demo.example' : 'other@demo.example' },
        address: null,
        kind: 'return.note_added',
        subject: `r${i}`,
        detail: {},
      })
    const first = await page('?kind=return.note_added')
    expect(first.entries).toHaveLength(50)
    expect(first.next).not.toBeNull()
    const all = await everything('?kind=return.note_added')
    expect(all).toHaveLength(120)
    expect(new Set(all.map((entry) => entry.id)).size).toBe(120)
    const order = all.map((entry) => [entry.at, Number(entry.id)] as const)
    expect([...order].sort((a, b) => b[0].localeCompare(a[0]) || b[1] - a[1])).toEqual(order)

    const agent = await everything('?person=agent%40demo.example&kind=returns')
    expect(agent).toHaveLength(40)
    // 2026-10-02: hours 16 to 39 after the base, two entries each.
    expect(await everything('?kind=return.note_added&from=2026-10-02&to=2026-10-02')).toHaveLength(48)
    expect(await everything('?kind=sign_ins&to=2026-10-02')).toEqual([])
    const people = json<AuditPeople>(await call('GET', '/admin/api/audit/people')).people
    expect(people).toEqual(expect.arrayContaining([OWNER, 'agent@demo.example', 'ERP sync']))
    expect(people).not.toContain('nobody@demo.example')
    expect((await call('GET', '/admin/api/audit?from=2026-02-31')).statusCode).toBe(400)

    const acme = await staffCookie(api.app, 'owner@acme.example', PASSWORD, 'acme.localhost')
    const theirs = await api.app.inject({
      method: 'GET',
      url: '/admin/api/audit?kind=returns',
      headers: { host: 'acme.localhost', cookie: acme },
    })
    expect(theirs.json<AuditPage>().entries).toEqual([])
  })

  test('the CSV: the same filters, formulas written as text, the export itself an entry', async () => {
    await appendAudit(api.db, {
      shopId: 'demo',
      at: NOW,
      actor: { kind: 'api_key', id: 'key_x', label: '=HYPERLINK("http://evil.example")' },
      address: '192.0.2.9',
      kind: 'orders_api.stock_updated',
      subject: null,
      detail: { changed: 1 },
    })
    const answer = await call('GET', '/admin/api/audit.csv?kind=orders_api')
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/csv/)
    expect(answer.headers['content-disposition']).toMatch(/attachment; filename="audit-demo-/)
    const lines = answer.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n')
    expect(lines[0]).toBe('Time,Person,Actor,Address,Kind,Subject,Detail')
    expect(lines).toHaveLength(3)
    expect(lines.join('\n')).toContain(`'=HYPERLINK`)
    expect(lines.every((line, i) => i === 0 || line.includes('orders_api.'))).toBe(true)
    expect(await last('audit.exported')).toMatchObject({
      actor: { label: OWNER },
      detail: { filters: { kind: 'orders_api' } },
    })
  })
})
