/**
 * Layout that only a real browser can judge (issue 30, found by hand): the focus is never hidden
 * under the sticky Continue bar (WCAG 2.4.11), at a phone's size and at a short landscape window.
 */
import type { Page } from '@playwright/test'
import { expect, startReturn, test } from './fixtures'
import { expectStep, openStart } from './steps'

/** How far the focused control's bottom reaches below the top of the sticky bar (≤ 0: clear of it). */
const focusUnderBar = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement!.getBoundingClientRect()
    const bar = document.querySelector('.sticky-bar')!.getBoundingClientRect()
    return { under: focused.bottom - bar.top, visible: focused.top >= 0 && focused.bottom <= innerHeight }
  })

for (const viewport of [
  { width: 390, height: 844 },
  { width: 640, height: 400 },
]) {
  test(`at ${viewport.width}×${viewport.height}, tabbing down the items never puts the focus under the Continue bar`, async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await page.setViewportSize(viewport)
    await openStart(page)
    await startReturn(page, '#1006', 'bulk@example.com')
    await expectStep(page, '/products', 'Choose the items to return')
    await page.getByRole('checkbox').first().focus()
    // Far enough that the list scrolls under the bar many times over.
    for (let step = 0; step < 24; step++) {
      await page.keyboard.press('Tab')
      await expect
        .poll(async () => (await focusUnderBar(page)).visible, { message: `after Tab ${step + 1}` })
        .toBe(true)
      expect((await focusUnderBar(page)).under, `after Tab ${step + 1}`).toBeLessThanOrEqual(0)
    }
  })
}
