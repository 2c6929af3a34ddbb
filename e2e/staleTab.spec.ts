/**
 * A stale tab (issue 30): the shopper duplicates the tab, makes the return in the copy, then
 * submits the same items from the first. The items are named as already returned, with a link to
 * the return made, and the items step says so: never a loop that ends in "We could not work out
 * your refund".
 */
import { expect, expectAccessible, startReturn, test } from './fixtures'
import {
  chooseExchange,
  chooseItems,
  chooseRefundMethod,
  declineUpsell,
  expectStep,
  giveReason,
  isSubmit,
  MUG,
  openStart,
  TEE,
} from './steps'

const CONFIRM = 'Check and confirm your return'

test('every item returned from a duplicated tab: named with a link to that return, and marked on the items step', async ({
  page,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee', quantity: 2 }, { title: 'Ceramic Mug' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  await chooseExchange(page, TEE, 'Classic Tee', 'Refund instead')
  await giveReason(page, MUG, 'Ceramic Mug', 'Changed my mind')
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', CONFIRM)

  // The copy of the tab (its session storage copied, as a duplicated tab's is) makes the return.
  const [copy] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate(() => void window.open('/confirm')),
  ])
  await expectStep(copy, '/confirm', CONFIRM)
  const made = copy.waitForResponse((response) => isSubmit(response.request()))
  await copy.getByRole('button', { name: 'Submit return' }).click()
  const answer = await made
  expect(answer.status()).toBe(201)
  const returnName = ((await answer.json()) as { name: string }).name
  await expectStep(copy, '/return-instruction', 'Your return is registered')
  await copy.close()

  // The first tab submits the same items: they went in that return.
  const refused = page.waitForResponse((response) => isSubmit(response.request()))
  await page.getByRole('button', { name: 'Submit return' }).click()
  expect((await refused).status()).toBe(422)
  await expect(page.getByRole('heading', { name: 'Some of your choices no longer work' })).toBeFocused()
  await expect(page.getByText(`Classic Tee (Size M) was already returned, in return ${returnName}.`)).toBeVisible()
  await expect(page.getByText(`Ceramic Mug was already returned, in return ${returnName}.`)).toBeVisible()
  const seeReturn = page.getByRole('link', { name: `See return ${returnName}` })
  await expect(seeReturn).toHaveCount(1)
  const statusLink = (await seeReturn.getAttribute('href'))!
  await expect(page.getByRole('button', { name: /Submit return|Try again/ })).toHaveCount(0)
  await expect(page.getByText('We could not work out your refund')).toHaveCount(0)
  await expectAccessible(page)

  await page.getByRole('link', { name: 'Change your items' }).click()
  await expectStep(page, '/products', 'Choose the items to return')
  for (const title of ['Classic Tee', 'Ceramic Mug']) {
    const row = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('checkbox', { name: new RegExp(`^${title}`) }) })
    await expect(row.getByRole('checkbox')).toBeDisabled()
    await expect(row.getByText('Already returned')).toBeVisible()
  }

  // The link leads to the return made in the other tab.
  await page.goto(statusLink)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(returnName)
})
