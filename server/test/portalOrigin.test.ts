import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import type { ReturnOrder, VerifiedOrder } from '../../contract/api'
import type { EmailDetail, EmailList } from '../../contract/events'
import { hashPassword } from '../src/domain/passwords'
import { addStaff } from '../src/storage/staff'
import { buildLine, buildOrder, buildReturn, buildShop, portalOf, returnItem } from './builders'
import {
  bearer,
  createTestSchema,
  engines,
  loadShops,
  NOW,
  startApi,
  type Engine,
  type TestApi,
  verified,
} from './harness'
import { freePort, importWithCli } from './processApi'
import { eventually } from './receivers'
import { startServer, type ServerProcess } from './serverProcess'
import { childEnv, runCommand, scriptCommand } from './spawned'

/**
 * The links in a shopper's e-mails come from the shop's configured portal address (PORTAL_ORIGIN,
 * docs/decisions/0052-portal-origin.md), never from the submit's Host; a host the install does not
 * serve is refused with a 421 before anything is done. In the app and in the compiled server as
 * shipped, on both engines.
 */

const PASSWORD = 'correct horse battery'
const STAFF = 'staff@north.example'
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'li-a' }), buildLine({ id: 'li-b' }), buildLine({ id: 'li-c' })],
})
const SHOP = buildShop({ shop: 'north', orders: [jane] })
const EVIL = 'evil.attacker.example'

/** Every href of an e-mail's HTML. */
const linksOf = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!)

describe.each(engines())('portal links and hosts on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [], {
      delivery: { allowPrivateNetworks: false, pollMs: 20 },
      trustProxy: ['127.0.0.1'],
    })
    // PGlite's start and migrations take a while on a busy machine.
  }, 120_000)
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM outbox; DELETE FROM rate_limits; DELETE FROM shops')
    await loadShops(api.db, [SHOP])
    await addStaff(api.db, 'north', STAFF, await hashPassword(PASSWORD), NOW)
    const signIn = await api.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { host: 'north.localhost', origin: 'http://north.localhost' },
      payload: { email: STAFF, password: PASSWORD },
    })
    cookie = `rebound_staff=${signIn.cookies.find((each) => each.name === 'rebound_staff')!.value}`
  })

  const submit = (token: string, line: string, headers: Record<string, string>) =>
    api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(token), 'idempotency-key': `key-${line}`, ...headers },
      payload: buildReturn([returnItem(line)]),
    })
  const staffGet = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: 'north.localhost', cookie } })
  const json = <T>(response: LightMyRequestResponse) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`)
    return response.json<T>()
  }

  test('a submit for another site is refused (421) and makes nothing, whether Host or a trusted proxy names it', async () => {
    const { token } = await verified(api.app, SHOP, jane)
    for (const headers of [{ host: EVIL }, { host: `${EVIL}:8080` }, { 'x-forwarded-host': EVIL }]) {
      const answer = await submit(token, 'li-a', headers)
      expect({ headers, status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
        headers,
        status: 421,
        body: { error: 'misdirected', message: 'This server does not serve this address.' },
      })
    }
    expect(await api.db.query('SELECT 1 FROM returns')).toHaveLength(0)
    expect(await api.db.query('SELECT 1 FROM outbox')).toHaveLength(0)
  })

  test("a submit from any served host links the e-mail to the shop's own portal, never to the host it came on", async () => {
    const { token } = await verified(api.app, SHOP, jane)
    // Another shop's name, an address: both served, neither is where north's shoppers go.
    const made = [
      (await submit(token, 'li-b', { host: 'evil.localhost:8080' })).json<ReturnOrder>(),
      (await submit(token, 'li-c', { host: '127.0.0.1:9999' })).json<ReturnOrder>(),
    ]
    const emails = await eventually(async () => {
      const list = json<EmailList>(await staffGet('/admin/api/emails'))
      return list.emails.length === 2 && list.emails.every((email) => email.state === 'kept') ? list.emails : null
    }, 'both e-mails to be kept')
    expect(emails.map((email) => email.return_id).sort()).toEqual(made.map((order) => order.id).sort())
    for (const email of emails) {
      const detail = json<EmailDetail>(await staffGet(`/admin/api/emails/${email.id}`))
      const html = (await staffGet(detail.html_url!)).body
      const links = linksOf(html)
      expect(links.length).toBeGreaterThanOrEqual(2)
      for (const link of links) expect(link.startsWith('http://north.localhost:8080/')).toBe(true)
      expect(links.some((link) => link.startsWith(`http://north.localhost:8080/status/${email.return_id}#`))).toBe(true)
      for (const text of [html, detail.text!]) {
        expect(text).not.toContain('evil')
        expect(text).not.toContain('127.0.0.1')
      }
    }
  })

  test('an e-mail written before PORTAL_ORIGIN, holding the host its submit came on, links to the shop when sent', async () => {
    const { token } = await verified(api.app, SHOP, jane)
    const made = (await submit(token, 'li-a', { host: 'north.localhost' })).json<ReturnOrder>()
    await eventually(async () => {
      const list = json<EmailList>(await staffGet('/admin/api/emails'))
      return list.emails.length === 1 && list.emails[0]!.state === 'kept' ? true : null
    }, 'the e-mail to be kept')
    // As an older release wrote them: the submit's Host kept with the return and in the row.
    await api.db.query(`UPDATE returns SET portal_origin = $1`, [`http://${EVIL}`])
    await api.db.query(
      `INSERT INTO outbox
       SELECT (jsonb_populate_record(NULL::outbox, to_jsonb(o) || jsonb_build_object(
         'seq', (SELECT max(seq) + 1 FROM outbox), 'id', 'msg_' || md5(o.id), 'state', 'pending',
         'attempts', 0, 'delivered_at', NULL, 'message', NULL, 'due_at', o.created_at,
         'payload', jsonb_set(o.payload, '{origin}', to_jsonb($1::text))))).*
       FROM outbox o`,
      [`http://${EVIL}`],
    )
    const emails = await eventually(async () => {
      const list = json<EmailList>(await staffGet('/admin/api/emails'))
      return list.emails.length === 2 && list.emails.every((email) => email.state === 'kept') ? list.emails : null
    }, 'the older e-mail to be kept too')
    for (const email of emails) {
      const html = (await staffGet(json<EmailDetail>(await staffGet(`/admin/api/emails/${email.id}`)).html_url!)).body
      expect(linksOf(html).some((link) => link.startsWith(`http://north.localhost:8080/status/${made.id}#`))).toBe(true)
      expect(html).not.toContain('evil')
    }
  })

  test('/health answers whatever the host; the portal and the console refuse another site', async () => {
    for (const url of ['/health', '/health?probe=1'])
      expect((await api.app.inject({ method: 'GET', url, headers: { host: EVIL } })).statusCode).toBe(
        url === '/health' ? 200 : 421,
      )
    for (const url of ['/', '/status/r1', '/admin', '/admin/api/session', '/portal-registration/config/north'])
      expect((await api.app.inject({ method: 'GET', url, headers: { host: EVIL, cookie } })).statusCode).toBe(421)
    expect((await staffGet('/admin/api/session')).statusCode).toBe(200)
    expect((await api.app.inject({ method: 'GET', url: '/portal-registration/config/north' })).statusCode).toBe(200)
  })
})

/** The compiled server with no settings but its port and database, as `npm start` runs it. */
describe.each(engines())('portal links of the server as shipped, on %s', (engine: Engine) => {
  let database: Record<string, string>
  let cleanUp: () => Promise<void>
  let server: ServerProcess
  beforeAll(async () => {
    if (engine === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'rebound-origin-'))
      database = { DATA_DIR: dataDir }
      cleanUp = () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true }))
    } else {
      const schema = await createTestSchema('origin')
      database = { DATABASE_URL: schema.url }
      cleanUp = () => schema.drop()
    }
    await importWithCli(database, [SHOP])
    const run = await runCommand(
      scriptCommand('staff'),
      ['add', 'north', STAFF],
      childEnv({ ...database, STAFF_PASSWORD: PASSWORD }),
    )
    if (run.code !== 0) throw new Error(`npm run staff exited ${run.code}:\n${run.stdout}${run.stderr}`)
    server = await startServer({ PORT: String(await freePort()), ...database })
  }, 120_000)
  afterAll(async () => {
    await server?.stop().catch(() => server.process.killAll())
    await cleanUp()
  })

  test("a submit on another site's host is a 421; one on a served host gets e-mails linking to the shop's portal only", async () => {
    const own = `north.localhost:${server.port}`
    const verified = await server.callFrom<VerifiedOrder>('127.0.0.1', 'POST', '/portal-registration/verify', {
      order_name: jane.name,
      email: jane.email,
      ...portalOf(SHOP),
    })
    expect(verified.status).toBe(200)
    const submit = (line: string, host: string) =>
      server.callFrom<ReturnOrder>(
        '127.0.0.1',
        'POST',
        '/portal-registration/returns',
        buildReturn([returnItem(line)]),
        {
          ...bearer(verified.body.token),
          'idempotency-key': `shipped-${line}`,
          host,
        },
      )
    expect((await submit('li-a', EVIL)).status).toBe(421)
    const made = await submit('li-b', `evil.localhost:${server.port}`)
    expect(made.status).toBe(201)

    const signIn = await server.callFrom(
      '127.0.0.1',
      'POST',
      '/admin/api/session',
      { email: STAFF, password: PASSWORD },
      { host: own, origin: `http://${own}` },
    )
    expect(signIn.status).toBe(200)
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!
    const read = <T>(path: string) => server.callFrom<T>('127.0.0.1', 'GET', path, undefined, { host: own, cookie })
    const [email] = await eventually(async () => {
      const list = (await read<EmailList>('/admin/api/emails')).body.emails
      return list.length > 0 && list.every((each) => each.state === 'kept') ? list : null
    }, 'the e-mail to be kept')
    expect(email!.return_id).toBe(made.body.id)
    const detail = (await read<EmailDetail>(`/admin/api/emails/${email!.id}`)).body
    const html = (await read<string>(detail.html_url!)).body
    const links = linksOf(html)
    expect(links.length).toBeGreaterThanOrEqual(2)
    for (const link of links) expect(link.startsWith(`http://${own}/`)).toBe(true)
    for (const text of [html, detail.text!]) expect(text).not.toContain('evil')
    // The refused submit made nothing: one return, one e-mail.
    expect((await read<EmailList>('/admin/api/emails')).body.emails).toHaveLength(1)
  }, 120_000)
})
