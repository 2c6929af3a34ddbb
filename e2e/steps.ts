import type { APIRequestContext, Browser, Page, Request, Response } from '@playwright/test'
import { join } from 'node:path'
import type { Money } from '../contract/api'
import { formatMoney } from '../src/components/format'
import { apiUrl, expect, expectAccessible, shopUrl, startReturn } from './fixtures'
import { DEMO_STAFF_PASSWORD } from './serverSecrets'

/**
 * The shopper's steps of docs/rules.md §9, each checking it is where the rules say, shared by the
 * journeys and the fault specs.
 */

export const TEE = 'li-1001-001'
export const MUG = 'li-1001-002'

export const heading = (page: Page) => page.getByRole('heading', { level: 1 })
export const continueButton = (page: Page) => page.getByRole('button', { name: 'Continue', exact: true })
export const money = (value: Money) => formatMoney(value, 'en')

export const isVerify = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/portal-registration/verify'
export const isQuote = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/portal-registration/returns/quote'
export const isSubmit = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/portal-registration/returns'
export const isCatalogue = (request: Request) =>
  request.method() === 'GET' && new URL(request.url()).pathname === '/portal-registration/catalogue'
export const isPhotoUpload = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/portal-registration/photos'
export const isInstructions = (response: Response) => isInstructionsRequest(response.request())
export const isInstructionsRequest = (request: Request) =>
  /\/portal-registration\/returns\/[^/]+\/instructions$/.test(new URL(request.url()).pathname)

/** Every path the tab shows, same-document navigations (pushState, replaceState) included. */
export function visitedPaths(page: Page): string[] {
  const paths: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname)
  })
  return paths
}

/** The start screen of a shop, with its form ready. */
export async function openStart(page: Page, shop = 'demo') {
  await page.goto(shopUrl(shop))
  await expect(page.getByRole('textbox', { name: 'Order number' })).toBeVisible()
}

/** The tab shows `path` (of whichever shop) with its screen's heading. */
export async function expectStep(page: Page, path: string, title: string) {
  await expect(page).toHaveURL((url) => url.pathname === path)
  await expect(heading(page)).toHaveText(title)
}

export async function chooseItems(page: Page, items: { title: string; quantity?: number }[]) {
  await expectStep(page, '/products', 'Choose the items to return')
  for (const { title, quantity = 1 } of items) {
    await page.getByRole('checkbox', { name: new RegExp(`^${title}`) }).check()
    for (let unit = 1; unit < quantity; unit++) {
      await page
        .getByRole('group', { name: `Quantity of ${title} to return` })
        .getByRole('button', { name: 'Increase quantity' })
        .click()
    }
  }
  await continueButton(page).click()
}

export async function giveReason(page: Page, lineItemId: string, title: string, reason: string) {
  await expectStep(page, `/return-item/${lineItemId}/return-reason`, `Why are you returning the ${title}?`)
  await page.getByRole('radio', { name: reason, exact: true }).check()
  await continueButton(page).click()
}

export async function chooseExchange(page: Page, lineItemId: string, title: string, option: string) {
  await expectStep(page, `/return-item/${lineItemId}/exchange`, `Would you like to exchange the ${title}?`)
  await page.getByRole('radio', { name: option }).check()
  await continueButton(page).click()
}

export async function declineUpsell(page: Page) {
  await expectStep(page, '/upsell-offer', 'Exchange for something new?')
  await page.getByRole('button', { name: 'No thanks, continue with my return' }).click()
}

export async function chooseRefundMethod(page: Page, method: 'Original payment method' | 'Store credit') {
  await expectStep(page, '/refund-method', 'How would you like your refund?')
  await page.getByRole('radio', { name: new RegExp(`^${method}`) }).check()
  await continueButton(page).click()
}

/** #1001 from the start screen: the tee chosen, too small, and `choice` taken on its exchange step. */
export async function teeThroughExchange(page: Page, choice: string) {
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  await chooseExchange(page, TEE, 'Classic Tee', choice)
}

/** #1001 with one tee exchanged for L: no item is left unexchanged, so the rules go straight to confirm. */
export async function teeExchangedToConfirm(page: Page) {
  await teeThroughExchange(page, 'Size L')
  await expectStep(page, '/confirm', 'Check and confirm your return')
}

/** #1001 with one tee refunded: upsell offer (declined) and the refund method, up to confirm. */
export async function teeRefundedToRefundMethod(page: Page) {
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  await chooseExchange(page, TEE, 'Classic Tee', 'Refund instead')
  await declineUpsell(page)
  await expectStep(page, '/refund-method', 'How would you like your refund?')
}

/** A row of the confirm screen's refund breakdown. */
export const breakdownValue = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')

/** A small PNG of a chipped surface: a real file through the browser's file input. */
export const PHOTO = join(__dirname, 'fixtures', 'damaged-item.png')

/**
 * Adds PHOTO as photo `index` and waits until the page shows it uploaded, not only until the
 * server answered: the page takes the photo's id a moment after the answer, and a reload before
 * that would rightly lose it.
 */
export async function uploadPhoto(page: Page, index = 1) {
  const uploaded = page.waitForResponse((response) => isPhotoUpload(response.request()))
  await page.getByLabel('Add photos').setInputFiles(PHOTO)
  expect((await uploaded).status()).toBe(201)
  await expect(page.getByRole('status', { name: `Uploading photo ${index}` })).toBeHidden()
  await expect(page.getByRole('button', { name: `Remove photo ${index}` })).toBeVisible()
}

/** Staff signed in on a browser profile of their own, at the shopper's width. */
export async function staffSignedIn(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({ viewport: page.viewportSize() })
  const staff = await context.newPage()
  await staff.goto(shopUrl('demo', '/admin'))
  await staff.getByLabel('E-mail').fill('staff@demo.example')
  await staff.getByLabel('Password').fill(DEMO_STAFF_PASSWORD)
  await staff.getByRole('button', { name: 'Sign in' }).click()
  await expect(heading(staff)).toHaveText('Returns')
  return staff
}

/**
 * Follows a page of the console's header; where the header folds its pages behind Menu (below
 * 1024 px, a phone), opens it first (docs/back-office.md: the header).
 */
export async function openConsolePage(staff: Page, name: string | RegExp) {
  const menu = staff.getByRole('button', { name: /^Menu/ })
  if (await menu.isVisible()) await menu.click()
  await staff
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', typeof name === 'string' ? { name, exact: true } : { name })
    .click()
}

/** Signs out from the console's header, through Menu where the header folds it. */
export async function signOutOfConsole(staff: Page) {
  const menu = staff.getByRole('button', { name: /^Menu/ })
  if (await menu.isVisible()) await menu.click()
  await staff.getByRole('button', { name: 'Sign out' }).click()
}

/** A return of one item of `order`, submitted through the portal's API; answers its drop-off code and name. */
export async function submittedByApi(
  request: APIRequestContext,
  order: string,
  email: string,
  key: string,
  /** how many units of the order's first line are returned */
  quantity = 1,
) {
  const verify = await request.post(apiUrl('/portal-registration/verify'), {
    data: { order_name: order, email, shop: 'demo', portal_id: 'portal-demo' },
  })
  expect(verify.status(), await verify.text()).toBe(200)
  const verified = (await verify.json()) as { token: string; line_items: { id: string }[] }
  const submit = await request.post(apiUrl('/portal-registration/returns'), {
    headers: { authorization: `Bearer ${verified.token}`, 'idempotency-key': key },
    data: {
      items: [{ line_item_id: verified.line_items[0]!.id, quantity, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    },
  })
  expect(submit.status(), await submit.text()).toBe(201)
  const made = (await submit.json()) as { id: string }
  const instructions = await request.get(apiUrl(`/portal-registration/returns/${made.id}/instructions`), {
    headers: { authorization: `Bearer ${verified.token}` },
  })
  expect(instructions.status(), await instructions.text()).toBe(200)
  const { qr_code_value: code } = (await instructions.json()) as { qr_code_value: string }
  return { code, name: `${order}-R1` }
}

/**
 * The warehouse at the scan field (docs/back-office.md, Receive): each parcel scanned (a USB
 * scanner types the code and Enter), inspected with the defaults (As new, Restock) and confirmed,
 * by the keyboard alone; after each the scan field has the focus again, with no key pressed.
 */
export async function scanParcelsByKeyboard(page: Page, parcels: { code: string; name: string }[]) {
  const scan = page.getByRole('textbox', { name: 'Drop-off code or return number' })
  await expect(scan).toBeFocused()
  for (const [index, parcel] of parcels.entries()) {
    // The scanner types into whatever has the focus: the scan field, with no key pressed before.
    await page.keyboard.type(parcel.code)
    await page.keyboard.press('Enter')
    await expect(heading(page)).toHaveText(`Receive ${parcel.name}`)
    const asNew = page.getByRole('group', { name: 'Condition' }).getByRole('radio', { name: 'As new' })
    await expect(asNew).toBeChecked()
    await expect(asNew).toBeFocused()
    await expect(page.getByRole('group', { name: 'Disposition' }).getByRole('radio', { name: 'Restock' })).toBeChecked()
    if (index === 0) await expectAccessible(page)
    // Enter in the form reviews it; the preview takes the focus, Confirm is the next stop.
    await page.keyboard.press('Enter')
    const preview = page.getByRole('region', { name: 'Check before you confirm' })
    await expect(preview.getByRole('heading', { name: 'Check before you confirm' })).toBeFocused()
    await expect(preview.getByText('Nothing is deducted.')).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(preview.getByRole('button', { name: 'Confirm' })).toBeFocused()
    await page.keyboard.press('Enter')

    await expect(heading(page)).toHaveText('Receive a return')
    await expect(scan).toBeFocused()
    await expect(scan).toHaveValue('')
    await expect(page.getByRole('status').filter({ hasText: 'Inspection recorded' })).toContainText(
      `1 item of ${parcel.name} inspected, and the refund issued.`,
    )
  }
}
