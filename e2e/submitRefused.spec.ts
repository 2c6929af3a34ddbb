/**
 * A submit the server refuses, against the real server: a lapsed token (401) is verified again on
 * the confirm step with every choice kept; a choice that no longer holds (422: the tee returned
 * meanwhile from another device) is named with the return that took it and the way to the step that
 * fixes it, never "try again".
 */
import { apiUrl, expect, expectAccessible, startReturn, test, verifyOrder } from './fixtures'
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

test('a 401 at submit: verify again in place, the e-mail filled in, and the same choices make one return', async ({
  page,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  await chooseExchange(page, TEE, 'Classic Tee', 'Size L')
  await expectStep(page, '/confirm', CONFIRM)

  // The token lived its time: the real server refuses the one it is sent (a token it never signed).
  await page.route(
    (url) => url.pathname === '/portal-registration/returns',
    async (route) => {
      await route.continue({ headers: { ...route.request().headers(), authorization: 'Bearer lapsed.token' } })
    },
    { times: 1 },
  )
  const refused = page.waitForResponse((response) => isSubmit(response.request()))
  await page.getByRole('button', { name: 'Submit return' }).click()
  expect((await refused).status()).toBe(401)

  await expect(page.getByRole('heading', { name: 'Please confirm it’s you' })).toBeFocused()
  await expect(page.getByRole('textbox', { name: 'Order number' })).toHaveValue('#1001')
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue('jane@example.com')
  await expect(page).toHaveURL((url) => url.pathname === '/confirm')
  await expectAccessible(page)
  // Read and tabbed in the same order: Continue, then Start again, left to right.
  const carryOn = page.getByRole('button', { name: 'Continue with my return' })
  const startAgain = page.getByRole('link', { name: 'Start again' })
  await page.getByRole('textbox', { name: 'E-mail' }).focus()
  await page.keyboard.press('Tab')
  await expect(carryOn).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(startAgain).toBeFocused()
  const [first, second] = [await carryOn.boundingBox(), await startAgain.boundingBox()]
  expect(first!.y < second!.y || first!.x < second!.x).toBe(true)

  await page.getByRole('button', { name: 'Continue with my return' }).click()
  await expect(page.getByText('Exchange for L')).toBeVisible()
  const submitted = page.waitForResponse((response) => isSubmit(response.request()))
  await page.getByRole('button', { name: 'Submit return' }).click()
  expect((await submitted).status()).toBe(201)
  await expectStep(page, '/return-instruction', 'Your return is registered')
})

test('a 422 at submit: the item returned meanwhile is named, its step offers what is true now, and the rest makes the return', async ({
  page,
  request,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee' }, { title: 'Ceramic Mug' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  await chooseExchange(page, TEE, 'Classic Tee', 'Size L')
  await giveReason(page, MUG, 'Ceramic Mug', 'Changed my mind')
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', CONFIRM)

  // Meanwhile, from another device, both tees go back.
  const other = await verifyOrder(request, '#1001', 'jane@example.com')
  const elsewhere = await request.post(apiUrl('/portal-registration/returns'), {
    headers: { authorization: `Bearer ${other.token}`, 'idempotency-key': 'elsewhere-0001' },
    data: { items: [{ line_item_id: TEE, quantity: 2, reason_id: 'changed_mind' }], refund_method: 'original_payment' },
  })
  expect(elsewhere.status(), await elsewhere.text()).toBe(201)

  const refused = page.waitForResponse((response) => isSubmit(response.request()))
  const reread = page.waitForResponse((response) => new URL(response.url()).pathname === '/portal-registration/order')
  await page.getByRole('button', { name: 'Submit return' }).click()
  expect((await refused).status()).toBe(422)
  await expect(page.getByRole('heading', { name: 'Some of your choices no longer work' })).toBeFocused()
  await expect(page.getByText('Classic Tee (Size M) was already returned, in return #1001-R1.')).toBeVisible()
  // The order is read anew and the tee drops out of the choices; what was refused stays said.
  expect((await reread).status()).toBe(200)
  await expect(page.getByRole('list', { name: 'Your items' }).getByText('Classic Tee')).toHaveCount(0)
  await expect(page.getByText('Classic Tee (Size M) was already returned, in return #1001-R1.')).toBeVisible()
  await expect(page.getByRole('button', { name: /Submit return|Try again/ })).toHaveCount(0)
  // With the way to the return that took it (decision 0065).
  await expect(page.getByRole('link', { name: 'See return #1001-R1' })).toHaveAttribute('href', /^\/status\//)
  await expectAccessible(page)

  await page.getByRole('link', { name: 'Change your items' }).click()
  await expectStep(page, '/products', 'Choose the items to return')
  // The order as it is now: the tee is gone from what can be returned, the mug still chosen.
  await expect(page.getByRole('checkbox', { name: /^Classic Tee/ })).toBeDisabled()
  await expect(page.getByRole('checkbox', { name: /^Ceramic Mug/ })).toBeChecked()
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await giveReason(page, MUG, 'Ceramic Mug', 'Changed my mind')
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', CONFIRM)
  await expect(page.getByText('Classic Tee')).toHaveCount(0)
  const submitted = page.waitForResponse((response) => isSubmit(response.request()))
  await page.getByRole('button', { name: 'Submit return' }).click()
  expect((await submitted).status()).toBe(201)
  await expectStep(page, '/return-instruction', 'Your return is registered')
})
