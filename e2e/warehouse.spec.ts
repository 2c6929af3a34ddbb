import type { APIRequestContext, Page } from '@playwright/test'
import { apiUrl, expect, expectAccessible, shopUrl, test } from './fixtures'
import { DEMO_STAFF_PASSWORD } from './serverSecrets'
import { heading } from './steps'

/**
 * The warehouse at work (docs/back-office.md, Receive): parcel after parcel, by the keyboard alone
 * (a USB scanner types the code and Enter), no mouse. After each inspection the scan field has
 * the focus again, so the next parcel is scanned without a key pressed.
 */

/** A return of one item of `order`, submitted through the portal's API; answers its drop-off code and name. */
async function submitted(request: APIRequestContext, order: string, email: string, key: string) {
  const verify = await request.post(apiUrl('/portal-registration/verify'), {
    data: { order_name: order, email, shop: 'demo', portal_id: 'portal-demo' },
  })
  expect(verify.status(), await verify.text()).toBe(200)
  const verified = (await verify.json()) as { token: string; line_items: { id: string }[] }
  const submit = await request.post(apiUrl('/portal-registration/returns'), {
    headers: { authorization: `Bearer ${verified.token}`, 'idempotency-key': key },
    data: {
      items: [{ line_item_id: verified.line_items[0]!.id, quantity: 1, reason_id: 'changed_mind' }],
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
    await submitted(request, '#1005', 'solo@example.com', 'warehouse-e2e-1005'),
    await submitted(request, '#1014', 'restock@example.com', 'warehouse-e2e-1014'),
    await submitted(request, '#1015', 'size@example.com', 'warehouse-e2e-1015'),
  ]
  await signInByKeyboard(page)
  await expect(heading(page)).toHaveText('Receive a return')
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
  await expectAccessible(page)
})
