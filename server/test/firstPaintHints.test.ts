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
/** The first paint written into the root: the card with the logo, hidden from assistive technology. */
const shell = (logo: string) =>
  '<div class="page page--first-paint" aria-hidden="true"><div class="page__body"><div class="card">' +
  `<div class="card__header"><div class="shop-logo"><img class="shop-logo__image" src="${logo}" alt="" width="220" height="56"></div></div>` +
  '</div></div></div>'
const withShell = (page: string, logo: string) =>
  page.replace('<div id="root"></div>', `<div id="root">${shell(logo)}</div>`)

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
    expect(response.body).toBe(
      withShell(PAGE.replace('</head>', `${CONFIG_NORTH}${LOGO_NORTH}</head>`), '/images/north-logo.svg'),
    )
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
    ['a shop this server does not know', '/', 'nope.localhost'],
  ])('%s: the page as built, nothing named', async (_name, url, host) => {
    const response = await page(url, host)
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(PAGE)
  })

  test('a host name that is no label is not served (421, decision 0052), and is never written into the answer', async () => {
    const response = await page('/', '"><script>alert(1)</script>.localhost')
    expect(response.statusCode).toBe(421)
    expect(response.body).not.toContain('<script>alert')
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

  describe('a later page: the scripts its first paint runs, from the build’s chunk-groups.json', () => {
    const GROUPS = {
      restore: ['assets/449.a.js', 'assets/restore.b.js'],
      products: ['assets/454.c.js', 'assets/products.d.js'],
      returnReason: ['assets/454.c.js', 'assets/returnReason.e.js'],
      status: ['assets/status.f.js'],
      support: ['assets/support.g.js'],
      'i18n-flow-en': ['assets/i18n-flow-en.h.js'],
      'i18n-flow-de': ['assets/i18n-flow-de.i.js'],
    }
    const script = (file: string) => `<link rel="preload" href="/${file}" as="script">`
    const scripts = (head: string) => [...head.matchAll(/href="\/(assets\/[^"]+)" as="script"/g)].map((m) => m[1])
    beforeEach(() => writeFileSync(join(dir, 'chunk-groups.json'), JSON.stringify(GROUPS)))
    afterAll(() => rmSync(join(dir, 'chunk-groups.json'), { force: true }))

    test('/products: the configuration and logo, then the restore, the step and the English words, each once', async () => {
      const response = await page('/products')
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      const hints = [...GROUPS.restore, ...GROUPS.products, ...GROUPS['i18n-flow-en']].map(script).join('')
      expect(response.body).toBe(
        withShell(PAGE.replace('</head>', `${CONFIG_NORTH}${LOGO_NORTH}${hints}</head>`), '/images/north-logo.svg'),
      )
    })

    test('a step with a parameter, in any case and with a trailing slash, as the router matches it', async () => {
      for (const url of ['/return-item/li-1/return-reason', '/RETURN-ITEM/li-1/Return-Reason/'])
        expect(scripts(await head(url))).toEqual([
          'assets/449.a.js',
          'assets/restore.b.js',
          'assets/454.c.js',
          'assets/returnReason.e.js',
          'assets/i18n-flow-en.h.js',
        ])
      // Two segments where the route has one: no step, so the start screen's hints only.
      expect(scripts(await head('/return-item/a/b/return-reason'))).toEqual([])
    })

    test('a step’s language is the session’s: its URL’s parameters are not read', async () => {
      const named = await head('/products?lang=de&config=eyJ9')
      expect(named).toContain(CONFIG_NORTH)
      expect(scripts(named)).toContain('assets/i18n-flow-en.h.js')
      expect(scripts(named)).not.toContain('assets/i18n-flow-de.i.js')
    })

    test('the status page takes its language from its link, and restores no session', async () => {
      const named = await head('/status/r-1?lang=de-AT')
      expect(named).toContain('href="/portal-registration/config/north-de-AT"')
      expect(scripts(named)).toEqual(['assets/status.f.js', 'assets/i18n-flow-de.i.js'])
      // A language the portal has no words for: English, as the portal falls back.
      expect(scripts(await head('/status/r-1?lang=pt'))).toEqual(['assets/status.f.js', 'assets/i18n-flow-en.h.js'])
      expect(scripts(await head('/support'))).toEqual(['assets/support.g.js', 'assets/i18n-flow-en.h.js'])
    })

    test('a manifest naming anything but a file of assets/ names nothing of it; an unreadable one, no scripts', async () => {
      writeFileSync(
        join(dir, 'chunk-groups.json'),
        JSON.stringify({ products: ['assets/ok.js', '../secret.js', 'assets/x.js"><script>alert(1)</script>', 7] }),
      )
      const named = await head('/products')
      expect(scripts(named)).toEqual(['assets/ok.js'])
      expect(named).not.toContain('<script>alert')
      writeFileSync(join(dir, 'chunk-groups.json'), '{ not json')
      const response = await page('/products')
      expect(response.statusCode).toBe(200)
      expect(scripts(response.body)).toEqual([])
      expect(response.body).toContain(CONFIG_NORTH)
    })
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
      expect(
        body.replace(/<link rel="preload"[^>]*>/g, '').replace(/(<div id="root">).*(<\/div><\/body>)/, '$1$2'),
      ).toBe(PAGE)
      // The first paint shows the logo the hint named, or none when the page could not show it.
      if (expected === null) expect(body).not.toContain('shop-logo__image')
      else expect(body).toContain(`class="shop-logo__image" src="${expected.slice('href="'.length)}`)
    }
  })
})
