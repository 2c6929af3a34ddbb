import type { ReturnInstructions, ReturnOrder } from '../contract/api'
import { expect, expectAccessible, test } from './fixtures'
import {
  continueButton,
  expectStep,
  heading,
  isInstructions,
  isQuote,
  isSubmit,
  openStart,
  visitedPaths,
} from './steps'

/**
 * EXC2001 on acme.localhost (docs/rules.md §14): an exchange order, whose name starts with the 'EXC'
 * alternative to the shop's 'AC' prefix (docs/rules.md §6.2), returned to its end. acme has no
 * gift-card multiplier and upsell off, so an exchange goes from the item straight to confirm.
 */

const ITEM = 'li-exc2001-001'

test('EXC2001 on acme: the exchange order is exchanged again, from the start screen to its instructions', async ({
  page,
  resetDemoShops,
  shopConfig,
}) => {
  await resetDemoShops()
  const config = await shopConfig('acme')
  const visited = visitedPaths(page)
  const submits: string[] = []
  page.on('request', (sent) => {
    if (isSubmit(sent)) submits.push(sent.url())
  })

  await openStart(page, 'acme')
  const orderName = page.getByRole('textbox', { name: 'Order number' })
  // Typed as a shopper might: lower case, with the EXC prefix instead of the shop's AC.
  await orderName.pressSequentially('exc2001')
  await expect(orderName).toHaveValue('EXC2001')
  await page.getByRole('textbox', { name: 'E-mail address' }).fill('ada@example.com')
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Find my order' }).click()

  // /products: the order under its own name (not rewritten to AC…), its one item.
  await expectStep(page, '/products', 'Choose the items to return')
  await expect(page.getByText('Order EXC2001')).toBeVisible()
  const tee = page.getByRole('checkbox', { name: /^Anvil T-shirt/ })
  await expect(tee).toHaveCount(1)
  await expect(tee).toHaveAccessibleName(/\bL\b/)
  await expect(continueButton(page)).toBeDisabled()
  await tee.check()
  await expectAccessible(page)
  await continueButton(page).click()

  await expectStep(page, `/return-item/${ITEM}/return-reason`, 'Why are you returning the Anvil T-shirt?')
  await expect(page.getByText('Returning 1 unit')).toBeVisible()
  await expect(page.getByText(/^Item \d of/)).toHaveCount(0)
  await page.getByRole('radio', { name: 'Too large', exact: true }).check()
  await expectAccessible(page)
  await continueButton(page).click()

  // The exchange: the tee's other sizes, not its own L.
  await expectStep(page, `/return-item/${ITEM}/exchange`, 'Would you like to exchange the Anvil T-shirt?')
  for (const size of ['S', 'M', 'XL'])
    await expect(page.getByRole('radio', { name: new RegExp(`Size ${size}\\b`) })).toBeEnabled()
  await expect(page.getByRole('radio', { name: /Size L\b/ })).toHaveCount(0)
  await page.getByRole('radio', { name: /Size M\b/ }).check()
  await expectAccessible(page)
  const confirmQuote = page.waitForResponse((response) => isQuote(response.request()) && response.ok())
  await continueButton(page).click()

  // No upsell (off) and no refund method (no multiplier): straight to confirm.
  await expectStep(page, '/confirm', 'Check and confirm your return')
  const quote = (await (await confirmQuote).json()) as ReturnOrder
  const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('Anvil T-shirt')
  await expect(items.first()).toContainText('Reason: Too large')
  await expect(items.first()).toContainText('Exchange for M')
  // A size for a size at the same price: nothing to refund, in dollars.
  expect(quote.breakdown.total.presentment_money).toEqual({ amount: '0.00', currency_code: 'USD' })
  // Nothing refunded: no breakdown of zeros, the exchange is said to cost nothing.
  await expect(page.getByText('Your exchange costs nothing: there is no fee and nothing to pay.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Your refund' })).toHaveCount(0)
  await expect(page.getByText('Total', { exact: true })).toHaveCount(0)
  await expectAccessible(page)
  const instructionsAnswer = page.waitForResponse((response) => isInstructions(response) && response.ok())
  await page.getByRole('button', { name: 'Submit return' }).click()

  await expectStep(page, '/return-instruction', 'Your return is registered')
  const instructions = (await (await instructionsAnswer).json()) as ReturnInstructions
  expect(instructions.return_name).toBe('EXC2001-R1')
  await expect(page.getByText('Return number EXC2001-R1')).toBeVisible()
  await expect(page.getByRole('list', { name: 'What to do next' }).getByRole('listitem')).toHaveText(instructions.steps)
  const address = page.locator('address')
  for (const line of ['ACME Returns Center', '1 Road Runner Way', 'Dock 7', 'Phoenix, AZ 85001', 'United States'])
    await expect(address).toContainText(line)
  await expect(page.getByRole('img', { name: /^QR code for drop-off/ })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
  await expect(page.getByText('Your new items ship once your return arrives.')).toBeVisible()
  await expect(page.getByText(/we refund|store credit/i)).toHaveCount(0)
  await expectAccessible(page)

  expect(visited.filter((path) => /upsell|refund-method/.test(path))).toEqual([])
  expect(submits).toHaveLength(1)

  // Its one unit is returned now: the start screen says so with the shop's own words.
  await page.getByRole('link', { name: 'Start another return' }).click()
  await expect(heading(page)).toHaveText(config.start_return_message!)
  await page.getByRole('textbox', { name: 'Order number' }).fill('EXC2001')
  await page.getByRole('textbox', { name: 'E-mail address' }).fill('ada@example.com')
  await page.getByRole('button', { name: 'Find my order' }).click()
  await expect(page.getByRole('alert')).toHaveText(config.order_already_has_return_message!)
  await expectAccessible(page)
})
