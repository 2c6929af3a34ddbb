import type { Locator, Page } from '@playwright/test'
import { expect, shopUrl, test } from './fixtures'

/**
 * WCAG 2.1.1: the whole journey by keyboard alone. Every control is reached with Tab (never a
 * click or a focus() call), operated with Space, Enter or the arrow keys, and each new screen
 * puts the focus on its heading (docs/rules.md §16.1).
 */

/** Presses Tab until `target` has the focus; fails if it is not reachable within `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let press = 0; press < limit; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  await expect(target, `reachable with Tab within ${limit} presses`).toBeFocused()
}

/** Tabs to a button and presses it with Enter. */
async function pressButton(page: Page, name: string) {
  await tabTo(page, page.getByRole('button', { name, exact: true }))
  await page.keyboard.press('Enter')
}

/** The step's heading has the focus, so a screen reader starts reading the new screen there. */
async function expectFocusOnHeading(page: Page, path: string, title: string) {
  await expect(page).toHaveURL((url) => url.pathname === path)
  const heading = page.getByRole('heading', { level: 1 })
  await expect(heading).toHaveText(title)
  await expect(heading).toBeFocused()
}

test('#1005 from the start screen to the return instructions by keyboard alone', async ({ page, resetDemoShops }) => {
  await resetDemoShops()
  await page.goto(shopUrl('demo'))

  const orderName = page.getByRole('textbox', { name: 'Order number' })
  await tabTo(page, orderName)
  await page.keyboard.type('#1005')
  await tabTo(page, page.getByRole('textbox', { name: 'E-mail address' }))
  await page.keyboard.type('solo@example.com')
  await page.keyboard.press('Enter')

  await expectFocusOnHeading(page, '/products', 'Choose the items to return')
  const tote = page.getByRole('checkbox', { name: /^Canvas Tote/ })
  await tabTo(page, tote)
  await page.keyboard.press('Space')
  await expect(tote).toBeChecked()
  await pressButton(page, 'Continue')

  await expectFocusOnHeading(page, '/return-item/li-1005-001/return-reason', 'Why are you returning the Canvas Tote?')
  // A radio group takes one Tab stop; the arrows move the choice within it.
  const firstReason = page.getByRole('radio').first()
  await tabTo(page, firstReason)
  await page.keyboard.press('Space')
  await expect(firstReason).toBeChecked()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('radio').nth(1)).toBeChecked()
  await pressButton(page, 'Continue')

  await expectFocusOnHeading(page, '/upsell-offer', 'Exchange for something new?')
  // The Tab order is the order on screen, at either width: the offer, then No thanks.
  const accept = page.getByRole('button', { name: 'Yes, show me new items' })
  const decline = page.getByRole('button', { name: 'No thanks, continue with my return' })
  await tabTo(page, accept)
  await page.keyboard.press('Tab')
  await expect(decline).toBeFocused()
  const [a, d] = [await accept.boundingBox(), await decline.boundingBox()]
  expect(a!.y < d!.y || (a!.y === d!.y && a!.x < d!.x)).toBe(true)
  await pressButton(page, 'No thanks, continue with my return')

  await expectFocusOnHeading(page, '/refund-method', 'How would you like your refund?')
  const original = page.getByRole('radio', { name: /^Original payment method/ })
  await tabTo(page, page.getByRole('radio').first())
  await page.keyboard.press('Space')
  if (!(await original.isChecked())) await page.keyboard.press('ArrowUp')
  await expect(original).toBeChecked()
  await pressButton(page, 'Continue')

  await expectFocusOnHeading(page, '/confirm', 'Check and confirm your return')
  await pressButton(page, 'Submit return')

  await expectFocusOnHeading(page, '/return-instruction', 'Your return is registered')
  await expect(page.getByText('Return number #1005-R1')).toBeVisible()
  // The label and the way back are reachable too.
  await tabTo(page, page.getByRole('link', { name: /shipping label/i }))
  await tabTo(
    page,
    page
      .getByRole('link', { name: 'Start another return' })
      .or(page.getByRole('button', { name: 'Start another return' })),
  )
})

test('a verify error is announced and the fields stay reachable by keyboard', async ({ page }) => {
  await page.goto(shopUrl('demo'))
  await tabTo(page, page.getByRole('textbox', { name: 'Order number' }))
  await page.keyboard.type('#9999')
  await tabTo(page, page.getByRole('textbox', { name: 'E-mail address' }))
  await page.keyboard.type('nobody@example.com')
  await page.keyboard.press('Enter')
  // role="alert": a live region, read out when the message appears.
  await expect(page.getByRole('alert')).toBeVisible()
  // The message does not take the focus away from where the shopper was typing…
  await expect(page.getByRole('textbox', { name: 'E-mail address' })).toBeFocused()
  // …and the order number can be reached again to correct it.
  await page.keyboard.press('Shift+Tab')
  const orderName = page.getByRole('textbox', { name: 'Order number' })
  for (
    let press = 0;
    press < 3 && !(await orderName.evaluate((element) => element === document.activeElement));
    press++
  )
    await page.keyboard.press('Shift+Tab')
  await expect(orderName).toBeFocused()
  await page.keyboard.press('Control+A')
  await page.keyboard.type('#1005')
  // Editing clears the error line (see docs/decisions/0006-verify-errors.md).
  await expect(page.getByRole('alert')).toHaveCount(0)
})
