import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, expectAccessible, shopUrl, startReturn, test } from './fixtures'
import { DEMO_STAFF_PASSWORD } from './serverSecrets'
import {
  chooseItems,
  chooseRefundMethod,
  continueButton,
  declineUpsell,
  expectStep,
  MUG,
  openStart,
  uploadPhoto,
  openConsolePage,
  signOutOfConsole,
} from './steps'

/**
 * The back office (docs/back-office.md) as the shop's staff use it, beside a shopper: the return
 * a shopper has just submitted is found, looked at and moved on, and the shopper sees it.
 */

async function signIn(page: Page, shop: string, email: string, password: string) {
  await page.goto(shopUrl(shop, '/admin'))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the back office')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** #1001's mug, arrived damaged, with a photo: submitted; answers the shopper's status link. */
async function shopperReturnsTheMug(page: Page): Promise<string> {
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Ceramic Mug' }])
  await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')
  await page.getByRole('radio', { name: 'Arrived damaged', exact: true }).check()
  await page.getByRole('textbox', { name: 'Tell us more (required)' }).fill('The rim is chipped')
  await uploadPhoto(page)
  await expect(page.getByRole('img', { name: 'Your photo 1 of the Ceramic Mug' })).toBeVisible()
  await continueButton(page).click()
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', 'Check and confirm your return')
  await page.getByRole('button', { name: 'Submit return' }).click()
  await expectStep(page, '/return-instruction', 'Your return is registered')
  return page
    .getByRole('region', { name: 'Follow your return' })
    .getByRole('textbox', { name: 'Link to your return’s status' })
    .inputValue()
}

test('staff sign in, find the return a shopper has just submitted, see its photo and timeline, mark it received; the shopper’s status page says so', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  await resetDemoShops()
  const statusLink = await shopperReturnsTheMug(page)

  // Another person on another browser profile: a context of its own.
  const staffContext = await browser.newContext({ viewport: page.viewportSize() })
  const staff = await staffContext.newPage()
  await signIn(staff, 'demo', 'staff@demo.example', 'not the password')
  const refused = staff.getByRole('alert')
  await expect(refused).toHaveText('The e-mail or password is not right.')
  await expect(refused).toBeFocused()
  await expectAccessible(staff)
  await staff.getByLabel('Password').fill(DEMO_STAFF_PASSWORD)
  await staff.getByRole('button', { name: 'Sign in' }).click()
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Returns')
  await expect(staff).toHaveTitle('Returns · Returns back office')

  await staff.getByLabel('Search').fill('1001')
  await staff.getByLabel('Search').press('Enter')
  await expect(staff).toHaveURL(/\/admin\?q=1001$/)
  const row = staff.getByRole('row', { name: /#1001-R1/ })
  await expect(row).toContainText('jane@example.com')
  await expect(row).toContainText('Requested')
  await expect(staff.getByRole('row')).toHaveCount(2)
  await expectAccessible(staff)
  // The list as a spreadsheet: the same search, every page.
  const download = staff.waitForEvent('download')
  await staff.getByRole('link', { name: 'Export CSV' }).click()
  const csv = await download
  expect(csv.suggestedFilename()).toMatch(/^returns-demo-\d{4}-\d{2}-\d{2}\.csv$/)
  const rows = readFileSync(await csv.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
  expect(rows).toEqual([
    'Return,Order,Shopper,Submitted,Items,Outcome,Refund,Currency,State,Review',
    // In words, as the list shows them (decision 0059); no review was asked for this return.
    expect.stringMatching(/^#1001-R1,#1001,jane@example\.com,\S+,1,Refund,10\.05,EUR,Requested,$/),
  ])

  await row.getByRole('link', { name: '#1001-R1' }).click()
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Return #1001-R1')
  await expect(staff.getByRole('heading', { level: 1 })).toBeFocused()
  await expect(staff.getByText('Arrived damaged')).toBeVisible()
  await expect(staff.getByText('The rim is chipped')).toBeVisible()
  const photo = staff.getByRole('img', { name: 'Photo 1 of Ceramic Mug' })
  await expect(photo).toBeVisible()
  await expect.poll(() => photo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
  await expect(staff.getByRole('region', { name: 'Timeline' })).toContainText('Submitted by the shopper: Ceramic Mug')
  await expectAccessible(staff)
  // A link to the return can be shared between staff: it opens the same return.
  const shared = staff.url()
  expect(shared).toMatch(/\/admin\/returns\/[0-9a-f-]{36}$/)

  await staff.getByLabel('Note (optional)').fill('Box dented, mug chipped as shown')
  await staff.getByRole('button', { name: 'Mark received' }).click()
  await expect(staff.getByRole('status').filter({ hasText: 'marked' })).toHaveText(
    '1 item marked received: Ceramic Mug.',
  )
  const timeline = staff.getByRole('region', { name: 'Timeline' })
  await expect(timeline).toContainText('Ceramic Mug: received by staff@demo.example')
  await expect(timeline).toContainText('“Box dented, mug chipped as shown”')
  await expect(staff.getByRole('button', { name: 'Mark refunded' })).toBeVisible()
  await staff.goto(shared)
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Return #1001-R1')

  // The return is in the shop's figures for the period.
  await openConsolePage(staff, 'Insights')
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Insights')
  await expect(
    staff
      .getByRole('table', { name: 'Return reasons, by units returned' })
      .getByRole('row', { name: /Arrived damaged/ }),
  ).toBeVisible()
  await expectAccessible(staff)

  // What the shopper was told: kept in the outbox (no SMTP_URL), read as the shopper sees it.
  await openConsolePage(staff, 'E-mails')
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('E-mails to shoppers')
  await expect(staff.getByText(/No mail server is set/)).toBeVisible()
  const registered = staff.getByRole('link', { name: 'Your return #1001-R1 is registered' }).first()
  await expect(registered).toBeVisible({ timeout: 15_000 })
  await expect(staff.getByRole('link', { name: 'We received your items (#1001-R1)' })).toBeVisible({ timeout: 15_000 })
  await expectAccessible(staff)
  await registered.click()
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Your return #1001-R1 is registered')
  await expect(staff.getByText('jane@example.com', { exact: true })).toBeVisible()
  const preview = staff.frameLocator('iframe[title^="The e-mail"]')
  await expect(preview.getByRole('heading', { name: 'Your return is registered' })).toBeVisible()
  await expect(preview.getByRole('link', { name: 'Follow your return' })).toHaveAttribute(
    'href',
    /^http:\/\/demo\.localhost:\d+\/status\/[0-9a-f-]{36}#/,
  )
  await expectAccessible(staff, 'iframe')
  await openConsolePage(staff, 'Webhooks')
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Webhooks')
  await expect(staff.getByLabel('Endpoint URL')).toBeVisible()
  await expectAccessible(staff)

  await page.goto(statusLink)
  await expect(page.getByRole('listitem', { name: 'Ceramic Mug' }).getByText(/^Now:/)).toHaveText('Now: Received by us')
  await staffContext.close()
})

test("a shop's staff cannot sign in to another shop's back office, and a signed-out console asks to sign in again", async ({
  page,
}) => {
  await signIn(page, 'acme', 'staff@demo.example', DEMO_STAFF_PASSWORD)
  await expect(page.getByRole('alert')).toHaveText('This account does not work for this shop.')

  // By keyboard alone: the fields in order, Enter to sign in, then the skip link first.
  await page.goto(shopUrl('demo', '/admin'))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the back office')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('E-mail')).toBeFocused()
  await page.keyboard.type('staff@demo.example')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Password')).toBeFocused()
  await page.keyboard.type(DEMO_STAFF_PASSWORD)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Returns')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.keyboard.press('Enter')
  // The session as the browser holds it, read by the server on every page so far (on PGlite it
  // remembers the read until it next writes: docs/decisions/0048-session-cache-pglite.md).
  const session = (await page.context().cookies()).filter((cookie) => cookie.name === 'rebound_staff')
  expect(session).toHaveLength(1)
  await signOutOfConsole(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the back office')
  // The session is over on the server too, even for its old cookie sent again: the console's
  // pages ask to sign in.
  await page.context().addCookies(session)
  await page.goto(shopUrl('demo', '/admin/returns/anything'))
  await expect(page.getByLabel('Password')).toBeVisible()
})
