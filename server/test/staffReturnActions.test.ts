import type { LightMyRequestResponse } from 'fastify'
import type { ReturnInstructionsAnswer, ReturnStatus, VerifiedOrder } from '../../contract/api'
import type { EmailResent, ReturnDetail, ReturnList } from '../../contract/staff'
import { hashPassword } from '../src/domain/passwords'
import { signStatus } from '../src/domain/token'
import { addStaff } from '../src/storage/staff'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { buildLine, buildOrder, buildShop } from './builders'
import { bearer, engines, loadShops, NOW, staffCookie, startApi, submitted, type TestApi, verified } from './harness'

const PASSWORD = 'correct horse battery'
const SECRET = Buffer.from('test-secret')

const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'jane-tee', variant_id: 'tee-m' }), buildLine({ id: 'jane-hat', variant_id: 'tee-l' })],
})
const DEMO = buildShop({ shop: 'demo', orders: [jane] })
const ACME = buildShop({ shop: 'acme', orders: [buildOrder({ name: '#1001', email: 'ada@example.com' })] })
const HOST = 'demo.localhost'

describe.each(engines())('notes, cancelling, closing and resending on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [])
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec(
      'DELETE FROM staff; DELETE FROM shops; DELETE FROM outbox; DELETE FROM webhook_endpoints; DELETE FROM returns',
    )
    await loadShops(api.db, [DEMO, ACME])
    await addStaff(api.db, 'demo', 'staff@demo.example', await hashPassword(PASSWORD), NOW)
    await addStaff(api.db, 'acme', 'staff@acme.example', await hashPassword(PASSWORD), NOW)
    cookie = await staffCookie(api.app, 'staff@demo.example', PASSWORD, HOST)
    await addEndpoint(
      api.db,
      'demo',
      {
        url: 'https://hooks.example/returns',
        secret: `whsec_${'A'.repeat(32)}`,
        events: ['return.created', 'return.cancelled', 'return.closed'],
      },
      NOW,
    )
  })

  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: HOST, cookie } })
  const post = (url: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, origin: `http://${HOST}`, ...headers },
      ...(payload ? { payload } : {}),
    })
  const json = <T>(response: LightMyRequestResponse) => {
    expect([response.statusCode, response.body]).toEqual([200, expect.anything()])
    return response.json<T>()
  }
  const returnTee = async () => {
    const order = await verified(api.app, DEMO, jane)
    const made = await submitted(api.app, order.token, {
      items: [{ line_item_id: 'jane-tee', quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    return { order, id: made.id! }
  }
  const outbox = async (id: string) =>
    (await api.db.query<{ event: string }>('SELECT event FROM outbox WHERE return_id = $1 ORDER BY seq', [id])).map(
      (row) => row.event,
    )
  // The audit log is append-only: each test reads its own return's entries.
  const audits = async (kind: string, subject: string) =>
    api.db.query<{ actor_label: string; subject: string; detail: Record<string, unknown> }>(
      'SELECT actor_label, subject, detail FROM audit_log WHERE kind = $1 AND subject = $2 ORDER BY id',
      [kind, subject],
    )
  const status = async (id: string) =>
    (
      await api.app.inject({
        method: 'GET',
        url: `/portal-registration/returns/${id}/status?signature=${signStatus(SECRET, id)}`,
      })
    ).json<ReturnStatus>()
  const instructions = (order: VerifiedOrder, id: string) =>
    api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/instructions`,
      headers: bearer(order.token),
    })

  test('a note goes on the timeline with who and when, and in the audit log by its length; nothing moves', async () => {
    const { id } = await returnTee()
    const before = await outbox(id)
    const detail = json<ReturnDetail>(
      await post(`/admin/api/returns/${id}/notes`, { text: '  Called: parcel next week\n' }),
    )
    expect(detail.timeline.at(-1)).toEqual({
      at: NOW.toISOString(),
      kind: 'note',
      state: null,
      items: [],
      actor: 'staff@demo.example',
      note: 'Called: parcel next week',
    })
    expect(detail.summary.state).toBe('requested')
    expect(await outbox(id)).toEqual(before)
    expect(await audits('return.note_added', id)).toEqual([
      { actor_label: 'staff@demo.example', subject: id, detail: { return_name: '#1001-R1', length: 24 } },
    ])
  })

  test('a note too long, blank or with a control character is refused; another shop’s return is not found', async () => {
    const { id } = await returnTee()
    for (const text of ['x'.repeat(2001), '   ', 'bell\u0007', ''])
      expect((await post(`/admin/api/returns/${id}/notes`, { text })).statusCode).toBe(400)
    expect((await post(`/admin/api/returns/${id}/notes`, { text: 'x'.repeat(2000) })).statusCode).toBe(200)
    const acme = await staffCookie(api.app, 'staff@acme.example', PASSWORD, 'acme.localhost')
    const foreign = (path: string, payload?: Record<string, unknown>) =>
      api.app.inject({
        method: 'POST',
        url: `/admin/api/returns/${id}/${path}`,
        headers: { host: 'acme.localhost', cookie: acme, origin: 'http://acme.localhost' },
        ...(payload ? { payload } : {}),
      })
    expect((await foreign('notes', { text: 'hi' })).statusCode).toBe(404)
    expect((await foreign('cancel')).statusCode).toBe(404)
    expect((await foreign('close', { reason: 'Lost' })).statusCode).toBe(404)
    // The one note of 2,000 characters; none from the refusals or the other shop.
    expect(await audits('return.note_added', id)).toHaveLength(1)
  })

  test('cancelled: the shopper is told, the label stops working, webhooks hear it, the items can be returned again', async () => {
    const { order, id } = await returnTee()
    const shown = await status(id)
    const labelUrl = shown.label!.label_url
    expect((await api.app.inject({ method: 'GET', url: labelUrl })).statusCode).toBe(200)

    const detail = json<ReturnDetail>(await post(`/admin/api/returns/${id}/cancel`))
    expect(detail.summary.state).toBe('cancelled')
    expect(detail.ended).toEqual({ state: 'cancelled', reason: null, at: NOW.toISOString(), by: 'staff@demo.example' })
    expect(detail.links.label).toBeNull()
    expect(detail.timeline.at(-1)).toMatchObject({ kind: 'cancelled', actor: 'staff@demo.example' })
    expect(await outbox(id)).toEqual(['email.created', 'return.created', 'email.cancelled', 'return.cancelled'])
    expect(await audits('return.cancelled', id)).toEqual([
      { actor_label: 'staff@demo.example', subject: id, detail: { return_name: '#1001-R1' } },
    ])

    const label = await api.app.inject({ method: 'GET', url: labelUrl })
    expect(label.statusCode).toBe(409)
    expect(label.json<{ error: string; message: string }>()).toEqual({
      error: 'return_cancelled',
      message: 'The shop cancelled this return: its label no longer works. Please do not send the parcel.',
    })
    const after = await status(id)
    expect(after.ended).toEqual({ state: 'cancelled', at: NOW.toISOString() })
    expect(after.label).toBeNull()
    const steps = json<ReturnInstructionsAnswer>(await instructions(order, id))
    expect(steps).toMatchObject({ nothing_to_send: true, steps: [expect.stringMatching(/cancelled/)] })

    // The list's filters: cancelled is its own state, no longer requested.
    expect(json<ReturnList>(await get('/admin/api/returns?state=cancelled')).returns.map((r) => r.id)).toEqual([id])
    expect(json<ReturnList>(await get('/admin/api/returns?state=requested')).returns).toEqual([])

    // The shopper can return the tee again, through verify and submit.
    const again = await verified(api.app, DEMO, jane)
    expect(again.line_items.find((line) => line.id === 'jane-tee')).toMatchObject({ returnable_quantity: 1 })
    const second = await submitted(api.app, again.token, {
      items: [{ line_item_id: 'jane-tee', quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    expect(second.id).not.toBe(id)

    // Ended, it neither moves nor ends again.
    expect((await post(`/admin/api/returns/${id}/status`, { state: 'in_transit' })).statusCode).toBe(409)
    expect((await post(`/admin/api/returns/${id}/cancel`)).json<unknown>()).toMatchObject({ error: 'already_ended' })
  })

  test('the cancellation e-mail is in the shop’s language, as the shopper’s other e-mails', async () => {
    const { id } = await returnTee()
    await api.db.query("UPDATE returns SET language = 'de' WHERE id = $1", [id])
    json(await post(`/admin/api/returns/${id}/cancel`))
    const [row] = await api.db.query<{ payload: { language: string; kind: string } }>(
      "SELECT payload FROM outbox WHERE return_id = $1 AND event = 'email.cancelled'",
      [id],
    )
    expect(row!.payload).toMatchObject({ kind: 'cancelled', language: 'de' })
  })

  test('a return with an item received cannot be cancelled (409), but can be closed with a reason', async () => {
    const { id } = await returnTee()
    json(await post(`/admin/api/returns/${id}/status`, { state: 'received' }))
    const refused = await post(`/admin/api/returns/${id}/cancel`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json<{ error: string; message: string }>()).toEqual({
      error: 'not_cancellable',
      message: '#1001-R1 cannot be cancelled: Classic Tee · M is received. Close it with a reason instead.',
    })
    expect((await post(`/admin/api/returns/${id}/close`, { reason: 'x'.repeat(501) })).statusCode).toBe(400)
    expect((await post(`/admin/api/returns/${id}/close`, { reason: ' ' })).statusCode).toBe(400)

    const detail = json<ReturnDetail>(await post(`/admin/api/returns/${id}/close`, { reason: 'Resolved by phone' }))
    expect(detail.summary.state).toBe('closed')
    expect(detail.ended).toMatchObject({ state: 'closed', reason: 'Resolved by phone' })
    expect(detail.timeline.at(-1)).toMatchObject({ kind: 'closed', note: 'Resolved by phone' })
    expect(detail.status.refund?.issued_at).toBeUndefined()
    expect((await status(id)).ended).toEqual({ state: 'closed', at: NOW.toISOString() })
    // Closing tells the webhooks, not the shopper by e-mail, and refunds nothing.
    expect(await outbox(id)).toEqual(['email.created', 'return.created', 'email.received', 'return.closed'])
    expect(await audits('return.closed', id)).toEqual([
      {
        actor_label: 'staff@demo.example',
        subject: id,
        detail: { return_name: '#1001-R1', reason: 'Resolved by phone' },
      },
    ])
    // A closed return keeps its units: the tee is not returnable again.
    const again = await verified(api.app, DEMO, jane)
    expect(again.line_items.find((line) => line.id === 'jane-tee')).toMatchObject({ returnable_quantity: 0 })
    expect(json<ReturnList>(await get('/admin/api/returns?state=received')).returns).toEqual([])
  })

  test('an e-mail is sent again as a new e-mail with the same content', async () => {
    const { id } = await returnTee()
    const [first] = await api.db.query<{ id: string }>(
      "SELECT id FROM outbox WHERE return_id = $1 AND channel = 'email'",
      [id],
    )
    const resent = json<EmailResent>(await post(`/admin/api/emails/${first!.id}/resend`))
    expect(resent.id).not.toBe(first!.id)
    const rows = await api.db.query<{ id: string; event: string; recipient: string; payload: unknown; state: string }>(
      "SELECT id, event, recipient, payload, state FROM outbox WHERE return_id = $1 AND channel = 'email' ORDER BY seq",
      [id],
    )
    expect(rows.map((row) => [row.id, row.event, row.recipient])).toEqual([
      [first!.id, 'email.created', 'jane@example.com'],
      [resent.id, 'email.created', 'jane@example.com'],
    ])
    expect(rows[1]!.payload).toEqual(rows[0]!.payload)
    expect(await audits('email.resent', id)).toEqual([
      {
        actor_label: 'staff@demo.example',
        subject: id,
        detail: { email: first!.id, resent_as: resent.id, kind: 'created', email_subject: resent.subject },
      },
    ])
    expect((await post(`/admin/api/emails/msg_${'0'.repeat(32)}/resend`)).statusCode).toBe(404)
  })

  test('the return’s page gives the status and label links the shopper’s e-mails carry', async () => {
    const { id } = await returnTee()
    const detail = await (async () => json<ReturnDetail>(await get(`/admin/api/returns/${id}`)))()
    expect(detail.links.status).toMatch(new RegExp(`/status/${id}#${signStatus(SECRET, id)}$`))
    const label = new URL(detail.links.label!)
    expect(label.pathname).toBe(`/portal-registration/returns/${id}/label.pdf`)
    expect((await api.app.inject({ method: 'GET', url: `${label.pathname}${label.search}` })).statusCode).toBe(200)
  })
})
