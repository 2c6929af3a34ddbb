import type { LightMyRequestResponse } from 'fastify'
import type { StaffLinkSent, StaffList, StaffSession } from '../../contract/staff'
import { hashPassword } from '../src/domain/passwords'
import { readAudit } from '../src/storage/audit'
import { STAFF_LINK_PURPOSE, type StaffEmailPayload } from '../src/storage/outbox'
import { sealingKey, unseal } from '../src/storage/sealed'
import { addStaff } from '../src/storage/staff'
import { buildLine, buildOrder, buildProduct, buildShop } from './builders'
import { engines, NOW, startApi, staffCookie, submitted, verified, type TestApi } from './harness'

/**
 * Staff managed by owners (docs/back-office.md, "Roles"; decision 0081): invites by e-mail, single
 * use and for 72 hours, of one shop; the last owner kept; the agents' review limit.
 */

const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'a brand new passphrase'
const HOUR = 60 * 60 * 1000
/** Two tees of 150.00: a return of both is 300.00, over the 40.00 that needs review. */
const order = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'jane-tee', variant_id: 'tee-m', quantity: 2, price: '150.00' })],
})
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct()],
  orders: [order],
  policy: { review: { over_amount: '40.00', photo_reasons: [], answer_within_days: 2 } },
})
const ACME = buildShop({ shop: 'acme' })
const host = (shop: string) => `${shop}.localhost`

describe.each(engines())('staff management on %s', (engine) => {
  let api: TestApi
  let clock = NOW
  let owner: string
  beforeAll(async () => {
    api = await startApi(engine, [DEMO, ACME], { now: () => clock })
  }, 120_000)
  afterAll(() => api.close())
  beforeEach(async () => {
    clock = NOW
    await api.db.exec('DELETE FROM staff; DELETE FROM staff_invites; DELETE FROM outbox; DELETE FROM rate_limits')
    await addStaff(api.db, 'demo', 'owner@demo.example', await hashPassword(PASSWORD), NOW)
    owner = await staffCookie(api.app, 'owner@demo.example', PASSWORD, host('demo'))
  }, 60_000)

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    cookie = owner,
    shop = 'demo',
  ): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method,
      url,
      headers: { host: host(shop), origin: `http://${host(shop)}`, ...(cookie ? { cookie } : {}) },
      ...(payload === undefined ? {} : { payload }),
    })
  const list = async () => (await call('GET', '/admin/api/staff')).json<StaffList>()
  /** The token of the last staff e-mail to `email`, from its sealed link. */
  async function tokenFor(email: string): Promise<string> {
    const [row] = await api.db.query<{ id: string; payload: StaffEmailPayload }>(
      'SELECT id, payload FROM outbox WHERE recipient = $1 AND return_id IS NULL ORDER BY seq DESC LIMIT 1',
      [email],
    )
    const link = unseal(sealingKey(Buffer.from('test-secret'), STAFF_LINK_PURPOSE), row!.payload.link_sealed, row!.id)
    expect(link).toMatch(/^http:\/\/demo\.localhost\/admin\/invite#token=[A-Za-z0-9_-]{43}$/)
    return link.split('#token=')[1]!
  }
  const accept = (token: string, shop = 'demo', password = NEW_PASSWORD) =>
    call('POST', '/admin/api/invite', { token, password }, '', shop)

  test('an invite goes by e-mail; its link sets a password once and signs in with the role; it is audited', async () => {
    const invited = await call('POST', '/admin/api/staff/invites', { email: 'Agent@Demo.example ', role: 'agent' })
    expect(invited.statusCode).toBe(400) // the e-mail is checked as typed: no spaces
    const made = await call('POST', '/admin/api/staff/invites', { email: 'Agent@demo.example', role: 'agent' })
    expect(made.statusCode).toBe(201)
    expect(made.json<StaffList>().invites).toEqual([
      {
        email: 'agent@demo.example',
        role: 'agent',
        invited_by: 'owner@demo.example',
        created_at: NOW.toISOString(),
        expires_at: new Date(NOW.getTime() + 72 * HOUR).toISOString(),
      },
    ])
    // The table keeps the token's hash only; the shoppers' e-mails page does not list it.
    const token = await tokenFor('agent@demo.example')
    // This server sends no e-mail (no SMTP_URL): the owner who invited is handed the link itself.
    expect(made.json<StaffLinkSent>().link).toBe(`http://demo.localhost/admin/invite#token=${token}`)
    expect(JSON.stringify(await api.db.query('SELECT * FROM staff_invites'))).not.toContain(token)
    expect((await call('GET', '/admin/api/emails')).json<{ emails: unknown[] }>().emails).toEqual([])

    expect((await accept(token, 'demo', 'short')).statusCode).toBe(400)
    const accepted = await accept(token)
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json<StaffSession>()).toMatchObject({ email: 'agent@demo.example', shop: 'demo', role: 'agent' })
    const cookie = accepted.cookies.find((one) => one.name === 'rebound_staff')!
    expect((await call('GET', '/admin/api/returns', undefined, `rebound_staff=${cookie.value}`)).statusCode).toBe(200)
    expect((await call('GET', '/admin/api/staff', undefined, `rebound_staff=${cookie.value}`)).statusCode).toBe(403)
    // Single use.
    expect((await accept(token)).json()).toMatchObject({ error: 'invalid_invite' })
    const after = await list()
    expect(after.invites).toEqual([])
    expect(after.members.map((member) => [member.email, member.role])).toEqual([
      ['agent@demo.example', 'agent'],
      ['owner@demo.example', 'owner'],
    ])
    const kinds = (await readAudit(api.db, 'demo')).map((entry) => [entry.kind, entry.subject, entry.actor_label])
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['staff.invited', 'agent@demo.example', 'owner@demo.example'],
        ['staff.invite_accepted', 'agent@demo.example', 'agent@demo.example'],
      ]),
    )
    // Inviting one of the shop's staff again is refused.
    expect(
      (await call('POST', '/admin/api/staff/invites', { email: 'agent@demo.example', role: 'admin' })).statusCode,
    ).toBe(409)
  })

  test('a link past 72 hours, a wrong token and another shop’s link open nothing', async () => {
    await call('POST', '/admin/api/staff/invites', { email: 'late@demo.example', role: 'warehouse' })
    const token = await tokenFor('late@demo.example')
    expect((await accept('A'.repeat(43))).json()).toMatchObject({ error: 'invalid_invite' })
    // On acme's host, demo's link is not acme's.
    expect((await accept(token, 'acme')).json()).toMatchObject({ error: 'invalid_invite' })
    clock = new Date(NOW.getTime() + 72 * HOUR)
    expect((await accept(token)).json()).toMatchObject({ error: 'invalid_invite' })
  })

  test('an owner withdraws a pending invite: its link no longer opens, and it is audited', async () => {
    await call('POST', '/admin/api/staff/invites', { email: 'gone@demo.example', role: 'admin' })
    const token = await tokenFor('gone@demo.example')
    await addStaff(api.db, 'demo', 'admin@demo.example', await hashPassword(PASSWORD), NOW, 'admin')
    const admin = await staffCookie(api.app, 'admin@demo.example', PASSWORD, host('demo'))
    const withdraw = (email: string, cookie = owner) =>
      call('POST', '/admin/api/staff/invites/withdraw', { email }, cookie)
    expect((await withdraw('gone@demo.example', admin)).statusCode).toBe(403)
    // The e-mail as the invite was typed, in any case.
    const withdrawn = await withdraw('Gone@Demo.example')
    expect(withdrawn.statusCode).toBe(200)
    expect(withdrawn.json<StaffList>().invites).toEqual([])
    expect((await withdraw('gone@demo.example')).json()).toMatchObject({ error: 'not_found' })
    const refused = await accept(token)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ error: 'invalid_invite' })
    expect(refused.json<{ message: string }>().message).toContain('it was withdrawn')
    expect((await list()).members.map((member) => member.email)).not.toContain('gone@demo.example')
    const entries = (await readAudit(api.db, 'demo')).filter((entry) => entry.kind === 'invite.withdrawn')
    expect(entries.map((entry) => [entry.subject, entry.actor_label, entry.detail])).toEqual([
      ['gone@demo.example', 'owner@demo.example', { role: 'admin' }],
    ])
    // Another shop's owner withdraws nothing of demo's.
    await call('POST', '/admin/api/staff/invites', { email: 'kept@demo.example', role: 'agent' })
    await addStaff(api.db, 'acme', 'owner@acme.example', await hashPassword(PASSWORD), NOW)
    const acme = await staffCookie(api.app, 'owner@acme.example', PASSWORD, host('acme'))
    const other = await call('POST', '/admin/api/staff/invites/withdraw', { email: 'kept@demo.example' }, acme, 'acme')
    expect(other.statusCode).toBe(404)
    expect((await list()).invites.map((invite) => invite.email)).toEqual(['kept@demo.example'])
  })

  test('a withdrawn invite’s e-mail not sent yet is withdrawn too; another’s is kept', async () => {
    await call('POST', '/admin/api/staff/invites', { email: 'late@demo.example', role: 'agent' })
    await call('POST', '/admin/api/staff/invites', { email: 'kept@demo.example', role: 'agent' })
    const emails = () =>
      api.db.query<{ recipient: string; event: string }>(
        "SELECT recipient, event FROM outbox WHERE channel = 'email' AND return_id IS NULL ORDER BY seq",
      )
    expect(await emails()).toEqual([
      { recipient: 'late@demo.example', event: 'email.staff_invite' },
      { recipient: 'kept@demo.example', event: 'email.staff_invite' },
    ])
    expect((await call('POST', '/admin/api/staff/invites/withdraw', { email: 'Late@demo.example' })).statusCode).toBe(
      200,
    )
    expect(await emails()).toEqual([{ recipient: 'kept@demo.example', event: 'email.staff_invite' }])
  })

  test('the last owner can be neither demoted nor removed; a reset ends sessions and sends a fresh link', async () => {
    const { members } = await list()
    const me = members[0]!
    expect((await call('PUT', `/admin/api/staff/${me.id}/role`, { role: 'admin' })).json()).toMatchObject({
      error: 'last_owner',
    })
    expect((await call('DELETE', `/admin/api/staff/${me.id}`)).statusCode).toBe(409)

    await addStaff(api.db, 'demo', 'second@demo.example', await hashPassword(PASSWORD), NOW, 'admin')
    const second = await staffCookie(api.app, 'second@demo.example', PASSWORD, host('demo'))
    const secondId = (await list()).members.find((member) => member.email === 'second@demo.example')!.id
    const promoted = await call('PUT', `/admin/api/staff/${secondId}/role`, { role: 'owner' })
    expect(promoted.statusCode).toBe(200)
    // Two owners: one may step down now.
    expect((await call('PUT', `/admin/api/staff/${me.id}/role`, { role: 'admin' }, second)).statusCode).toBe(200)
    expect((await call('GET', '/admin/api/staff')).statusCode).toBe(403)

    const reset = await call('POST', `/admin/api/staff/${me.id}/reset`, undefined, second)
    expect(reset.statusCode).toBe(200)
    expect(reset.body).not.toContain(PASSWORD)
    expect(reset.json<StaffLinkSent>().link).toMatch(/^http:\/\/demo\.localhost\/admin\/invite#token=/)
    expect((await call('GET', '/admin/api/returns')).statusCode).toBe(401)
    const refused = await api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { host: host('demo'), origin: `http://${host('demo')}` },
      payload: { email: 'owner@demo.example', password: PASSWORD },
    })
    expect(refused.statusCode).toBe(401)
    const token = await tokenFor('owner@demo.example')
    const back = await accept(token)
    expect(back.json<StaffSession>()).toMatchObject({ email: 'owner@demo.example', role: 'admin' })

    expect((await call('DELETE', `/admin/api/staff/${me.id}`, undefined, second)).statusCode).toBe(204)
    const audit = (await readAudit(api.db, 'demo')).map((entry) => [entry.kind, entry.detail])
    expect(audit).toEqual(
      expect.arrayContaining([
        ['staff.role_changed', { before: 'owner', after: 'admin' }],
        ['staff.reset', expect.any(Object)],
        ['staff.removed', { role: 'admin' }],
      ]),
    )
  })

  test('an agent decides reviews up to the shop’s limit, which owners set', async () => {
    await addStaff(api.db, 'demo', 'agent@demo.example', await hashPassword(PASSWORD), NOW, 'agent')
    const agent = await staffCookie(api.app, 'agent@demo.example', PASSWORD, host('demo'))
    const { token } = await verified(api.app, DEMO, order)
    const made = await submitted(api.app, token, {
      items: [{ line_item_id: 'jane-tee', quantity: 2, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    expect((await call('PUT', '/admin/api/staff/review-limit', { amount: '100.00' }, agent)).statusCode).toBe(403)
    const set = await call('PUT', '/admin/api/staff/review-limit', { amount: '100.00' })
    expect(set.json<StaffList>().review_limit).toEqual({ amount: '100.00', currency_code: 'EUR' })
    const refused = await call('POST', '/admin/api/reviews', { return_ids: [made.id], decision: 'approve' }, agent)
    expect(refused.statusCode).toBe(403)
    expect(refused.json<{ error: string }>().error).toBe('not_allowed')
    expect(refused.json<{ message: string }>().message).toContain('Agents decide reviews of returns up to 100.00 EUR')
    await call('PUT', '/admin/api/staff/review-limit', { amount: null })
    const decided = await call('POST', '/admin/api/reviews', { return_ids: [made.id], decision: 'approve' }, agent)
    expect(decided.statusCode).toBe(200)
    expect(
      (await readAudit(api.db, 'demo')).filter((entry) => entry.kind === 'shop.review_limit_changed'),
    ).toHaveLength(2)
  })
})
