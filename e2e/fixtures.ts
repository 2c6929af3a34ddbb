import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import type { PortalConfig } from '../src/api/contract'

/** The port the product runs on for the journeys (see playwright.config.ts). */
export const port = Number(process.env.E2E_PORT ?? 4173)
export const shopUrl = (subdomain: string, path = '/') => `http://${subdomain}.localhost:${port}${path}`

interface Fixtures {
  /** page errors and Content-Security-Policy violations seen during the test; asserted empty after it */
  problems: string[]
  /** the shop configuration as the API serves it, to compare the screen against */
  shopConfig: (id: string) => Promise<PortalConfig>
}

export const test = base.extend<Fixtures>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`)
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
})

export { expect }

/** axe-core on the page as it is now: no violation of WCAG 2.0, 2.1 and 2.2 A and AA rules. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze()
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`)
  expect(summary).toEqual([])
}

/** Fills the start screen and presses Enter. */
export async function startReturn(page: Page, orderName: string, email: string) {
  await page.getByRole('textbox', { name: 'Order number' }).fill(orderName)
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(email)
  await page.getByRole('textbox', { name: 'E-mail address' }).press('Enter')
}
