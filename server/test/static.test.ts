import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import { openPglite, type Database } from '../src/storage/database'
import { CONTENT_SECURITY_POLICY } from '../src/routes/static'

const BIG_SCRIPT = `console.info(${JSON.stringify('portal '.repeat(2000))})`

/**
 * The built portal as the API serves it (a small stand-in for dist/, so no build is needed): every
 * page under the Content-Security-Policy, nothing outside the build, no source map.
 */
describe('the portal served from a build directory', () => {
  let root: string
  let dir: string
  let db: Database
  let app: FastifyInstance
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'rebound-static-'))
    dir = join(root, 'dist')
    mkdirSync(join(dir, 'assets'), { recursive: true })
    // Beside the build, as a server's other files would be: never to be served.
    writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET')
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>Rebound</title><script defer src="/assets/main.abc.js"></script>',
    )
    writeFileSync(join(dir, 'admin.html'), '<!doctype html><title>Returns back office</title>')
    writeFileSync(join(dir, 'env.js'), "window.PORTAL_ENV = { configUrl: '', apiUrl: '', defaultSubdomain: 'demo' }")
    writeFileSync(join(dir, 'assets', 'main.abc.js'), 'console.info("portal")')
    // As the build writes them (webpack.config.mjs): the script compressed ahead, beside it.
    writeFileSync(join(dir, 'assets', 'big.abc.js'), BIG_SCRIPT)
    writeFileSync(join(dir, 'assets', 'big.abc.js.br'), brotliCompressSync(BIG_SCRIPT))
    writeFileSync(join(dir, 'assets', 'big.abc.js.gz'), gzipSync(BIG_SCRIPT, { level: 9 }))
    db = await openPglite()
    app = await buildApp({ db, secret: Buffer.from('s'), staticDir: dir })
  })
  afterAll(async () => {
    await app.close()
    await db.close()
    rmSync(root, { recursive: true, force: true })
  })

  test.each(['/', '/products', '/return-item/li-1/exchange', '/no/such/page?x=1'])(
    'GET %s is the page, with the Content-Security-Policy',
    async (url) => {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toContain('text/html')
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      expect(response.headers['x-content-type-options']).toBe('nosniff')
    },
  )

  test.each(['/admin', '/admin/', '/admin/returns/r-1', '/admin/support/7KQ2-9XHD?x=1'])(
    "GET %s is the back office's page, under the same policy, never the portal's",
    async (url) => {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(200)
      expect(response.body).toContain('Returns back office')
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      expect(response.headers['cache-control']).toBe('no-cache')
    },
  )

  test("the back office's API is never a page: an unknown call is a JSON 404", async () => {
    for (const url of ['/admin/api/nothing', '/admin/api/returns/x/y/z']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ error: 'not_found' })
    }
    expect((await app.inject({ method: 'POST', url: '/admin' })).statusCode).toBe(404)
  })

  test('the policy allows no inline or evaluated script and images only from here, https and data:', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split('; ').map((directive) => [
        directive.split(' ')[0],
        directive.split(' ').slice(1).join(' '),
      ]),
    )
    expect(directives.get('script-src')).toBe("'self'")
    expect(directives.get('style-src')).toBe("'self'")
    expect(directives.get('img-src')).toBe("'self' https: data:")
    expect(directives.get('object-src')).toBe("'none'")
    expect(directives.get('frame-ancestors')).toBe("'none'")
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*/)
  })

  test.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
  ])('a file beside the build is never served: %s', async (url) => {
    const response = await app.inject({ method: 'GET', url })
    expect(response.body).not.toContain('TOP-SECRET')
    // The page (a path of the portal) or a 404 (under /assets/): nothing else.
    expect([200, 404]).toContain(response.statusCode)
    if (response.statusCode === 200) expect(response.headers['content-type']).toContain('text/html')
  })

  test.each(['/assets/main.abc.js.map', '/portal-registration/nothing'])(
    '%s, not in the build nor the API, is a 404',
    async (url) => {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404)
    },
  )

  test('a preview link with its 16 KB configuration in the URL opens the page over a real connection; a 100 KB one is a 431', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const preview = `${address}/?testMode=1&config=${'A'.repeat(16_384)}&orderName=${'1'.repeat(100)}`
    const page = await fetch(preview)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect((await fetch(`${address}/?config=${'A'.repeat(100_000)}`)).status).toBe(431)
  })

  test('hashed assets are cached for a year; the page and env.js are revalidated', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/main.abc.js' })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    )
    expect((await app.inject({ method: 'GET', url: '/env.js' })).headers['cache-control']).toBe('no-cache')
    expect((await app.inject({ method: 'GET', url: '/' })).headers['cache-control']).toBe('no-cache')
  })

  test('a script is sent as the build compressed it, in the best encoding the browser takes, and as it is otherwise', async () => {
    const get = (encoding?: string) =>
      app.inject({
        method: 'GET',
        url: '/assets/big.abc.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      })
    const brotli = await get('gzip, deflate, br')
    expect(brotli.statusCode).toBe(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers['content-type']).toContain('javascript')
    expect(brotli.headers.vary).toContain('accept-encoding')
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(BIG_SCRIPT)
    const gzip = await get('gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(BIG_SCRIPT)
    const plain = await get()
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(BIG_SCRIPT)
    // The compressed copies are no addresses of their own.
    expect((await app.inject({ method: 'GET', url: '/assets/big.abc.js.br' })).statusCode).toBe(404)
  })
})
