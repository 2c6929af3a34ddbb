import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { ReturnOrder } from '../../contract/api'
import type { CreatedWebhook, DeliveryList, EmailDetail, EmailList, WebhookList } from '../../contract/events'
import { hashPassword } from '../src/domain/passwords'
import { addStaff } from '../src/storage/staff'
import { buildLine, buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { bearer, engines, loadShops, NOW, startApi, type TestApi, verified } from './harness'
import { eventually, startWebhookReceiver, type WebhookReceiver } from './receivers'

/**
 * The back office's e-mails and webhooks (docs/events.md): e-mails kept without SMTP_URL, read in
 * full; endpoints added (refused for inward addresses unless allowed), disabled, removed; the
 * delivery log and a redeliver. Another shop's staff see none of it.
 */

const PASSWORD = 'correct horse battery'
const jane = buildOrder({ name: '#1001', email: 'jane@example.com', line_items: [buildLine({ id: 'li-tee' })] })
const DEMO = buildShop({ shop: 'demo', orders: [jane], config: { document_title_text: 'Demo Store' } })
const ACME = buildShop({ shop: 'acme' })

describe.each(engines())('events in the back office on %s', (engine) => {
  let api: TestApi
  let hooks: WebhookReceiver
  let cookie: string
  beforeAll(async () => {
    hooks = await startWebhookReceiver()
    api = await startApi(engine, [], {
      delivery: { allowPrivateNetworks: true, pollMs: 20, timeoutMs: 2_000 },
    })
  })
  afterAll(async () => {
    await api.close()
    await hooks.close()
  })
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM outbox; DELETE FROM webhook_endpoints; DELETE FROM shops')
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'staff@acme.example', await hashPassword(PASSWORD), NOW)
    cookie = await signIn('staff@demo.example', 'demo.localhost')
    hooks.received.length = 0
    hooks.mode = 'ok'
  })

  async function signIn(email: string, host: string) {
    const response = await api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { host, origin: `http://${host}` },
      payload: { email, password: PASSWORD },
    })
    const found = response.cookies.find((each) => each.name === 'rebound_staff')
    if (!found) throw new Error(`${response.statusCode} ${response.body}`)
    return `rebound_staff=${found.value}`
  }
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    as = cookie,
    host = 'demo.localhost',
  ) =>
    api.app.inject({
      method,
      url,
      headers: { host, cookie: as, origin: `http://${host}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  const json = <T>(response: LightMyRequestResponse) => {
    if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`)
    return response.json<T>()
  }

  async function submit() {
    const { token } = await verified(api.app, DEMO, jane)
    const answer = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': randomBytes(8).toString('hex'), host: 'demo.localhost:8080' },
      payload: buildReturn([returnItem('li-tee')]),
    })
    return answer.json<ReturnOrder>()
  }

  test('an e-mail kept without a mail server is listed and read in full, by this shop only', async () => {
    const created = await submit()
    const list = await eventually(async () => {
      const answer = json<EmailList>(await call('GET', '/admin/api/emails'))
      return answer.emails[0]?.state === 'kept' ? answer : null
    }, 'the e-mail to be kept')
    expect(list.smtp).toBe(false)
    expect(list.emails).toEqual([
      expect.objectContaining({
        return_id: created.id,
        return_name: created.name,
        kind: 'created',
        to: 'jane@example.com',
        subject: `Your return ${created.name} is registered`,
        language: 'en',
        state: 'kept',
      }),
    ])
    const id = list.emails[0]!.id
    const detail = json<EmailDetail>(await call('GET', `/admin/api/emails/${id}`))
    expect(detail.text).toContain('Follow your return http://demo.localhost:8080/status/')
    const page = await call('GET', detail.html_url!)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toContain('sandbox')
    expect(page.body).toContain('src="data:image/png;base64,')
    expect(page.body).not.toContain('cid:')
    // Filtered by return; another shop's staff find nothing.
    expect(json<EmailList>(await call('GET', `/admin/api/emails?return_id=${created.id}`)).emails).toHaveLength(1)
    const acme = await signIn('staff@acme.example', 'acme.localhost')
    expect(json<EmailList>(await call('GET', '/admin/api/emails', undefined, acme, 'acme.localhost')).emails).toEqual(
      [],
    )
    expect((await call('GET', `/admin/api/emails/${id}`, undefined, acme, 'acme.localhost')).statusCode).toBe(404)
    expect((await call('GET', `/admin/api/emails/${id}`, undefined, '')).statusCode).toBe(401)
  })

  test('an endpoint is added with a secret shown once, gets the events, logs each attempt, and redelivers', async () => {
    const created = json<CreatedWebhook>(
      await call('POST', '/admin/api/webhooks', { url: hooks.url(), events: ['return.created'] }),
    )
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const listed = json<WebhookList>(await call('GET', '/admin/api/webhooks')).endpoints
    expect(listed).toEqual([
      expect.objectContaining({ id: created.id, secret_hint: `whsec_…${created.secret.slice(-4)}` }),
    ])
    expect(JSON.stringify(listed)).not.toContain(created.secret)

    hooks.mode = 'down'
    await submit()
    const failing = await eventually(async () => {
      const { deliveries } = json<DeliveryList>(await call('GET', `/admin/api/webhooks/${created.id}/deliveries`))
      return (deliveries[0]?.attempts.length ?? 0) >= 1 ? deliveries : null
    }, 'the first attempt')
    // A busy machine may already have made the 5 s retry: the first attempt is what is checked.
    expect(failing[0]).toMatchObject({ event: 'return.created', state: 'pending' })
    expect(failing[0]!.attempts[0]).toMatchObject({ attempt: 1, ok: false, status_code: 503, error: 'Answered 503.' })
    expect(json<WebhookList>(await call('GET', '/admin/api/webhooks')).endpoints[0]!.failing_since).not.toBeNull()
    hooks.mode = 'ok'
    expect((await call('POST', `/admin/api/deliveries/${failing[0]!.id}/redeliver`)).statusCode).toBe(202)
    const delivered = await eventually(async () => {
      const { deliveries } = json<DeliveryList>(await call('GET', `/admin/api/webhooks/${created.id}/deliveries`))
      return deliveries[0]?.state === 'delivered' ? deliveries : null
    }, 'the redelivery')
    expect(delivered[0]!.attempts.map((attempt) => [attempt.attempt, attempt.ok])).toEqual([
      [1, false],
      [2, true],
    ])
    expect(json<WebhookList>(await call('GET', '/admin/api/webhooks')).endpoints[0]!.failing_since).toBeNull()
    // Another shop cannot read the log or redeliver.
    const acme = await signIn('staff@acme.example', 'acme.localhost')
    expect(
      (await call('GET', `/admin/api/webhooks/${created.id}/deliveries`, undefined, acme, 'acme.localhost')).statusCode,
    ).toBe(404)
    expect(
      (await call('POST', `/admin/api/deliveries/${failing[0]!.id}/redeliver`, undefined, acme, 'acme.localhost'))
        .statusCode,
    ).toBe(404)
  })

  test('an endpoint failing for more than 5 days is disabled, and the back office says so', async () => {
    const created = json<CreatedWebhook>(
      await call('POST', '/admin/api/webhooks', { url: hooks.url(), events: ['return.created'] }),
    )
    // Every delivery to it has failed since 6 days ago; the next failure disables it.
    await api.db.query('UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1', [
      created.id,
      new Date(Date.now() - 6 * 24 * 60 * 60 * 1000),
    ])
    hooks.mode = 'down'
    await submit()
    const disabled = await eventually(async () => {
      const [endpoint] = json<WebhookList>(await call('GET', '/admin/api/webhooks')).endpoints
      return endpoint?.disabled_at ? endpoint : null
    }, 'the endpoint to be disabled')
    expect(disabled.failing_since).not.toBeNull()
    // Enabled again, it starts with a clean record.
    const enabled = json<WebhookList>(await call('PUT', `/admin/api/webhooks/${created.id}/enabled`, { enabled: true }))
    expect(enabled.endpoints[0]).toMatchObject({ disabled_at: null, failing_since: null })
  })

  test('a delivery under way is not redelivered on top of itself: 409', async () => {
    const created = json<CreatedWebhook>(
      await call('POST', '/admin/api/webhooks', { url: hooks.url(), events: ['return.created'] }),
    )
    hooks.mode = 'hang'
    await submit()
    await hooks.waitFor(1)
    const { deliveries } = json<DeliveryList>(await call('GET', `/admin/api/webhooks/${created.id}/deliveries`))
    const answer = await call('POST', `/admin/api/deliveries/${deliveries[0]!.id}/redeliver`)
    expect(answer.statusCode).toBe(409)
    expect(answer.json<{ error: string }>().error).toBe('in_flight')
    expect(
      (await call('POST', '/admin/api/deliveries/msg_00000000000000000000000000000000/redeliver')).statusCode,
    ).toBe(404)
  })

  test('a disabled endpoint gets nothing until enabled; a removed one is gone', async () => {
    const created = json<CreatedWebhook>(
      await call('POST', '/admin/api/webhooks', { url: hooks.url(), events: ['return.created', 'return.updated'] }),
    )
    const disabled = json<WebhookList>(
      await call('PUT', `/admin/api/webhooks/${created.id}/enabled`, { enabled: false }),
    )
    expect(disabled.endpoints[0]!.disabled_at).not.toBeNull()
    await submit()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(hooks.received).toHaveLength(0)
    expect((await call('DELETE', `/admin/api/webhooks/${created.id}`)).statusCode).toBe(204)
    expect(json<WebhookList>(await call('GET', '/admin/api/webhooks')).endpoints).toEqual([])
    expect((await call('DELETE', `/admin/api/webhooks/${created.id}`)).statusCode).toBe(404)
  })

  test('an endpoint at an inward or odd address is refused with a 400 naming the field', async () => {
    const strict = await startApi(engine, [DEMO])
    try {
      await addStaff(strict.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
      const login = await strict.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: { host: 'demo.localhost', origin: 'http://demo.localhost' },
        payload: { email: 'staff@demo.example', password: PASSWORD },
      })
      const session = `rebound_staff=${login.cookies.find((each) => each.name === 'rebound_staff')!.value}`
      for (const [url, why] of [
        ['http://169.254.169.254/latest/meta-data', 'url: points to a private, loopback or link-local address'],
        ['http://localhost:8080/hooks', 'url: points to a private, loopback or link-local address (127.0.0.1)'],
        ['file:///etc/passwd', 'url: must start with https:// or http://'],
      ] as const) {
        const answer = await strict.app.inject({
          method: 'POST',
          url: '/admin/api/webhooks',
          headers: { host: 'demo.localhost', origin: 'http://demo.localhost', cookie: session },
          payload: { url, events: ['return.created'] },
        })
        expect(answer.statusCode).toBe(400)
        expect(answer.json<{ message: string }>().message).toContain(why)
      }
    } finally {
      await strict.close()
    }
  })
})
