import type { Page } from '@playwright/test'
import type { NothingToSendInstructions, ReturnInstructions } from '../contract/api'
import { ADMIN_HEADERS as ADMIN } from './serverSecrets'
import { apiUrl, expect, expectAccessible, startReturn, test } from './fixtures'
import {
  breakdownValue,
  chooseItems,
  chooseRefundMethod,
  continueButton,
  declineUpsell,
  expectStep,
  giveReason,
  isInstructions,
  openStart,
} from './steps'

/**
 * Fit-aware exchanges and keep-item returns on the demo shop: #1011 (sneakers in 41, 42 out of
 * stock; a rain jacket in M, S out of stock) and #1010 (socks at €9.90, under the shop's €10.00
 * keep_item_below, and a beanie at €17.00).
 */

const SNEAKERS = 'li-1011-001'
const JACKET = 'li-1011-002'
const SOCKS = 'li-1010-001'
const BEANIE = 'li-1010-002'

/** #1010 up to confirm: the socks (under the keep threshold) and the beanie, both "Changed my mind", refunded. */
async function reachConfirmWithSocksAndBeanie(page: Page) {
  await openStart(page)
  await startReturn(page, '#1010', 'keep@example.com')
  await chooseItems(page, [{ title: 'Cotton Socks' }, { title: 'Wool Beanie' }])
  await giveReason(page, SOCKS, 'Cotton Socks', 'Changed my mind')
  await giveReason(page, BEANIE, 'Wool Beanie', 'Changed my mind')
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
}

test.describe('fit-aware exchange', () => {
  test('#1011: too small preselects the next size in stock and says why; the shopper changes it, a reload keeps it, the return is made', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await openStart(page)
    await startReturn(page, '#1011', 'fit@example.com')
    await chooseItems(page, [{ title: 'Court Sneakers' }])
    await giveReason(page, SNEAKERS, 'Court Sneakers', 'Too small')

    await expectStep(page, `/return-item/${SNEAKERS}/exchange`, 'Would you like to exchange the Court Sneakers?')
    const why =
      'We picked size 43, the next larger size we have, because you said size 41 was too small. You can choose another.'
    await expect(page.getByText(why)).toBeVisible()
    await expect(page.getByRole('group', { name: 'Exchange for another variant' })).toHaveAccessibleDescription(why)
    await expect(page.getByRole('radio', { name: 'Size 43' })).toBeChecked()
    await expect(page.getByRole('radio', { name: /Size 42/ })).toBeDisabled()
    await expectAccessible(page)

    // The shopper knows better: 44. Their choice survives a reload, the suggestion does not return.
    await page.getByRole('radio', { name: 'Size 44' }).check()
    await page.reload()
    await expectStep(page, `/return-item/${SNEAKERS}/exchange`, 'Would you like to exchange the Court Sneakers?')
    await expect(page.getByRole('radio', { name: 'Size 44' })).toBeChecked()
    await expect(page.getByRole('radio', { name: 'Size 43' })).not.toBeChecked()
    await expect(page.getByText(why)).toBeVisible()
    await continueButton(page).click()

    // Every item exchanged: straight to confirm, and back again still shows 44.
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await page.goBack()
    await expect(page.getByRole('radio', { name: 'Size 44' })).toBeChecked()
    await page.goForward()
    await expectStep(page, '/confirm', 'Check and confirm your return')
    const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
    await expect(items).toHaveCount(1)
    await expect(items.first()).toContainText('Reason: Too small')
    await expect(items.first()).toContainText('Exchange for 44')
    // An exchange only: nothing refunded, so no breakdown of zeros.
    await expect(page.getByText('Your exchange costs nothing: there is no fee and nothing to pay.')).toBeVisible()
    await page.getByRole('button', { name: 'Submit return' }).click()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1011-R1')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
  })

  test('#1011: too large with no smaller size in stock preselects nothing and says so', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await openStart(page)
    await startReturn(page, '#1011', 'fit@example.com')
    await chooseItems(page, [{ title: 'Rain Jacket' }])
    await giveReason(page, JACKET, 'Rain Jacket', 'Too large')
    await expectStep(page, `/return-item/${JACKET}/exchange`, 'Would you like to exchange the Rain Jacket?')
    await expect(
      page.getByText(
        'You said size M was too large, but we have no smaller size right now. You can choose another option or a refund.',
      ),
    ).toBeVisible()
    for (const radio of await page.getByRole('radio').all()) await expect(radio).not.toBeChecked()
    await expectAccessible(page)
  })
})

test.describe('keep-item returns', () => {
  test('#1010: socks under the threshold are kept: the confirm step says so, no fee, and the instructions ask for nothing back', async ({
    page,
    request,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await openStart(page)
    await startReturn(page, '#1010', 'keep@example.com')
    await chooseItems(page, [{ title: 'Cotton Socks', quantity: 2 }])
    await giveReason(page, SOCKS, 'Cotton Socks', 'Changed my mind')
    await declineUpsell(page)
    await chooseRefundMethod(page, 'Original payment method')

    await expectStep(page, '/confirm', 'Check and confirm your return')
    const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
    await expect(items.first()).toContainText('Keep it, no need to send it back')
    await expect(page.getByText('Includes €19.80 for items you keep: no need to send them back.')).toBeVisible()
    await expect(breakdownValue(page, 'Return fee')).toHaveText('Free')
    await expect(breakdownValue(page, 'Total')).toHaveText('€19.80')
    await expectAccessible(page)
    const instructionsAnswer = page.waitForResponse((response) => isInstructions(response) && response.ok())
    await page.getByRole('button', { name: 'Submit return' }).click()

    await expectStep(page, '/return-instruction', 'Your return is registered')
    const instructions = (await (await instructionsAnswer).json()) as NothingToSendInstructions &
      Partial<ReturnInstructions>
    expect(instructions.nothing_to_send).toBe(true)
    expect(instructions.label_url).toBeUndefined()
    await expect(page.getByRole('heading', { level: 2, name: 'You don’t need to send anything back' })).toBeVisible()
    await expect(page.getByRole('list', { name: 'Keep, no need to send back' })).toContainText('2 × Cotton Socks')
    await expect(
      page.getByText('We refund €19.80 to your original payment method. There is nothing to send back.'),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: /shipping label/ })).toHaveCount(0)
    await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0)
    await expect(page.locator('address')).toHaveCount(0)
    await expectAccessible(page)
    // Not even a hand-made label link finds a label for it.
    const label = await request.get(
      apiUrl(`/portal-registration/returns/${instructions.return_id}/label.pdf?expires=9999999999&signature=forged`),
    )
    expect(label.status()).toBe(404)
  })

  test('#1010: socks kept and a beanie sent: each says which, and the parcel has a label', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await reachConfirmWithSocksAndBeanie(page)

    await expectStep(page, '/confirm', 'Check and confirm your return')
    const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
    await expect(items.nth(0)).toContainText('Keep it, no need to send it back')
    await expect(items.nth(1)).not.toContainText('Keep it')
    await expect(page.getByText('Includes €9.90 for items you keep: no need to send them back.')).toBeVisible()
    await expect(breakdownValue(page, 'Return fee')).toHaveText('−€3.95')
    await page.getByRole('button', { name: 'Submit return' }).click()

    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByRole('list', { name: 'Send back', exact: true })).toContainText('1 × Wool Beanie')
    await expect(page.getByRole('list', { name: 'Keep, no need to send back' })).toContainText('1 × Cotton Socks')
    await expect(page.getByRole('list', { name: 'What to do next' }).getByRole('listitem').first()).toHaveText(
      /^Pack only the items to send back/,
    )
    await expect(page.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    await expectAccessible(page)
  })

  test('#1010: the status page from the instructions shows the socks kept (two steps) and the beanie sent (four); the parcel scan passes the socks by', async ({
    page,
    request,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await reachConfirmWithSocksAndBeanie(page)
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await page.getByRole('button', { name: 'Submit return' }).click()

    await expectStep(page, '/return-instruction', 'Your return is registered')
    await page
      .getByRole('region', { name: 'Follow your return' })
      .getByRole('link', { name: 'See your return’s status' })
      .click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Return #1010-R1')
    const returnId = new URL(page.url()).pathname.split('/')[2]!

    const socks = page.getByRole('listitem', { name: 'Cotton Socks' })
    await expect(socks.getByText('You keep this item: no need to send it back')).toBeVisible()
    const socksSteps = socks.getByRole('list', { name: 'Progress of Cotton Socks' }).getByRole('listitem')
    await expect(socksSteps).toHaveText([/^Return requested \((done|current step)\)/, /^Refunded \(not yet\)/])
    await expect(socks.locator('[aria-current="step"]')).toContainText('Return requested')
    const beanie = page.getByRole('listitem', { name: 'Wool Beanie' })
    await expect(beanie.getByText(/You keep this item/)).toHaveCount(0)
    await expect(beanie.getByRole('list', { name: 'Progress of Wool Beanie' }).getByRole('listitem')).toHaveText([
      /^Return requested/,
      /On its way to us \(not yet\)/,
      /Received by us \(not yet\)/,
      /Refunded \(not yet\)/,
    ])
    const label = page.getByRole('region', { name: 'Your label and drop-off code' })
    await expect(label).toContainText('Only for the items you send back')
    await expect(label.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    await expectAccessible(page)

    // The parcel is scanned: the beanie travels, the socks stay requested; the socks cannot be put in transit.
    expect(
      (
        await request.post(apiUrl(`/admin/returns/${returnId}/status`), {
          headers: ADMIN,
          data: { state: 'in_transit' },
        })
      ).status(),
    ).toBe(200)
    expect(
      (
        await request.post(apiUrl(`/admin/returns/${returnId}/status`), {
          headers: ADMIN,
          data: { state: 'in_transit', line_item_ids: [SOCKS] },
        })
      ).status(),
    ).toBe(422)
    await page.reload()
    await expect(beanie.getByText(/^Now:/)).toHaveText('Now: On its way to us')
    await expect(socks.getByText(/^Now:/)).toHaveText('Now: Return requested')
    await expect(socks.getByRole('list', { name: 'Progress of Cotton Socks' }).getByRole('listitem')).toHaveCount(2)
  })
})
