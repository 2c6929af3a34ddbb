import type { FrameLocator, Locator, Page } from '@playwright/test'
import { moneyOf } from '../contract/money'
import { expect, expectAccessible, startReturn, test } from './fixtures'
import {
  staffSignedIn,
  breakdownValue,
  chooseItems,
  chooseRefundMethod,
  declineUpsell,
  expectStep,
  giveReason,
  heading,
  money,
  openStart,
  openConsolePage,
} from './steps'

/**
 * Issue 30, "Money the shop and the shopper can trust": two returns of the demo shop walked from
 * submit to refund, every e-mail read as the shopper gets it, and the refund the same on every
 * screen and in every e-mail. Each amount is read from the first screen that shows it and then
 * looked for, as that same text, everywhere after; it is checked once against the sum it should be.
 *
 * #1010 (keep@example.com): 2 × Cotton Socks at €9.90, under the shop's €10.00 keep_item_below
 * (refunded without being sent back), and a Wool Beanie at €17.00; to the original payment,
 * 5–10 business days after the parcel arrives.
 * #1005 (solo@example.com): a Canvas Tote at €15.00, as store credit with the shop's 1.1
 * multiplier, issued at once when the return is submitted, as a code to spend.
 */

const SOCKS = 'li-1010-001'
const BEANIE = 'li-1010-002'
const TOTE = 'li-1005-001'
const euros = (minor: number) => money(moneyOf(minor, 'EUR'))
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The status link the instructions give the shopper to keep. */
const statusLinkOf = (page: Page) =>
  page
    .getByRole('region', { name: 'Follow your return' })
    .getByRole('textbox', { name: 'Link to your return’s status' })
    .inputValue()

/** A row of the console's money table (the return page's "Refund"), by its label. */
const moneyRow = (scope: Locator, label: string) => scope.getByRole('row', { name: new RegExp(`^${label}\\b`) })

/**
 * Opens the kept e-mail `subject` from the console's "E-mails" screen (the list polls, and an
 * e-mail has its subject once it is written) and answers its text as the shopper reads it, with
 * the frame; the plain-text part is checked to carry `amount` too.
 */
async function readEmail(staff: Page, subject: string, amount: string): Promise<{ text: string; mail: FrameLocator }> {
  await openConsolePage(staff, 'E-mails')
  await expect(heading(staff)).toHaveText('E-mails to shoppers')
  await staff.getByRole('link', { name: subject, exact: true }).click()
  await expect(heading(staff)).toHaveText(subject)
  const mail = staff.frameLocator('iframe[title^="The e-mail"]')
  await expect(mail.getByRole('heading', { level: 1 })).toBeVisible()
  await staff.getByText('Plain text', { exact: true }).click()
  await expect(staff.locator('pre')).toContainText(amount)
  return { text: await mail.locator('body').innerText(), mail }
}

/**
 * Receive → the return by its number (a scanner types it and Enter) → `title` as new, restocked →
 * Review, with the refund issued now; answers the preview, before Confirm.
 */
async function receiveAsNew(staff: Page, returnName: string, title: string): Promise<Locator> {
  await openConsolePage(staff, 'Receive')
  await expect(heading(staff)).toHaveText('Receive a return')
  const code = staff.getByRole('textbox', { name: 'Drop-off code or return number' })
  await code.pressSequentially(returnName)
  await code.press('Enter')
  await expect(heading(staff)).toContainText(returnName)
  const item = staff.getByRole('group', { name: new RegExp(title) })
  await item.getByRole('group', { name: 'Condition' }).getByRole('radio', { name: 'As new' }).check()
  await expect(item.getByRole('group', { name: 'Disposition' }).getByRole('radio', { name: 'Restock' })).toBeChecked()
  await expect(staff.getByRole('checkbox', { name: 'Issue the refund now' })).toBeChecked()
  await staff.getByRole('button', { name: 'Review', exact: true }).click()
  const preview = staff.getByRole('region', { name: 'Check before you confirm' })
  await expect(preview).toBeVisible()
  await expect(preview.getByText('Nothing is deducted.')).toBeVisible()
  return preview
}

/** The preview's "Refund after deductions". */
const refundAfterDeductions = (preview: Locator) =>
  preview
    .locator('dl > div')
    .filter({ has: preview.page().locator('dt', { hasText: /^Refund after deductions$/ }) })
    .locator('dd')

/** Confirm on the preview; then the return's page in the console. */
async function confirmAndOpenReturn(staff: Page, returnName: string) {
  await staff.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect(staff.getByRole('heading', { name: 'Inspection recorded' })).toBeVisible()
  const recorded = staff.getByRole('status').filter({ hasText: 'Inspection recorded' })
  await expect(recorded).toContainText(`1 item of ${returnName} inspected, and the refund issued.`)
  await recorded.getByRole('link', { name: `Open ${returnName}` }).click()
  await expect(heading(staff)).toHaveText(`Return ${returnName}`)
}

test('#1010 from submit to refund: the socks kept and the beanie sent back, one refund to the card on every screen and in every e-mail', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  // Two browsers, a dozen screens and three e-mails: longer than one screen's journey.
  test.slow()
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1010', 'keep@example.com')
  await chooseItems(page, [{ title: 'Cotton Socks', quantity: 2 }, { title: 'Wool Beanie' }])
  await giveReason(page, SOCKS, 'Cotton Socks', 'Changed my mind')
  await giveReason(page, BEANIE, 'Wool Beanie', 'Changed my mind')
  await declineUpsell(page)
  await expectStep(page, '/refund-method', 'How would you like your refund?')
  const offered = await page
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: /^Original payment method/ }) })
    .locator('.refund-method__amount')
    .textContent()
  await chooseRefundMethod(page, 'Original payment method')

  // Confirm: the refund as the shopper is asked to agree to it.
  await expectStep(page, '/confirm', 'Check and confirm your return')
  const refund = (await breakdownValue(page, 'Total').textContent())!
  // 2 × €9.90 kept + €17.00 sent back − the €3.95 fee, prices with tax.
  expect(refund).toBe(euros(2 * 990 + 1700 - 395))
  expect(offered).toBe(refund)
  const fee = (await breakdownValue(page, 'Return fee').textContent())!.replace(/^−/, '')
  expect(fee).toBe(euros(395))
  await expect(page.getByText('Refund to: Original payment method')).toBeVisible()
  await expect(
    page.getByText(`Includes ${euros(2 * 990)} for items you keep: no need to send them back.`),
  ).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Submit return' }).click()

  // Instructions: the same amount, when it comes, what goes in the parcel.
  await expectStep(page, '/return-instruction', 'Your return is registered')
  await expect(page.getByText('Return number #1010-R1')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Your refund' })).toContainText(
    `We refund ${refund} to your original payment method, 5–10 business days after we receive your items.`,
  )
  await expect(page.getByRole('list', { name: 'Send back', exact: true })).toHaveText('1 × Wool Beanie')
  await expect(page.getByRole('list', { name: 'Keep, no need to send back' })).toHaveText('2 × Cotton Socks')
  await expectAccessible(page)
  const statusLink = await statusLinkOf(page)

  // The "registered" e-mail states the deal: each item and its fate, amount and method, the fee,
  // the timing, where to send the parcel and by when.
  const staff = await staffSignedIn(browser, page)
  const registered = await readEmail(staff, 'Your return #1010-R1 is registered', refund)
  await expect(registered.mail.getByRole('heading', { level: 1 })).toHaveText('Your return is registered')
  expect(registered.text).toMatch(
    /Send these items back\s+Wool Beanie\s+Quantity: 1 · Refund\s+You keep these items\s+Cotton Socks\s+Quantity: 2 · Refund, and you keep it\s/,
  )
  expect(registered.text).toContain(`Your refund\n\n${refund} to your original payment method\n`)
  expect(registered.text).toContain(`A return fee of ${fee} is taken from it.`)
  expect(registered.text).toContain('Expect it 5 to 10 business days after your items arrive.')
  expect(registered.text).toMatch(
    /Send your parcel to\s+Demo Store Returns\s+Hafenstraße 12\s+20457 Hamburg\s+Germany\s+Please drop it off by [A-Z][a-z]+ \d{1,2}, \d{4}\./,
  )
  await expect(registered.mail.getByRole('link', { name: 'Print your label' })).toBeVisible()
  await expectAccessible(staff, 'iframe')

  // The warehouse receives the beanie; the socks never come, and are refunded with it.
  const preview = await receiveAsNew(staff, '#1010-R1', 'Wool Beanie')
  await expect(refundAfterDeductions(preview)).toHaveText(refund)
  await expect(preview.getByText('Issued now, to the original payment method.')).toBeVisible()
  await expect(preview.getByText('Refunded with them, so the return is done: Cotton Socks.')).toBeVisible()
  await expectAccessible(staff)
  await confirmAndOpenReturn(staff, '#1010-R1')

  // The console's return page: refunded, kept socks included, the same total.
  await expect(staff.locator('.console__title-row')).toContainText('Refunded')
  const items = staff.getByRole('region', { name: 'Items', exact: true }).getByRole('listitem')
  await expect(items.filter({ hasText: 'Cotton Socks' })).toContainText(
    'Kept by the shopper: refunded without being sent back',
  )
  await expect(items.filter({ hasText: 'Cotton Socks' })).toContainText('Refunded')
  await expect(items.filter({ hasText: 'Wool Beanie' })).toContainText('Refunded')
  const figures = staff.getByRole('region', { name: 'Refund', exact: true })
  await expect(moneyRow(figures, 'Total').getByRole('cell')).toHaveText(refund)
  await expect(moneyRow(figures, 'Return fee').getByRole('cell')).toHaveText(`−${fee}`)
  await expect(figures.getByText('To: Original payment method')).toBeVisible()
  await expectAccessible(staff)
  await staff.getByRole('link', { name: 'All returns' }).click()
  const row = staff.getByRole('row', { name: /#1010-R1/ })
  await expect(row).toContainText(refund)
  await expect(row).toContainText('Refunded')

  // The refund e-mail: the same amount, and the days it is expected between.
  const refunded = await readEmail(staff, 'Your refund for #1010-R1 is issued', refund)
  await expect(refunded.mail.getByRole('heading', { level: 1 })).toHaveText('Your refund is issued')
  expect(refunded.text).toContain(`${refund} to your original payment method`)
  const [, from, to] = /Expect it between (.+?) and (.+?)\./.exec(refunded.text) ?? []
  expect(from, refunded.text).toBeTruthy()

  // The shopper's status page: every item refunded, the same amount, the same days.
  await page.goto(statusLink)
  await expect(heading(page)).toHaveText('Return #1010-R1')
  await expect(page.getByRole('listitem', { name: 'Cotton Socks' }).getByText(/^Now:/)).toHaveText('Now: Refunded')
  await expect(page.getByRole('listitem', { name: 'Wool Beanie' }).getByText(/^Now:/)).toHaveText('Now: Refunded')
  const yourRefund = page.getByRole('region', { name: 'Your refund' })
  await expect(yourRefund).toContainText(`${refund} to your original payment method`)
  await expect(yourRefund).toContainText(`Expected between ${from} and ${to}`)
  await expectAccessible(page)
  await staff.context().close()
})

test('#1005 from submit to refund: the tote as store credit with its bonus, a code to spend, the same amount everywhere', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  test.slow()
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1005', 'solo@example.com')
  await chooseItems(page, [{ title: 'Canvas Tote' }])
  await giveReason(page, TOTE, 'Canvas Tote', 'Changed my mind')
  await declineUpsell(page)

  // The refund method: store credit is where the credit is first shown.
  await expectStep(page, '/refund-method', 'How would you like your refund?')
  const storeCredit = page.locator('label').filter({ has: page.getByRole('radio', { name: /^Store credit/ }) })
  await expect(storeCredit).toContainText('+10% bonus')
  const credit = (await storeCredit.locator('.refund-method__amount').textContent())!
  // (€15.00 − the €3.95 fee) × 1.1 = €12.155, rounded up to the cent, in the shopper's favour.
  expect(credit).toBe(euros(Math.ceil(((1500 - 395) * 11) / 10)))
  await chooseRefundMethod(page, 'Store credit')

  await expectStep(page, '/confirm', 'Check and confirm your return')
  await expect(breakdownValue(page, 'Total')).toHaveText(credit)
  await expect(breakdownValue(page, 'Store credit bonus')).toHaveText(/^\+€\d+\.\d{2}$/)
  await expect(page.getByText('Refund to: Store credit (gift card)')).toBeVisible()
  await expect(page.getByText(`You will receive ${credit} as a gift card by e-mail.`)).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Submit return' }).click()

  await expectStep(page, '/return-instruction', 'Your return is registered')
  await expect(page.getByText('Return number #1005-R1')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Your refund' })).toContainText(
    `We issued ${credit} as store credit (a gift card) when you submitted your return: look for it in your e-mail.`,
  )
  const statusLink = await statusLinkOf(page)

  // The status page has the code at once, worth the credit.
  await page.goto(statusLink)
  await expect(heading(page)).toHaveText('Return #1005-R1')
  const yourRefund = page.getByRole('region', { name: 'Your refund' })
  await expect(yourRefund).toContainText(`${credit} as store credit (a gift card)`)
  const codeText = yourRefund.getByText(/^GC-[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/)
  await expect(codeText).toBeVisible()
  const code = (await codeText.textContent())!
  await expect(yourRefund).toContainText(`Worth ${credit}. Enter it at checkout: you can spend it now.`)
  await expectAccessible(page)

  // Both e-mails carry the same code and amount: the deal when registered, the credit when issued.
  const staff = await staffSignedIn(browser, page)
  const registered = await readEmail(staff, 'Your return #1005-R1 is registered', credit)
  expect(registered.text).toMatch(/Send these items back\s+Canvas Tote\b.*\s+Quantity: 1 · Refund\s/)
  expect(registered.text).toContain(`Your refund\n\n${credit} as store credit (a gift card)\n`)
  expect(registered.text).toContain('A return fee of €3.95 is taken from it.')
  expect(registered.text).toContain(`Your store credit of ${credit} is ready. Your code:\n\n${code}\n`)
  expect(registered.text).toMatch(
    /Send your parcel to\s+Demo Store Returns\s+Hafenstraße 12\s+20457 Hamburg\s+Germany\s+Please drop it off by [A-Z][a-z]+ \d{1,2}, \d{4}\./,
  )
  const refunded = await readEmail(staff, 'Your refund for #1005-R1 is issued', credit)
  await expect(refunded.mail.getByRole('heading', { level: 1 })).toHaveText('Your refund is issued')
  expect(refunded.text).toContain(`${credit} as store credit (a gift card)`)
  expect(refunded.text).toContain(`Your store credit of ${credit} is ready. Your code:\n\n${code}\n`)
  await expectAccessible(staff, 'iframe')

  // The warehouse receives the tote: the credit went at submit, nothing can be taken from it now.
  const preview = await receiveAsNew(staff, '#1005-R1', 'Canvas Tote')
  await expect(refundAfterDeductions(preview)).toHaveText(credit)
  await expect(
    preview.getByText(
      new RegExp(
        `^Store credit of ${escaped(credit)} was issued when the return was submitted \\(.+\\)\\. Nothing is deducted from it now\\.$`,
      ),
    ),
  ).toBeVisible()
  await expectAccessible(staff)
  await confirmAndOpenReturn(staff, '#1005-R1')
  const figures = staff.getByRole('region', { name: 'Refund', exact: true })
  await expect(moneyRow(figures, 'Total').getByRole('cell')).toHaveText(credit)
  await expect(figures.getByText('To: Store credit')).toBeVisible()
  await staff.getByRole('link', { name: 'All returns' }).click()
  await expect(staff.getByRole('row', { name: /#1005-R1/ })).toContainText(credit)
  // Receiving issued no second credit and no second refund e-mail.
  await openConsolePage(staff, 'E-mails')
  await expect(staff.getByRole('link', { name: 'Your refund for #1005-R1 is issued', exact: true })).toHaveCount(1)

  await page.reload()
  await expect(heading(page)).toHaveText('Return #1005-R1')
  // Its money went at submit: its way ends at "Received by us", and "Now" says the same.
  const tote = page.getByRole('listitem', { name: 'Canvas Tote' })
  await expect(tote.getByText(/^Now:/)).toHaveText('Now: Received by us')
  await expect(tote.locator('[aria-current="step"]')).toContainText('Received by us')
  await expect(yourRefund).toContainText(`${credit} as store credit (a gift card)`)
  await expect(yourRefund.getByText(code, { exact: true })).toBeVisible()
  await staff.context().close()
})
