import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { apiUrl, expect, SERVER_SECRETS, shopUrl, startReturn, test } from './fixtures'

/**
 * The production build as the server ships it: no source maps (unless built with SOURCE_MAPS=1),
 * no secret in any file, every page under the Content-Security-Policy (which the browser enforces),
 * and Redux DevTools off unless asked for, then with e-mails masked.
 */

const DIST = join(__dirname, '../dist')
const MAPS_ASKED_FOR = process.env.SOURCE_MAPS === '1'

/** The policy docs/deploying.md gives other hosts of the portal ("The portal elsewhere"). */
function documentedPolicy(): string {
  const doc = readFileSync(join(__dirname, '../docs/deploying.md'), 'utf8')
  const block = /```\n(default-src[^`]+)```/.exec(doc)?.[1]
  if (!block) throw new Error('docs/deploying.md no longer documents the Content-Security-Policy')
  return block.replace(/\s+/g, ' ').trim()
}

/** Every file of the build, as paths of the site ('/assets/main.1a2b3c.js'). */
function builtFiles(dir = DIST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? builtFiles(join(dir, entry.name))
      : [`/${relative(DIST, join(dir, entry.name)).split('\\').join('/')}`],
  )
}

test.describe('the production build', () => {
  test('no source map is built or served, and no served file points to one', async ({ request }) => {
    const files = builtFiles()
    const scripts = files.filter((file) => /\.(js|css)$/.test(file))
    expect(scripts.length).toBeGreaterThan(5)
    expect(files.filter((file) => file.endsWith('.map')).length > 0).toBe(MAPS_ASKED_FOR)
    for (const file of scripts) {
      const served = await request.get(apiUrl(file))
      expect(served.status(), file).toBe(200)
      expect((await served.text()).includes('sourceMappingURL'), file).toBe(MAPS_ASKED_FOR)
      // A path the build does not have is a 404 (assets) or the page (others): never a map.
      const map = await request.get(apiUrl(`${file}.map`))
      expect(map.ok() && (await map.text()).includes('"mappings"'), `${file}.map`).toBe(MAPS_ASKED_FOR)
    }
  })

  test('no file the server sends holds a secret of its environment (ADMIN_TOKEN, TOKEN_SECRET)', async ({
    request,
  }) => {
    for (const file of [...builtFiles(), '/', '/products', '/portal-registration/config/demo']) {
      const body = await (await request.get(apiUrl(file))).text()
      for (const secret of SERVER_SECRETS) expect(body.includes(secret), `${secret} in ${file}`).toBe(false)
    }
  })

  test('every page is sent with the Content-Security-Policy docs/deploying.md documents, the start screen and any deep link alike', async ({
    request,
  }) => {
    const policy = documentedPolicy()
    expect(policy).toMatch(/script-src 'self'(;|$)/)
    expect(policy).toMatch(/img-src 'self' https: data:(;|$)/)
    expect(policy).not.toContain('unsafe')
    for (const path of ['/', '/products', '/return-item/li-1001-001/exchange', '/no/such/page?x=1']) {
      const page = await request.get(apiUrl(path))
      expect(page.headers()['content-type'], path).toContain('text/html')
      expect(page.headers()['content-security-policy'], path).toBe(policy)
    }
  })

  test('the browser enforces it: an injected inline script and an http: image are blocked, and the suite’s fixture reports them', async ({
    page,
    problems,
  }) => {
    await page.goto(shopUrl('demo'))
    await expect(page.getByRole('textbox', { name: 'Order number' })).toBeVisible()
    const violated = await page.evaluate(() => {
      const seen: string[] = []
      document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective))
      const script = document.createElement('script')
      script.textContent = 'window.__inlineRan = true'
      document.body.append(script)
      const image = document.createElement('img')
      image.src = 'http://127.0.0.1:9/tracker.png'
      document.body.append(image)
      return new Promise<string[]>((resolve) => setTimeout(() => resolve(seen), 500))
    })
    expect(violated).toEqual(expect.arrayContaining(['script-src-elem', 'img-src']))
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined()
    // What lets every other test's "no CSP violation" mean something: the fixture saw these two.
    await expect.poll(() => problems.filter((problem) => problem.startsWith('CSP:')).length).toBeGreaterThanOrEqual(2)
    problems.length = 0
  })
})

test.describe('Redux DevTools in the production build', () => {
  /** Stands in for the extension: records what it would be sent, through the sanitizers it is given. */
  const devToolsStandIn = () => {
    const w = window as unknown as Record<string, unknown>
    w.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ = (options: {
      actionSanitizer?: (action: unknown, id: number) => unknown
      stateSanitizer?: (state: unknown, id: number) => unknown
    }) => {
      const sent: string[] = []
      w.__devToolsSent = sent
      type Reducer = (state: unknown, action: unknown) => unknown
      type CreateStore = (reducer: Reducer, preloaded?: unknown) => unknown
      return (...enhancers: ((next: CreateStore) => CreateStore)[]) =>
        (createStore: CreateStore) =>
        (reducer: Reducer, preloaded?: unknown) => {
          const recording: Reducer = (state, action) => {
            const next = reducer(state, action)
            const shown = {
              action: options.actionSanitizer ? options.actionSanitizer(action, 0) : action,
              state: options.stateSanitizer ? options.stateSanitizer(next, 0) : next,
            }
            sent.push(JSON.stringify(shown))
            return next
          }
          return enhancers.reduceRight((next, enhance) => enhance(next), createStore)(recording, preloaded)
        }
    }
  }

  test('off without ?devtools=1: the extension is never connected', async ({ page, resetDemoShops }) => {
    await resetDemoShops()
    await page.addInitScript(devToolsStandIn)
    await page.goto(shopUrl('demo'))
    await startReturn(page, '#1001', 'jane@example.com')
    await expect(page).toHaveURL(/\/products$/)
    expect(
      await page.evaluate(() => (window as unknown as { __devToolsSent?: string[] }).__devToolsSent),
    ).toBeUndefined()
  })

  test('with ?devtools=1 it sees every action and state, each e-mail masked', async ({ page, resetDemoShops }) => {
    await resetDemoShops()
    await page.addInitScript(devToolsStandIn)
    await page.goto(shopUrl('demo', '/?devtools=1'))
    await startReturn(page, '#1001', 'jane@example.com')
    await expect(page).toHaveURL(/\/products$/)
    const sent = (await page.evaluate(() => (window as unknown as { __devToolsSent?: string[] }).__devToolsSent)) ?? []
    expect(sent.some((entry) => entry.includes('verifyOrder'))).toBe(true)
    expect(sent.some((entry) => entry.includes('j***@example.com'))).toBe(true)
    expect(sent.filter((entry) => entry.includes('jane@example.com'))).toEqual([])
  })
})
