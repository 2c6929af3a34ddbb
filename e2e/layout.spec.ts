/**
 * Layout that only a real browser can judge (issue 30, found by hand): the focus is never hidden
 * under the sticky Continue bar (WCAG 2.4.11), at a phone's size and at a short landscape window;
 * a shop's long button label reflows at 320 px (WCAG 1.4.10).
 */
import type { Page } from '@playwright/test'
import { encodeConfigOverride } from '../src/shop/configOverride'
import { expect, shopUrl, startReturn, test } from './fixtures'
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

test('at 320 px a long button label wraps inside the button, and the page does not scroll sideways', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 })
  const label = 'Rücksendungsanmeldungsbestätigungsschaltfläche: start your return or exchange here'
  await page.goto(`${shopUrl('demo')}?config=${encodeConfigOverride({ start_return_button_message: label })}`)
  const button = page.getByRole('button', { name: label })
  await expect(button).toBeVisible()
  const fits = await button.evaluate((element) => {
    const box = element.getBoundingClientRect()
    const text = element.querySelector('span')!.getBoundingClientRect()
    return {
      insideButton: text.left >= box.left && text.right <= box.right,
      insideViewport: box.right <= document.documentElement.clientWidth,
      noSideways: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    }
  })
  expect(fits).toEqual({ insideButton: true, insideViewport: true, noSideways: true })
})
