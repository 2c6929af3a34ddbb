import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PortalConfig, VerifiedOrder } from '../contract/api'
import { ADMIN_TOKEN, DEMO_STAFF_PASSWORD, TOKEN_SECRET } from './serverSecrets'

/** The port of this worker's product (see playwright.config.ts: a server per worker, on consecutive ports). */
export const port = Number(process.env.E2E_PORT ?? 4173) + Number(process.env.TEST_PARALLEL_INDEX ?? 0)
export const shopUrl = (subdomain: string, path = '/') => `http://${subdomain}.localhost:${port}${path}`
/** The API itself, for calls a test makes beside the browser. */
export const apiUrl = (path: string) => `http://127.0.0.1:${port}${path}`

/** The webServer's secrets in playwright.config.ts: none may appear in anything the server sends. */
export const SERVER_SECRETS = [ADMIN_TOKEN, TOKEN_SECRET, DEMO_STAFF_PASSWORD]
/** The demo shop files the server loads on first start (docs/rules.md §14). */
const DEMO_SHOP_FILES = ['demo.json', 'acme.json'].map((name) => join(__dirname, '../server/demo', name))

/**
 * Puts the demo shops back as their files have them: each is deleted whole (DELETE
 * /admin/shops/{shop}, its returns included; an import alone keeps them) and imported again
 * (POST /admin/shops). The journeys of a worker share one server, so every test that verifies a
 * demo order or submits a return starts from this.
 */
export async function resetDemoShops(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
  for (const file of DEMO_SHOP_FILES) {
    const shop = JSON.parse(readFileSync(file, 'utf8')) as { shop: string }
    const deleted = await request.delete(apiUrl(`/admin/shops/${shop.shop}`), { headers })
    expect([204, 404], `delete of ${shop.shop}: ${await deleted.text()}`).toContain(deleted.status())
    const response = await request.post(apiUrl('/admin/shops'), { headers, data: shop })
    expect(response.status(), `re-import of ${file}: ${await response.text()}`).toBe(201)
  }
}

/** POST /portal-registration/verify as the portal sends it; the order as the server sees it now. */
export async function verifyOrder(
  request: APIRequestContext,
  orderName: string,
  email: string,
  shop = 'demo',
): Promise<VerifiedOrder> {
  const response = await request.post(apiUrl('/portal-registration/verify'), {
    data: { order_name: orderName, email, shop, portal_id: `portal-${shop}` },
  })
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as VerifiedOrder
}

interface Fixtures {
  /** page errors and Content-Security-Policy violations seen during the test; asserted empty after it */
  problems: string[]
  /** the shop configuration as the API serves it, to compare the screen against */
  shopConfig: (id: string) => Promise<PortalConfig>
  /** resetDemoShops with this test's request context: the demo data as on first start */
  resetDemoShops: () => Promise<void>
}

export const test = base.extend<Fixtures>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
          problems.push(`CSP: ${message.text()}`)
      })
      await use(problems)
      expect(problems, 'no page errors and no CSP violations').toEqual([])
    },
    { auto: true },
  ],
  shopConfig: async ({ request }, use) => {
    await use(async (id) => {
      const response = await request.get(`http://127.0.0.1:${port}/portal-registration/config/${id}`)
      expect(response.ok()).toBe(true)
      return (await response.json()) as PortalConfig
    })
  },
  resetDemoShops: async ({ request }, use) => {
    await use(() => resetDemoShops(request))
  },
})

export { expect }

/**
 * axe-core on the page as it is now: no violation of WCAG 2.0, 2.1 and 2.2 A and AA rules.
 * `exclude`: a part that is not the page's own (a sandboxed preview of an e-mail, which axe cannot
 * enter and which is the shopper's mail, not the console).
 */
export async function expectAccessible(page: Page, exclude?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'])
  const results = await (exclude ? builder.exclude(exclude) : builder).analyze()
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
  )
  expect(summary).toEqual([])
}

/** Fills the start screen and presses Enter. */
export async function startReturn(page: Page, orderName: string, email: string) {
  await page.getByRole('textbox', { name: 'Order number' }).fill(orderName)
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(email)
  await page.getByRole('textbox', { name: 'E-mail address' }).press('Enter')
}
