// The operator moves items on with the webServer's ADMIN_TOKEN.
import { ADMIN_HEADERS as ADMIN } from './serverSecrets'
import { apiUrl, expect, expectAccessible, shopUrl, startReturn, test } from './fixtures'
import {
  chooseExchange,
  chooseItems,
  chooseRefundMethod,
  declineUpsell,
  expectStep,
  giveReason,
  MUG,
  openStart,
  TEE,
} from './steps'

/**
 * Return status and refund timing (issue 8): the demo shop says when money arrives for each
 * method; a submitted return has a status page, reached from the instructions and from a link
 * the shopper keeps, which opens in a browser without the session.
 */
test('the confirm screen says when the money arrives; the status page opens from the instructions and from its kept link in a fresh browser', async ({
  page,
  browser,
  request,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee' }, { title: 'Ceramic Mug' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  await chooseExchange(page, TEE, 'Classic Tee', 'Size L')
  await giveReason(page, MUG, 'Ceramic Mug', 'Changed my mind')
  await declineUpsell(page)
  await expect(
    page.getByRole('radio', { name: /^Store credit.*Arrives at once, when you submit your return/ }),
  ).toBeVisible()
  await chooseRefundMethod(page, 'Original payment method')

  await expectStep(page, '/confirm', 'Check and confirm your return')
  await expect(page.getByText('Arrives 5–10 business days after we receive your items')).toBeVisible()
  await page.getByRole('button', { name: 'Submit return' }).click()

  await expectStep(page, '/return-instruction', 'Your return is registered')
  await expect(
    page.getByText(
      /We refund €10\.05 to your original payment method, 5–10 business days after we receive your items\./,
    ),
  ).toBeVisible()
  const follow = page.getByRole('region', { name: 'Follow your return' })
  const kept = follow.getByRole('textbox', { name: 'Link to your return’s status' })
  await expect(kept).toHaveValue(/^http:\/\/demo\.localhost:\d+\/status\/[0-9a-f-]{36}#[A-Za-z0-9_-]{43}$/)
  // The whole link shows, at either width: nothing of it scrolled out of the field.
  expect(
    await kept.evaluate((field) => field.scrollWidth <= field.clientWidth && field.scrollHeight <= field.clientHeight),
  ).toBe(true)
  await follow.getByRole('button', { name: 'Copy link' }).click()
  await expect(follow.getByText('Link copied')).toBeVisible()
  const link = await page.evaluate(() => navigator.clipboard.readText())
  expect(link).toBe(await kept.inputValue())

  await follow.getByRole('link', { name: 'See your return’s status' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Return #1001-R1')
  const returnId = new URL(page.url()).pathname.split('/')[2]!
  const tee = page.getByRole('listitem', { name: 'Classic Tee' })
  await expect(tee.getByText('Exchange for L')).toBeVisible()
  await expect(tee.getByText(/^Now:/)).toHaveText('Now: Return requested')
  await expect(tee.getByRole('list', { name: 'Progress of Classic Tee' }).getByRole('listitem')).toHaveText([
    /^Return requested \(done\)|^Return requested \(current step\)/,
    /On its way to us \(not yet\)/,
    /Received by us \(not yet\)/,
    /New item sent \(not yet\)/,
  ])
  await expect(page.getByRole('region', { name: 'Your refund' })).toContainText(
    '€10.05 to your original payment method',
  )
  await expect(page.getByRole('region', { name: 'Your refund' })).toContainText(
    'Arrives 5–10 business days after we receive your items',
  )
  await expect(page.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
  await expect(page.getByRole('img', { name: /^QR code for drop-off: RB-/ })).toBeVisible()
  await expectAccessible(page)

  // Another browser, no session of the shopper's: the kept link shows the same return.
  const fresh = await browser.newContext({ viewport: page.viewportSize() ?? undefined })
  const shopper = await fresh.newPage()
  await shopper.goto(link)
  await expect(shopper.getByRole('heading', { level: 1 })).toHaveText('Return #1001-R1')
  await expect(shopper.getByRole('listitem', { name: 'Ceramic Mug' }).getByText(/^Now:/)).toHaveText(
    'Now: Return requested',
  )
  await expect(shopper.getByRole('region', { name: 'Your refund' })).toContainText(
    '€10.05 to your original payment method',
  )
  // No verified order in this browser: the link alone opened the page.
  expect(await shopper.evaluate(() => Object.values(sessionStorage).join(''))).not.toContain('order_id')

  // The parcel is scanned, then arrives: the page follows, the label goes, the dates come.
  expect(
    (
      await request.post(apiUrl(`/admin/returns/${returnId}/status`), { headers: ADMIN, data: { state: 'in_transit' } })
    ).status(),
  ).toBe(200)
  await shopper.reload()
  await expect(shopper.getByRole('listitem', { name: 'Ceramic Mug' }).getByText(/^Now:/)).toHaveText(
    'Now: On its way to us',
  )
  await expect(shopper.locator('[aria-current="step"]').first()).toContainText('On its way to us')
  // Everything sent back is on its way: the label is gone, and the page says why.
  await expect(shopper.getByRole('region', { name: 'Your label and drop-off code' })).toHaveCount(0)
  await expect(shopper.getByText('Your parcel is on its way to us, so you no longer need the label.')).toBeVisible()
  await expectAccessible(shopper)
  expect(
    (
      await request.post(apiUrl(`/admin/returns/${returnId}/status`), { headers: ADMIN, data: { state: 'received' } })
    ).status(),
  ).toBe(200)
  await shopper.reload()
  await expect(shopper.getByRole('listitem', { name: 'Ceramic Mug' }).getByText(/^Now:/)).toHaveText(
    'Now: Received by us',
  )
  await expect(shopper.getByRole('region', { name: 'Your refund' })).toContainText(
    /Expected between \w+ \d+, \d{4} and \w+ \d+, \d{4}/,
  )
  await expect(shopper.getByRole('region', { name: 'Your label and drop-off code' })).toHaveCount(0)
  await expectAccessible(shopper)
  await fresh.close()
})

test('a forged or cut status link says it is not valid, and nothing else', async ({ page, resetDemoShops }) => {
  await resetDemoShops()
  await page.goto(
    shopUrl('demo', '/status/00000000-0000-4000-8000-000000000000#AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
  )
  await expect(page.getByRole('alert')).toHaveText(
    'This link is not valid. Check that you copied all of it, or ask the shop for a new one.',
  )
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your return')
  await expectAccessible(page)
  await page.goto(shopUrl('demo', '/status/00000000-0000-4000-8000-000000000000'))
  await expect(page.getByRole('alert')).toHaveText(/This link is not valid/)
})

test('the status page speaks the language of the link', async ({ page, resetDemoShops, request }) => {
  await resetDemoShops()
  // The demo's tracked return (#1007, in transit) has no link known here: make a return and ask its instructions.
  const verify = await request.post(apiUrl('/portal-registration/verify'), {
    data: { order_name: '#1005', email: 'solo@example.com', shop: 'demo', portal_id: 'portal-demo' },
  })
  const order = (await verify.json()) as { token: string; line_items: { id: string }[] }
  const submit = await request.post(apiUrl('/portal-registration/returns'), {
    headers: { authorization: `Bearer ${order.token}`, 'idempotency-key': 'status-e2e-de-0001' },
    data: {
      items: [{ line_item_id: order.line_items[0]!.id, quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'store_credit',
    },
  })
  const made = (await submit.json()) as { id: string }
  const instructions = (await (
    await request.get(apiUrl(`/portal-registration/returns/${made.id}/instructions`), {
      headers: { authorization: `Bearer ${order.token}` },
    })
  ).json()) as { status_token: string }
  await page.goto(shopUrl('demo', `/status/${made.id}?lang=de#${instructions.status_token}`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rücksendung #1005-R1')
  await expect(page.getByRole('region', { name: 'Ihre Erstattung' })).toContainText('als Guthaben (Geschenkkarte)')
  // Store credit issued at submit arrives as a code to spend, in the link's language (decision 0064).
  await expect(page.getByRole('region', { name: 'Ihre Erstattung' })).toContainText(
    /Ihr Guthaben-Code\s*GC-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\s*Im Wert von 12,16\s€/,
  )
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expectAccessible(page)
})
