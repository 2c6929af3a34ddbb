import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONTENT_SECURITY_POLICY } from '../src/routes/static'
import { buildShop } from './builders'
import { startApi, type TestApi } from './harness'

const ADMIN_TOKEN = 'admin-token-for-hints'
const PAGE =
  '<!doctype html><html><head><title>Rebound</title><script defer src="/assets/main.abc.js"></script></head><body><div id="root"></div></body></html>'
const SAME_ORIGIN = "window.PORTAL_ENV = { configUrl: '', apiUrl: '', defaultSubdomain: 'north' }"
/** The shop of north.localhost (and of env.js's default), with a logo; another shop beside it. */
const NORTH = buildShop({ shop: 'north', config: { logo_src: '/images/north-logo.svg' } })
const SOUTH = buildShop({ shop: 'south' })
const CONFIG_NORTH = '<link rel="preload" href="/portal-registration/config/north" as="fetch" crossorigin="anonymous">'
const LOGO_NORTH = '<link rel="preload" href="/images/north-logo.svg" as="image" fetchpriority="high">'

/**
 * The start screen's HTML names the shop's configuration and logo, so the browser fetches them
 * while the portal's JavaScript is still on its way (the logo is the start screen's largest paint).
 */
describe('first-paint hints in the start screen’s HTML', () => {
  let dir: string
  let api: TestApi
  const page = (url: string, host = 'north.localhost:8080') => api.app.inject({ method: 'GET', url, headers: { host } })
  const head = async (url: string, host?: string) => (await page(url, host)).body.split('</head>')[0]!

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rebound-hints-'))
    writeFileSync(join(dir, 'index.html'), PAGE)
    api = await startApi('pglite', [NORTH, SOUTH], { staticDir: dir, adminToken: ADMIN_TOKEN })
  })
  // env.js is read for each page, as an operator may replace it while the server runs.
  beforeEach(() => writeFileSync(join(dir, 'env.js'), SAME_ORIGIN))
  afterAll(async () => {
    await api.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('/ on a shop’s host names its configuration and logo, and is still the page under the CSP', async () => {
    const response = await page('/')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.body).toBe(PAGE.replace('</head>', `${CONFIG_NORTH}${LOGO_NORTH}</head>`))
  })

  test('the configuration the link’s language asks for, and the other shop’s on its host', async () => {
    expect(await head('/?lang=de&testMode=1')).toContain('href="/portal-registration/config/north-de"')
    const south = await head('/', 'south.localhost:8080')
    expect(south).toContain('href="/portal-registration/config/south"')
    // The host without a subdomain is env.js's default shop.
    expect(await head('/', '127.0.0.1:8080')).toContain(CONFIG_NORTH)
  })

  test.each([
    ['a preview link (it may show another logo)', '/?config=eyJ9', 'north.localhost'],
    // Served by the fallback for browser-history routes, which names nothing.
    ['a later step (its language is the session’s, which the server cannot see)', '/products', 'north.localhost'],
    ['a shop this server does not know', '/', 'nope.localhost'],
  ])('%s: the page as built, nothing named', async (_name, url, host) => {
    const response = await page(url, host)
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(PAGE)
  })

  test('a host name that is no label falls back to the default shop, as the portal does, and is never written into the page', async () => {
    const body = (await page('/', '"><script>alert(1)</script>.localhost')).body
    expect(body).not.toContain('<script>alert')
    expect(body).toContain(CONFIG_NORTH)
  })

  test.each([
    [
      'points the configuration at another host',
      "window.PORTAL_ENV = { configUrl: 'https://config.example.com', apiUrl: '', defaultSubdomain: 'north' }",
    ],
    ['names no configUrl', 'window.PORTAL_ENV = {'],
    ['computes its settings', 'window.PORTAL_ENV = { configUrl: location.origin }'],
  ])('env.js that %s: nothing named (the portal may not ask this server)', async (_name, code) => {
    writeFileSync(join(dir, 'env.js'), code)
    expect((await page('/')).body).toBe(PAGE)
  })

  test('env.js is read as text, never run by the server', async () => {
    writeFileSync(join(dir, 'env.js'), `globalThis.process && (globalThis.process.exitCode = 7); ${SAME_ORIGIN}`)
    expect(await head('/')).toContain(CONFIG_NORTH)
    expect(process.exitCode).toBeUndefined()
  })

  test('a logo this page could not show (http:) is not named; one with quotes or `$` is written as the portal asks for it, the page otherwise as built', async () => {
    for (const [logo, expected] of [
      ['http://cdn.example.com/logo.png', null],
      // As the portal resolves it (quotes and angle brackets percent-encoded), and `$` kept as it is.
      ['https://cdn.example.com/a"b<c>.png', 'href="https://cdn.example.com/a%22b%3Cc%3E.png"'],
      ['https://cdn.example.com/$`x$&.png', 'href="https://cdn.example.com/$%60x$&amp;.png"'],
    ] as const) {
      const file = buildShop({ shop: 'north', config: { logo_src: logo } })
      const imported = await api.app.inject({
        method: 'POST',
        url: '/admin/shops',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: file,
      })
      expect(imported.statusCode).toBe(201)
      const named = await head('/')
      expect(named).toContain(CONFIG_NORTH)
      if (expected === null) expect(named).not.toContain('as="image"')
      else expect(named).toContain(expected)
      // Nothing of the page is repeated or moved: only the hints were added before </head>.
      const body = (await page('/')).body
      expect(body.replace(/<link rel="preload"[^>]*>/g, '')).toBe(PAGE)
    }
  })
})
