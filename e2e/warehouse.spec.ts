import type { Page } from '@playwright/test'
import { expect, expectAccessible, shopUrl, test } from './fixtures'
import { DEMO_STAFF_PASSWORD } from './serverSecrets'
import { heading, scanParcelsByKeyboard, submittedByApi } from './steps'

/**
 * The warehouse at work (docs/back-office.md, Receive): parcel after parcel, by the keyboard alone
 * (a USB scanner types the code and Enter), no mouse. After each inspection the scan field has
 * the focus again, so the next parcel is scanned without a key pressed.
 */

/** Signs in by the keyboard: the fields filled, Enter. */
async function signInByKeyboard(page: Page) {
  await page.goto(shopUrl('demo', '/admin/receive'))
  await expect(heading(page)).toHaveText('Sign in to the back office')
  await page.getByLabel('E-mail').fill('staff@demo.example')
  await page.getByLabel('Password').fill(DEMO_STAFF_PASSWORD)
  await page.getByLabel('Password').press('Enter')
}

test('the warehouse scans three parcels in a row by the keyboard alone: each as new, restocked and refunded', async ({
  page,
  request,
  resetDemoShops,
}) => {
  await resetDemoShops()
  const parcels = [
    await submittedByApi(request, '#1005', 'solo@example.com', 'warehouse-e2e-1005'),
    await submittedByApi(request, '#1014', 'restock@example.com', 'warehouse-e2e-1014'),
    await submittedByApi(request, '#1015', 'size@example.com', 'warehouse-e2e-1015'),
  ]
  await signInByKeyboard(page)
  await expect(heading(page)).toHaveText('Receive a return')
  await scanParcelsByKeyboard(page, parcels)
  await expectAccessible(page)
})
