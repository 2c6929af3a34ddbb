import fc from 'fast-check'
import { hashPassword } from '../src/domain/passwords'
import { addStaff } from '../src/storage/staff'
import { buildOrder, buildReturn, buildShop, returnItem } from './builders'
import { engines, NOW, staffCookie, startApi, submitted, verified, type TestApi } from './harness'
import { databaseDigest, nastyText, NAMES_A_FIELD } from './hostile'
import { stringMatching } from './matchers'

/**
 * Every console route that reads a query string or a path parameter, fed hostile values through
 * app.inject: a 4xx naming the parameter, never a 5xx, and the database as it was. The cases the
 * black-box test found first (U+0000, year 0000, cursors Date.parse takes and PostgreSQL does not).
 */

const PASSWORD = 'a long staff password for hostile queries'
const HOST = 'north.localhost'
const jane = buildOrder({ name: '#1001', email: 'jane@example.com' })
const SHOP = buildShop({ shop: 'north', orders: [jane] })
const RUNS = 120

const cursor = (at: unknown, id: unknown) => Buffer.from(JSON.stringify([at, id])).toString('base64url')

/** The black-box test's findings, and their neighbours: each is a 400 naming its parameter. */
const REFUSED: [string, string][] = [
  ['/admin/api/returns.csv?q=a%00b', 'q'],
  ['/admin/api/returns?q=a%00b', 'q'],
  ['/admin/api/returns?reason=%00', 'reason'],
  ['/admin/api/returns.csv?from=0000-01-01', 'from'],
  ['/admin/api/returns?from=0000-01-01', 'from'],
  ['/admin/api/returns?to=0000-12-31', 'to'],
  ['/admin/api/insights?from=0000-01-01&to=0000-12-31', 'to'],
  ['/admin/api/insights?to=0000-00-00', 'to'],
  ['/admin/api/insights?to=2026-02-31', 'to'],
  [`/admin/api/returns?after=${cursor('0', 'r_1')}`, 'after'],
  [`/admin/api/returns?after=${cursor('0000-01-01T00:00:00.000Z', 'r_1')}`, 'after'],
  [`/admin/api/returns?after=${cursor('+275760-09-13T00:00:00.000Z', 'r_1')}`, 'after'],
  [`/admin/api/returns?after=${cursor('Tue, 1 Dec 2026 00:00:00 GMT', 'r_1')}`, 'after'],
  [`/admin/api/returns?after=${cursor('2026-11-20T12:00:00.000Z', 'r\u0000')}`, 'after'],
  ['/admin/api/emails?return_id=a%00b', 'return_id'],
  ['/admin/api/receive?code=RB-%00', 'code'],
  ['/admin/api/returns/a%00b', 'id'],
  ['/admin/api/support/a%00b', 'reference'],
]

/** A query value as an attacker sends it: anything, percent-encoded byte by byte when it likes. */
const rawBytes = fc
  .uint8Array({ maxLength: 12 })
  .map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''))
const text = fc.oneof(nastyText, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
/** Percent-encoded as a browser would; a lone surrogate, which has no UTF-8, as its raw bytes. */
const encoded = (value: fc.Arbitrary<string>) =>
  value.map((each) => {
    try {
      return encodeURIComponent(each)
    } catch {
      return '%ED%A0%80'
    }
  })
const dayLike = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
  .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)
const timeLike = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  dayLike,
  fc.constantFrom('0', '2026', 'Tue', '0000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z'),
  fc.string({ maxLength: 30 }),
)
const cursorLike = fc
  .tuple(fc.oneof(timeLike, fc.integer(), fc.constant(null)), fc.oneof(fc.string({ maxLength: 20 }), fc.integer()))
  .map(([at, id]) => cursor(at, id))
const value = fc.oneof(
  encoded(text),
  rawBytes,
  fc.constant('%00'),
  dayLike,
  cursorLike,
  encoded(fc.constantFrom('requested', 'received', 'pending', 'approved', '1', '100', '101', '-1')),
)

/** Each console route with a query, and the names it reads (plus one it does not). */
const ROUTES: [string, string[]][] = [
  ['/admin/api/returns', ['q', 'state', 'from', 'to', 'reason', 'review', 'after', 'limit', 'other']],
  ['/admin/api/returns.csv', ['q', 'state', 'from', 'to', 'reason', 'review', 'other']],
  ['/admin/api/insights', ['from', 'to', 'other']],
  ['/admin/api/emails', ['return_id', 'other']],
  ['/admin/api/receive', ['code', 'other']],
]
const PATHS = [
  '/admin/api/returns/',
  '/admin/api/emails/',
  '/admin/api/emails/{}/html',
  '/admin/api/support/',
  '/admin/api/webhooks/{}/deliveries',
]

describe.each(engines())('console queries on %s', (engine) => {
  let api: TestApi
  let cookie: string
  let digest: string
  beforeAll(async () => {
    api = await startApi(engine, [SHOP])
    await submitted(
      api.app,
      (await verified(api.app, SHOP, jane)).token,
      buildReturn([returnItem(jane.line_items[0]!.id)]),
    )
    await addStaff(api.db, 'north', 'staff@north.example', await hashPassword(PASSWORD), NOW)
    cookie = await staffCookie(api.app, 'staff@north.example', PASSWORD, HOST)
    digest = await databaseDigest(api.db)
  }, 120_000)
  afterAll(() => api.close())

  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: HOST, cookie } })

  test.each(REFUSED)('GET %s is a 400 naming %s, and the console goes on', async (url, name) => {
    const answer = await get(url)
    expect({ status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
      status: 400,
      body: { error: 'invalid_request', message: stringMatching(new RegExp(`^${name}: \\S`)) },
    })
    expect((await get('/admin/api/returns.csv')).statusCode).toBe(200)
  })

  test('an export whose filters match nothing is a header row, and a filter of 2999 works', async () => {
    const answer = await get('/admin/api/returns.csv?from=2999-12-31&to=2999-12-31')
    expect(answer.statusCode).toBe(200)
    expect(answer.body.trim().split('\n')).toHaveLength(1)
  })

  test('every console query, any values: a 4xx naming the parameter or an answer, never a 5xx', async () => {
    const query = fc.constantFrom(...ROUTES).chain(([path, names]) =>
      fc
        .uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: names.length })
        .chain((chosen) => fc.tuple(...chosen.map((name) => value.map((each) => `${name}=${each}`))))
        .map((pairs) => `${path}?${pairs.join('&')}`),
    )
    await fc.assert(
      fc.asyncProperty(query, async (url) => {
        const answer = await get(url)
        if (answer.statusCode >= 500) throw new Error(`${url}: ${answer.statusCode} ${answer.body}`)
        if (answer.statusCode === 400)
          expect(answer.json<{ message: string }>().message).toMatch(/^(from, to|[a-z_]+): \S/)
      }),
      { numRuns: RUNS },
    )
    expect(await databaseDigest(api.db)).toBe(digest)
  })

  test('every console path parameter, any value: never a 5xx', async () => {
    const url = fc
      .tuple(fc.constantFrom(...PATHS), fc.oneof(encoded(text), rawBytes, fc.constant('a%00b')))
      .filter(([, segment]) => segment !== '' && !segment.includes('%2F') && !segment.includes('/'))
      .map(([path, segment]) => (path.includes('{}') ? path.replace('{}', segment) : `${path}${segment}`))
    await fc.assert(
      fc.asyncProperty(url, async (each) => {
        const answer = await get(each)
        if (answer.statusCode >= 500) throw new Error(`${each}: ${answer.statusCode} ${answer.body}`)
        // A path that is not valid percent-encoding is refused whole, before any route.
        if (answer.statusCode === 400)
          expect(answer.json<{ message: string }>().message).toMatch(
            new RegExp(`${NAMES_A_FIELD.source}|^The address is not valid\\.$`),
          )
      }),
      { numRuns: RUNS },
    )
    expect(await databaseDigest(api.db)).toBe(digest)
  })
})
