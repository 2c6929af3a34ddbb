import type { Page } from '@playwright/test'
import { expect, expectAccessible, startReturn, test } from './fixtures'
import {
  staffSignedIn,
  chooseExchange,
  chooseItems,
  chooseRefundMethod,
  declineUpsell,
  expectStep,
  giveReason,
  heading,
  openStart,
  openConsolePage,
} from './steps'

/**
 * The whole return lifecycle (docs/lifecycle.md) with the demo shop's policy: a return over the
 * review amount waits and is approved or rejected in the back office; the warehouse receives a
 * return, finds the item opened, and the refund is less by the shop's rule; the item restocked
 * is on offer again for another order's exchange.
 */

const WATCH = 'Automatic Watch'

/** A shopper returns one item of `order`, refunded to the original payment; answers the status link. */
async function shopperReturns(page: Page, order: string, email: string, lineItemId: string, title: string) {
  await openStart(page)
  await startReturn(page, order, email)
  await chooseItems(page, [{ title }])
  await giveReason(page, lineItemId, title, 'Changed my mind')
  if (title !== WATCH) await chooseExchange(page, lineItemId, title, 'Refund instead')
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', 'Check and confirm your return')
  await page.getByRole('button', { name: 'Submit return' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/return-instruction')
  return page
}

const statusLinkOf = (page: Page) =>
  page
    .getByRole('region', { name: 'Follow your return' })
    .getByRole('textbox', { name: 'Link to your return’s status' })
    .inputValue()

async function openReviewQueue(staff: Page) {
  await openConsolePage(staff, /^Review/)
  await expect(heading(staff)).toHaveText('Review')
}

test('a return over the review amount waits without a label, is approved in the back office, and then has its label and e-mail', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await shopperReturns(page, '#1012', 'approve@example.com', 'li-1012-001', WATCH)
  await expect(heading(page)).toHaveText('Your return is being reviewed')
  await expect(page.getByText('There is no shipping label yet.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download shipping label (PDF)' })).toHaveCount(0)
  await expectAccessible(page)
  const statusLink = await statusLinkOf(page)

  const staff = await staffSignedIn(browser, page)
  await openReviewQueue(staff)
  const row = staff.getByRole('row', { name: /#1012-R1/ })
  await expect(row).toContainText('approve@example.com')
  await expect(row).toContainText('over the €6,000.00 that needs review')
  await expectAccessible(staff)
  await row.getByRole('checkbox', { name: 'Select #1012-R1' }).check()
  await staff.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(staff.getByRole('status').filter({ hasText: 'Approved #1012-R1.' })).toBeVisible()
  await expect(staff.getByRole('row', { name: /#1012-R1/ })).toHaveCount(0)

  // The approved e-mail, with the label, is in the outbox (no SMTP_URL here: kept).
  await openConsolePage(staff, 'E-mails')
  await expect(staff.getByRole('link', { name: 'Your return #1012-R1 is approved' })).toBeVisible()

  await page.goto(statusLink)
  await expect(page.getByText(/^Approved on /)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Your label and drop-off code' })).toBeVisible()
  await expectAccessible(page)
  await staff.context().close()
})

test('a rejected return tells the shopper why, with nothing to send', async ({ page, browser, resetDemoShops }) => {
  await resetDemoShops()
  await shopperReturns(page, '#1013', 'reject@example.com', 'li-1013-001', WATCH)
  await expect(heading(page)).toHaveText('Your return is being reviewed')
  const statusLink = await statusLinkOf(page)

  const staff = await staffSignedIn(browser, page)
  await openReviewQueue(staff)
  await staff.getByRole('link', { name: '#1013-R1' }).click()
  await expect(heading(staff)).toHaveText('Return #1013-R1')
  await staff.getByRole('button', { name: 'Reject…' }).click()
  const reason = 'The serial number does not match our records; please contact us.'
  await staff.getByRole('textbox', { name: /^Reason for rejecting/ }).fill(reason)
  await expectAccessible(staff)
  await staff.getByRole('button', { name: 'Reject the return' }).click()
  await expect(staff.getByText(reason).first()).toBeVisible()

  await page.goto(statusLink)
  await expect(page.getByRole('heading', { name: 'Your return was not accepted' })).toBeVisible()
  await expect(page.getByText(reason)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Your label and drop-off code' })).toHaveCount(0)
  await expectAccessible(page)
  await staff.context().close()
})

test('the warehouse receives a sweater as opened: the refund is 10% less on the status page, and its restocked size is offered to another order', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  await resetDemoShops()
  // Before: #1015's sweater cannot be exchanged for M, which is sold out.
  await openStart(page)
  await startReturn(page, '#1015', 'size@example.com')
  await chooseItems(page, [{ title: 'Merino Sweater' }])
  await giveReason(page, 'li-1015-001', 'Merino Sweater', 'Changed my mind')
  await expect(page.getByRole('radio', { name: /^Size M/ })).toBeDisabled()

  // #1014 sends its M back.
  await shopperReturns(page, '#1014', 'restock@example.com', 'li-1014-001', 'Merino Sweater')
  await expect(heading(page)).toHaveText('Your return is registered')
  const statusLink = await statusLinkOf(page)

  const staff = await staffSignedIn(browser, page)
  await openConsolePage(staff, 'Receive')
  await expect(heading(staff)).toHaveText('Receive a return')
  const code = staff.getByRole('textbox', { name: 'Drop-off code or return number' })
  await expect(code).toBeFocused()
  await expectAccessible(staff)
  // A USB scanner types the code and Enter.
  await code.pressSequentially('#1014-R1')
  await code.press('Enter')
  await expect(heading(staff)).toContainText('#1014-R1')
  const item = staff.getByRole('group', { name: /Merino Sweater/ })
  await item.getByRole('group', { name: 'Condition' }).getByRole('radio', { name: 'Opened' }).check()
  await item.getByRole('group', { name: 'Disposition' }).getByRole('radio', { name: 'Restock' }).check()
  await expectAccessible(staff)
  await staff.getByRole('button', { name: 'Review', exact: true }).click()
  const deductions = staff.getByRole('table', { name: 'Deductions' })
  await expect(deductions).toContainText('10%')
  await expect(deductions).toContainText('€7.90')
  await expectAccessible(staff)
  await staff.getByRole('button', { name: 'Confirm' }).click()
  await expect(staff.getByRole('heading', { name: 'Inspection recorded' })).toBeVisible()

  await page.goto(statusLink)
  await expect(page.getByText('Taken off after inspection')).toBeVisible()
  await expect(page.getByText(/Merino Sweater: opened, 10% taken off \(−€7\.90\)/)).toBeVisible()
  await expect(page.getByText('Refund after deductions')).toBeVisible()
  await expectAccessible(page)

  // After: M is back on sale, and #1015 can have it.
  await openStart(page)
  await startReturn(page, '#1015', 'size@example.com')
  await chooseItems(page, [{ title: 'Merino Sweater' }])
  await giveReason(page, 'li-1015-001', 'Merino Sweater', 'Changed my mind')
  await expect(page.getByRole('radio', { name: /^Size M/ })).toBeEnabled()
  await page.getByRole('radio', { name: /^Size M/ }).check()
  // Every item exchanged: no upsell offer, straight to confirm.
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expectStep(page, '/confirm', 'Check and confirm your return')
  await expect(page.getByText('Exchange for M')).toBeVisible()
  await staff.context().close()
})

test('the policy screen shows the demo shop’s rules, and a product sold as swimwear says why it cannot be returned', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1016', 'finalsale@example.com')
  await expectStep(page, '/products', 'Choose the items to return')
  await expect(page.getByText('Final sale · Swimwear')).toBeVisible()
  await expectAccessible(page)

  const staff = await staffSignedIn(browser, page)
  await openConsolePage(staff, 'Policy')
  await expect(heading(staff)).toHaveText('Return policy')
  await expectAccessible(staff)
  await staff.context().close()
})
