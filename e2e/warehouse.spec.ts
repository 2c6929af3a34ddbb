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

test('a line of two units is inspected unit by unit: one as new and restocked, one damaged and disposed of', async ({
  page,
  request,
  resetDemoShops,
}) => {
  await resetDemoShops()
  // #1001's first line is two Classic Tees in M, both sent back.
  const parcel = await submittedByApi(request, '#1001', 'jane@example.com', 'warehouse-e2e-units', 2)
  await signInByKeyboard(page)
  await expect(heading(page)).toHaveText('Receive a return')
  await page.getByRole('textbox', { name: 'Drop-off code or return number' }).fill(parcel.code)
  await page.keyboard.press('Enter')
  await expect(heading(page)).toHaveText(`Receive ${parcel.name}`)
  const unit = (n: number) => page.getByRole('group', { name: `Unit ${n} of 2 (Classic Tee · M)` })
  for (const n of [1, 2]) {
    await expect(unit(n).getByRole('radio', { name: 'As new' })).toBeChecked()
    await expect(unit(n).getByRole('radio', { name: 'Restock' })).toBeChecked()
  }
  await unit(2).getByRole('radio', { name: 'Damaged' }).check()
  await unit(2).getByRole('radio', { name: 'Dispose' }).check()
  await expect(unit(1).getByRole('radio', { name: 'As new' })).toBeChecked()
  await page.getByRole('button', { name: 'Review' }).click()
  const preview = page.getByRole('region', { name: 'Check before you confirm' })
  // The shop's policy takes 50% for a damaged item: of the one damaged unit, not of the line.
  const deductions = preview.getByRole('table', { name: 'Deductions' })
  await expect(deductions.getByRole('row')).toHaveCount(2)
  await expect(deductions.getByRole('row').nth(1)).toContainText(/Classic Tee.*Damaged.*50%/)
  await expect(preview.getByRole('list', { name: 'Restocked' })).toContainText('Classic Tee')
  await expectAccessible(page)
  await preview.getByRole('button', { name: 'Confirm' }).click()
  await expect(heading(page)).toHaveText('Receive a return')
  await expect(page.getByRole('status').filter({ hasText: 'Inspection recorded' })).toContainText(parcel.name)
})
