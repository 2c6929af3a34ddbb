import { chunkGroupRoute, ownChunkRoute } from './chunks'
import type { Request, Response } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import type { ReturnInstructions, ReturnOrder } from '../contract/api'
import { apiUrl, expect, expectAccessible, shopUrl, startReturn, test, verifyOrder } from './fixtures'
import {
  breakdownValue,
  chooseExchange,
  chooseItems,
  chooseRefundMethod,
  continueButton,
  declineUpsell,
  expectStep,
  giveReason,
  heading,
  isInstructions,
  isQuote,
  isSubmit,
  money,
  MUG,
  openStart,
  TEE,
  teeExchangedToConfirm,
  teeThroughExchange,
  teeRefundedToRefundMethod,
  uploadPhoto,
  visitedPaths,
} from './steps'

/**
 * The shopper journeys of docs/rules.md §9 against the real product: the built portal served by the
 * Portal API with the demo data (docs/rules.md §14). Nothing of our API is mocked; page.route only
 * breaks a call or a chunk once, to see the portal recover.
 */

const eur = (amount: string) => ({ amount, currency_code: 'EUR' })

/**
 * An answered quote of the flow's choices as they stand, no refund method chosen yet: with no new
 * item (`null`), or with one (`'any'`). The offer's and the exploration's credit is another quote
 * (as store credit).
 */
const isChoicesQuote = (response: Response, newItem: null | 'any') => {
  if (!isQuote(response.request()) || !response.ok()) return false
  const body = response.request().postDataJSON() as { upsell_variant_id: string | null; refund_method: string | null }
  return body.refund_method === null && (newItem === null ? body.upsell_variant_id === null : !!body.upsell_variant_id)
}

test.describe('journeys of docs/rules.md §9', () => {
  test('#1001: one tee exchanged for L, the mug refunded as store credit, label and QR at the end', async ({
    page,
    request,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    const visited = visitedPaths(page)
    await openStart(page)
    await expectAccessible(page)
    await startReturn(page, '#1001', 'jane@example.com')

    // /products: the final-sale shirt greyed with its reason; Continue once a unit is chosen.
    await expectStep(page, '/products', 'Choose the items to return')
    await expect(page.getByText('Order #1001')).toBeVisible()
    // Each item's image, shown (and loaded) once the step is drawn, in its box of the row.
    const teeImage = page.getByRole('listitem').filter({ hasText: 'Classic Tee' }).locator('img')
    await expect(teeImage).toBeVisible()
    await expect(teeImage).toHaveJSProperty('complete', true)
    expect(await teeImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
    expect(await teeImage.boundingBox()).toMatchObject({ width: 56, height: 56 })
    await expect(page.getByRole('checkbox', { name: /^Linen Shirt/ })).toBeDisabled()
    await expect(page.getByText('Final sale', { exact: true })).toBeVisible()
    await expect(continueButton(page)).toBeDisabled()
    await page.getByRole('checkbox', { name: /^Classic Tee/ }).check()
    await expect(page.getByRole('group', { name: 'Quantity of Classic Tee to return' })).toContainText('1 of 2')
    await page.getByRole('checkbox', { name: /^Ceramic Mug/ }).check()
    await expect(page.getByText('2 items selected')).toBeVisible()
    await expectAccessible(page)
    await continueButton(page).click()

    // The tee: reason, then its exchange step (it can be exchanged).
    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    await expect(page.getByText('Item 1 of 2')).toBeVisible()
    await page.getByRole('radio', { name: 'Too small', exact: true }).check()
    await expectAccessible(page)
    await continueButton(page).click()

    await expectStep(page, `/return-item/${TEE}/exchange`, 'Would you like to exchange the Classic Tee?')
    await expect(page.getByRole('radio', { name: /Size XL/ })).toBeDisabled()
    await expect(page.getByText('Out of stock')).toBeVisible()
    await expect(page.getByRole('radio', { name: /Size S/ })).toBeEnabled()
    await expect(page.getByRole('radio', { name: /Size M/ })).toHaveCount(0)
    await page.getByRole('radio', { name: /Size L$/ }).check()
    await expectAccessible(page)
    await continueButton(page).click()

    // The mug: reason only; it is the last item and upsell is enabled, so the offer follows.
    await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')
    await expect(page.getByText('Item 2 of 2')).toBeVisible()
    await page.getByRole('radio', { name: 'Changed my mind', exact: true }).check()
    await expectAccessible(page)
    // The quote of these choices, which decides the step after the offer: asked as the offer
    // arrives, declining changing none of them (docs/decisions/0098-server-bound-steps.md).
    const refundQuote = page.waitForResponse((response) => isChoicesQuote(response, null))
    await continueButton(page).click()

    await expectStep(page, '/upsell-offer', 'Exchange for something new?')
    await expect(page.getByText('+10%', { exact: true })).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'No thanks, continue with my return' }).click()

    // The refund method: both amounts with currency formatting, the bonus as a percent.
    await expectStep(page, '/refund-method', 'How would you like your refund?')
    const quote = (await (await refundQuote).json()) as ReturnOrder
    const original = page.getByRole('radio', { name: /^Original payment method/ })
    const credit = page.getByRole('radio', { name: /^Store credit/ })
    await expect(original).toHaveAccessibleName(
      new RegExp(money(quote.refund_value.presentment_money).replace('.', '\\.')),
    )
    await expect(credit).toHaveAccessibleName(
      new RegExp(`\\+10% bonus.*${money(quote.store_credit_value!.presentment_money).replace('.', '\\.')}`),
    )
    expect(Number(quote.store_credit_value!.presentment_money.amount)).toBeGreaterThan(
      Number(quote.refund_value.presentment_money.amount),
    )
    await credit.check()
    await expectAccessible(page)
    const confirmQuote = page.waitForResponse((response) => isQuote(response.request()) && response.ok())
    await continueButton(page).click()

    // Confirm: both items with reason and outcome, and the server's breakdown.
    await expectStep(page, '/confirm', 'Check and confirm your return')
    const breakdown = ((await (await confirmQuote).json()) as ReturnOrder).breakdown
    const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
    await expect(items).toHaveCount(2)
    await expect(items.nth(0)).toContainText('Classic Tee')
    await expect(items.nth(0)).toContainText('Quantity 1')
    await expect(items.nth(0)).toContainText('Reason: Too small')
    await expect(items.nth(0)).toContainText('Exchange for L')
    await expect(items.nth(1)).toContainText('Ceramic Mug')
    await expect(items.nth(1)).toContainText('Reason: Changed my mind')
    await expect(items.nth(1)).toContainText('Refund')
    await expect(page.getByText('Refund to: Store credit (gift card)')).toBeVisible()
    await expect(breakdownValue(page, String.raw`Items \(excl\. tax\)`)).toHaveText(
      money(breakdown.items_subtotal.presentment_money),
    )
    await expect(breakdownValue(page, 'Tax')).toHaveText(money(breakdown.tax.presentment_money))
    await expect(breakdownValue(page, 'Return fee')).toHaveText(`−${money(breakdown.return_fee.presentment_money)}`)
    await expect(breakdownValue(page, 'Store credit bonus')).toHaveText(`+${money(breakdown.bonus.presentment_money)}`)
    await expect(breakdownValue(page, 'Total')).toHaveText(money(breakdown.total.presentment_money))
    await expectAccessible(page)
    const instructionsAnswer = page.waitForResponse((response) => isInstructions(response) && response.ok())
    await page.getByRole('button', { name: 'Submit return' }).click()

    // Instructions: number, steps, address, QR image, a label that is a PDF.
    await expectStep(page, '/return-instruction', 'Your return is registered')
    const instructions = (await (await instructionsAnswer).json()) as ReturnInstructions
    expect(instructions.return_name).toBe('#1001-R1')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
    await expect(page.getByRole('list', { name: 'What to do next' }).getByRole('listitem')).toHaveText(
      instructions.steps,
    )
    const address = page.locator('address')
    for (const line of ['Demo Store Returns', 'Hafenstraße 12', '20457 Hamburg', 'Germany'])
      await expect(address).toContainText(line)
    const qr = page.getByRole('img', { name: /^QR code for drop-off/ })
    await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml/)
    await expect
      .poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true)
    await expect(page.getByText(`Code: ${instructions.qr_code_value}`)).toBeVisible()

    const label = page.getByRole('link', { name: 'Download shipping label (PDF)' })
    const href = await label.evaluate((link: HTMLAnchorElement) => link.href)
    // Node does not resolve *.localhost: the same path on the API's own address.
    const { pathname, search } = new URL(href)
    const pdf = await request.get(apiUrl(pathname + search))
    expect(pdf.status()).toBe(200)
    expect(pdf.headers()['content-type']).toContain('application/pdf')
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    // And as the shopper gets it: a click downloads the same PDF.
    const downloading = page.waitForEvent('download')
    await label.click()
    const download = await downloading
    expect((await readFile(await download.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    await expect(page.getByRole('link', { name: 'Start another return' })).toBeVisible()
    await expectAccessible(page)

    expect(visited).toContain(`/return-item/${TEE}/exchange`)
    expect(visited).not.toContain(`/return-item/${MUG}/exchange`)
    expect(visited).not.toContain('/upsell-explore')
  })

  test('#1001: the tee refunded and a new item taken, the rest refunded by the method chosen (rule 3)', async ({
    page,
    request,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await teeThroughExchange(page, 'Refund instead')
    await expectStep(page, '/upsell-offer', 'Exchange for something new?')
    // The offer says the credit in money, and that the return fee is taken from it.
    await expect(
      page.getByText(
        `You have ${money(eur('23.16'))} to spend: ${money(eur('25.00'))} for your items, less the ${money(eur('3.95'))} return fee, plus a ${money(eur('2.11'))} bonus.`,
      ),
    ).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Yes, show me new items' }).click()

    // The credit to spend: the tee's 21.05 refund as store credit, 23.16.
    await expectStep(page, '/upsell-explore', 'Find something new')
    await expect(page.getByText(/^Your credit to spend/)).toContainText(money(eur('23.16')))
    // What the credit buys comes first; the €25 tees and dearer items wait behind a disclosure.
    await expect(page.getByRole('group', { name: 'Ceramic Mug' })).toBeVisible()
    await expect(page.getByRole('group', { name: 'Classic Tee' })).toBeHidden()
    await expect(page.getByText(/^Show \d+ more items: above your credit or sold out$/)).toBeVisible()
    await page.getByRole('group', { name: 'Dotted Notebook' }).getByRole('radio').check()
    // The pick, its price and the button stay in view wherever the shopper has scrolled.
    await page.evaluate(() => window.scrollTo(0, 0))
    await expect(page.getByText('Your pick:')).toContainText('Dotted Notebook')
    await expect(page.locator('.explore__pick')).toContainText(money(eur('12.00')))
    await expect(page.getByRole('button', { name: 'Choose this item' })).toBeInViewport()
    // Like every other step, the pick survives a reload. Its quote, which decides the step after
    // it, is asked as it is known (docs/decisions/0098-server-bound-steps.md).
    const refundQuote = page.waitForResponse((response) => isChoicesQuote(response, 'any'))
    await page.reload()
    await expect(page.getByRole('group', { name: 'Dotted Notebook' }).getByRole('radio')).toBeChecked()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Choose this item' }).click()

    // The tee's exchange step ended in no exchange and the notebook leaves something to refund,
    // so the refund-method step follows, with what is left once the notebook (12.00) is paid.
    await expectStep(page, '/refund-method', 'How would you like your refund?')
    const quote = (await (await refundQuote).json()) as ReturnOrder
    expect([quote.refund_value.presentment_money.amount, quote.store_credit_value!.presentment_money.amount]).toEqual([
      '10.15',
      '11.16',
    ])
    await expect(page.getByRole('radio', { name: /^Original payment method/ })).toHaveAccessibleName(
      new RegExp(money(eur('10.15')).replace('.', '\\.')),
    )
    await expect(page.getByRole('radio', { name: /^Store credit/ })).toHaveAccessibleName(
      new RegExp(money(eur('11.16')).replace('.', '\\.')),
    )
    await chooseRefundMethod(page, 'Original payment method')

    await expectStep(page, '/confirm', 'Check and confirm your return')
    await expect(page.getByText('Refund to: Original payment method')).toBeVisible()
    // The new item as it was offered: its image, name and price.
    const newItem = page.locator('.confirm__upsell')
    await expect(newItem).toContainText('Dotted Notebook')
    await expect(newItem).toContainText(money(eur('12.00')))
    await expect(newItem.locator('img')).toHaveJSProperty('complete', true)
    expect(await newItem.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
    await expect(breakdownValue(page, 'New item')).toHaveText(`−${money(eur('12.00'))}`)
    await expect(breakdownValue(page, 'Total')).toHaveText(money(eur('10.15')))
    await page.getByRole('button', { name: 'Submit return' }).click()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
    // The new item does not vanish after submit: on the instructions, then on the status page.
    const newItemSection = page.getByRole('region', { name: 'Your new item' })
    await expect(newItemSection).toContainText('Dotted Notebook')
    await expect(newItemSection).toContainText('It ships once your return arrives.')
    await expect(page.getByRole('list', { name: 'Send back' })).toContainText('Classic Tee')
    await expectAccessible(page)
    await page.getByRole('link', { name: 'See your return’s status' }).click()
    const onStatus = page.getByRole('region', { name: 'Your new item' })
    await expect(onStatus).toContainText('Dotted Notebook')
    await expect(onStatus).toContainText('To be sent once your return is done')
    await expectAccessible(page)
    const order = await verifyOrder(request, '#1001', 'jane@example.com')
    expect(order.line_items.find((line) => line.id === TEE)!.returnable_quantity).toBe(1)
  })

  test('#1005: its only exchange option is its own variant, so there is no exchange step', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    const visited = visitedPaths(page)
    await openStart(page)
    await startReturn(page, '#1005', 'solo@example.com')
    await chooseItems(page, [{ title: 'Canvas Tote' }])
    await giveReason(page, 'li-1005-001', 'Canvas Tote', 'Changed my mind')
    // Not exchangeable and the last item, with upsell enabled: the offer, not an exchange step.
    await declineUpsell(page)
    await chooseRefundMethod(page, 'Original payment method')
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await expect(page.getByRole('list', { name: 'Your items' }).getByRole('listitem')).toContainText(['Canvas Tote'])
    await page.getByRole('button', { name: 'Submit return' }).click()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1005-R1')).toBeVisible()
    expect(visited.filter((path) => path.endsWith('/exchange'))).toEqual([])
  })

  test('AC1001 on acme: no upsell and no refund-method step (no multiplier, upsell off)', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    const visited = visitedPaths(page)
    await openStart(page, 'acme')
    await startReturn(page, '1001', 'ada@example.com')
    await expect(page).toHaveURL(shopUrl('acme', '/products'))
    await expect(page.getByText('Order AC1001')).toBeVisible()
    await page.getByRole('checkbox', { name: /^ACME Rocket Skates/ }).check()
    await page.getByRole('checkbox', { name: /^Anvil T-shirt/ }).check()
    await continueButton(page).click()

    await expect(page).toHaveURL(shopUrl('acme', '/return-item/li-ac1001-001/return-reason'))
    await page.getByRole('radio', { name: 'Too small', exact: true }).check()
    await continueButton(page).click()
    await expect(page).toHaveURL(shopUrl('acme', '/return-item/li-ac1001-001/exchange'))
    await page.getByRole('radio', { name: /Size 10/ }).check()
    await continueButton(page).click()
    await expect(page).toHaveURL(shopUrl('acme', '/return-item/li-ac1001-002/return-reason'))
    await page.getByRole('radio', { name: 'Not what I expected', exact: true }).check()
    await continueButton(page).click()
    await expect(page).toHaveURL(shopUrl('acme', '/return-item/li-ac1001-002/exchange'))
    await page.getByRole('radio', { name: /Refund instead/ }).check()
    await continueButton(page).click()

    // The tee is refunded, yet without a multiplier there is no method to choose: straight to confirm.
    await expect(page).toHaveURL(shopUrl('acme', '/confirm'))
    await expect(heading(page)).toHaveText('Check and confirm your return')
    await expect(page.getByText('Refund to: Original payment method')).toBeVisible()
    await expect(breakdownValue(page, 'Return fee')).toHaveText('Free')
    await expect(breakdownValue(page, 'Total')).toHaveText(/^\$\d+\.\d\d$/)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Submit return' }).click()
    await expect(page).toHaveURL(shopUrl('acme', '/return-instruction'))
    await expect(page.getByText('Return number AC1001-R1')).toBeVisible()
    await expect(page.locator('address')).toContainText('1 Road Runner Way')

    expect(visited.filter((path) => /upsell|refund-method/.test(path))).toEqual([])
  })

  test('a reload on every step restores the screen and the choices; the start screen and a new tab start clean', async ({
    page,
    browser,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await openStart(page)
    await startReturn(page, '#1001', 'jane@example.com')

    await expectStep(page, '/products', 'Choose the items to return')
    const tee = page.getByRole('checkbox', { name: /^Classic Tee/ })
    const mug = page.getByRole('checkbox', { name: /^Ceramic Mug/ })
    const teeQuantity = page.getByRole('group', { name: 'Quantity of Classic Tee to return' })
    await tee.check()
    await teeQuantity.getByRole('button', { name: 'Increase quantity' }).click()
    await mug.check()
    await page.reload()
    await expectStep(page, '/products', 'Choose the items to return')
    await expect(tee).toBeChecked()
    await expect(teeQuantity).toContainText('2 of 2')
    await expect(mug).toBeChecked()
    await expect(page.getByRole('checkbox', { name: /^Linen Shirt/ })).not.toBeChecked()
    await teeQuantity.getByRole('button', { name: 'Decrease quantity' }).click()
    await page.reload()
    await expect(teeQuantity).toContainText('1 of 2')
    await continueButton(page).click()

    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    await page.getByRole('radio', { name: 'Arrived damaged' }).check()
    await page.getByRole('textbox', { name: 'Tell us more (required)' }).fill('A hole in the sleeve')
    // "Arrived damaged" asks for a photo: uploaded before the reload, so the reload keeps it.
    await uploadPhoto(page)
    await page.reload()
    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    await expect(page.getByText('Returning 1 unit')).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Arrived damaged' })).toBeChecked()
    await expect(page.getByRole('textbox', { name: 'Tell us more (required)' })).toHaveValue('A hole in the sleeve')
    await continueButton(page).click()

    await expectStep(page, `/return-item/${TEE}/exchange`, 'Would you like to exchange the Classic Tee?')
    await page.getByRole('radio', { name: /Size S/ }).check()
    await page.reload()
    await expectStep(page, `/return-item/${TEE}/exchange`, 'Would you like to exchange the Classic Tee?')
    await expect(page.getByRole('radio', { name: /Size S/ })).toBeChecked()
    await continueButton(page).click()

    await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')
    await page.getByRole('radio', { name: 'Not as described', exact: true }).check()
    await page.getByRole('radio', { name: 'Colour differs from photos', exact: true }).check()
    await page.reload()
    await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')
    await expect(page.getByRole('radio', { name: 'Not as described', exact: true })).toBeChecked()
    await continueButton(page).click()

    await expectStep(page, '/upsell-offer', 'Exchange for something new?')
    await page.reload()
    await declineUpsell(page)

    await expectStep(page, '/refund-method', 'How would you like your refund?')
    await page.getByRole('radio', { name: /^Store credit/ }).check()
    await page.reload()
    await expectStep(page, '/refund-method', 'How would you like your refund?')
    await expect(page.getByRole('radio', { name: /^Store credit/ })).toBeChecked()
    await continueButton(page).click()

    await expectStep(page, '/confirm', 'Check and confirm your return')
    await page.reload()
    await expectStep(page, '/confirm', 'Check and confirm your return')
    const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
    await expect(items.nth(0)).toContainText('Quantity 1')
    await expect(items.nth(0)).toContainText('Reason: Arrived damaged')
    await expect(items.nth(0)).toContainText('A hole in the sleeve')
    await expect(items.nth(0)).toContainText('Exchange for S')
    await expect(items.nth(1)).toContainText('Reason: Not as described')
    await expect(page.getByText('Refund to: Store credit (gift card)')).toBeVisible()
    await expect(breakdownValue(page, 'Total')).toHaveText(/€/)

    // Another tab knows nothing of this session: a new browser context, and a new tab in this one.
    const otherContext = await browser.newContext({ viewport: page.viewportSize() })
    const stranger = await otherContext.newPage()
    await stranger.goto(shopUrl('demo', '/confirm'))
    await expect(stranger).toHaveURL(shopUrl('demo'))
    await otherContext.close()
    const sibling = await page.context().newPage()
    await sibling.goto(shopUrl('demo', '/confirm'))
    await expect(sibling).toHaveURL(shopUrl('demo'))
    await sibling.close()

    await page.getByRole('button', { name: 'Submit return' }).click()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
    await page.reload()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()

    // Opening the start screen clears the session: the steps are gone, a new verify starts empty.
    await page.getByRole('link', { name: 'Start another return' }).click()
    await expect(page).toHaveURL(shopUrl('demo'))
    await expect(page.getByRole('textbox', { name: 'Order number' })).toBeVisible()
    await page.goto(shopUrl('demo', '/confirm'))
    await expect(page).toHaveURL(shopUrl('demo'))
    await startReturn(page, '#1001', 'jane@example.com')
    await expectStep(page, '/products', 'Choose the items to return')
    await expect(tee).not.toBeChecked()
    await expect(page.getByRole('group', { name: 'Quantity of Classic Tee to return' })).toHaveCount(0)
    await expect(mug).not.toBeChecked()
    await expect(mug).toBeDisabled() // returned above
    await expect(continueButton(page)).toBeDisabled()
  })

  test('browser back and forward move between steps and keep the choices', async ({ page, resetDemoShops }) => {
    await resetDemoShops()
    await openStart(page)
    await startReturn(page, '#1001', 'jane@example.com')
    await chooseItems(page, [{ title: 'Classic Tee' }, { title: 'Ceramic Mug' }])
    await giveReason(page, TEE, 'Classic Tee', 'Too large')
    await chooseExchange(page, TEE, 'Classic Tee', 'Size S')
    await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')

    await page.goBack()
    await expectStep(page, `/return-item/${TEE}/exchange`, 'Would you like to exchange the Classic Tee?')
    await expect(page.getByRole('radio', { name: /Size S/ })).toBeChecked()
    await page.goBack()
    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    await expect(page.getByRole('radio', { name: 'Too large', exact: true })).toBeChecked()
    await page.goBack()
    await expectStep(page, '/products', 'Choose the items to return')
    await expect(page.getByRole('checkbox', { name: /^Classic Tee/ })).toBeChecked()
    await expect(page.getByRole('checkbox', { name: /^Ceramic Mug/ })).toBeChecked()

    await page.goForward()
    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    await expect(page.getByRole('radio', { name: 'Too large', exact: true })).toBeChecked()
    await page.goForward()
    await expectStep(page, `/return-item/${TEE}/exchange`, 'Would you like to exchange the Classic Tee?')
    await page.goForward()
    await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')

    // The screen's own Back link goes where the browser's would.
    await page.getByRole('button', { name: 'Back', exact: true }).click()
    await expectStep(page, `/return-item/${TEE}/exchange`, 'Would you like to exchange the Classic Tee?')
    await expect(heading(page)).toBeFocused()
    await continueButton(page).click()
    await giveReason(page, MUG, 'Ceramic Mug', 'Changed my mind')
    await declineUpsell(page)
    await expectStep(page, '/refund-method', 'How would you like your refund?')
    await page.goBack()
    await expectStep(page, '/upsell-offer', 'Exchange for something new?')
    await page.goForward()
    await chooseRefundMethod(page, 'Original payment method')
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await page.getByRole('button', { name: 'Submit return' }).click()
    await expectStep(page, '/return-instruction', 'Your return is registered')

    // Back from the instructions cannot reach the submit button again: the return is made.
    await page.goBack()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByRole('button', { name: 'Submit return' })).toHaveCount(0)
  })

  test('a direct link to a later step without a session lands on the start screen', async ({ page }) => {
    for (const path of [
      '/products',
      `/return-item/${TEE}/return-reason`,
      `/return-item/${TEE}/exchange`,
      '/upsell-offer',
      '/upsell-explore',
      '/refund-method',
      '/confirm',
      '/return-instruction',
    ]) {
      await page.goto(shopUrl('demo', path))
      await expect(page, `${path} without a session`).toHaveURL(shopUrl('demo'))
      await expect(page.getByRole('textbox', { name: 'Order number' })).toBeVisible()
    }
  })

  test('a double click on submit makes one return', async ({ page, request, resetDemoShops }) => {
    await resetDemoShops()
    const submits: Request[] = []
    page.on('request', (sent) => {
      if (isSubmit(sent)) submits.push(sent)
    })
    await teeExchangedToConfirm(page)
    await expect(page.getByText('Your exchange costs nothing: there is no fee and nothing to pay.')).toBeVisible()
    await page.getByRole('button', { name: 'Submit return' }).dblclick()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
    // Whatever reached the server, it was one submit: one key.
    expect(new Set(submits.map((sent) => sent.headers()['idempotency-key'])).size).toBe(1)

    const order = await verifyOrder(request, '#1001', 'jane@example.com')
    const tee = order.line_items.find((line) => line.id === TEE)!
    expect(tee.returnable_quantity).toBe(1)
  })

  test('two quick presses of submit in one task make one return', async ({ page, request, resetDemoShops }) => {
    await resetDemoShops()
    await teeExchangedToConfirm(page)
    await expect(page.getByText('Your exchange costs nothing: there is no fee and nothing to pay.')).toBeVisible()
    // Both clicks before React can re-render and disable the button.
    await page.getByRole('button', { name: 'Submit return' }).evaluate((button: HTMLButtonElement) => {
      button.click()
      button.click()
    })
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
    const order = await verifyOrder(request, '#1001', 'jane@example.com')
    expect(order.line_items.find((line) => line.id === TEE)!.returnable_quantity).toBe(1)
  })
})

test.describe('faults', () => {
  test('the quote fails once on confirm: a clear message, a retry, the choices kept', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await teeRefundedToRefundMethod(page)
    let failed = 0
    await page.route('**/portal-registration/returns/quote', async (route) => {
      if (failed++ === 0) return route.fulfill({ status: 500, json: { error: 'internal', message: 'Boom' } })
      return route.fallback()
    })
    await chooseRefundMethod(page, 'Store credit')
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await expect(page.getByRole('alert')).toHaveText('We could not work out your refund.')
    await expect(page.getByText('Refund to: Store credit (gift card)')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Your items' })).toContainText('Reason: Too small')
    await expectAccessible(page)

    await page.getByRole('button', { name: 'Reload the refund' }).click()
    await expect(breakdownValue(page, 'Total')).toHaveText(/€/)
    await expect(page.getByRole('alert')).toHaveCount(0)
    await page.getByRole('button', { name: 'Submit return' }).click()
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
  })

  test('the quote fails once on the refund method: a retry shows both amounts and keeps the method', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await teeRefundedToRefundMethod(page)
    await page.getByRole('radio', { name: /^Store credit/ }).check()
    let failed = 0
    await page.route('**/portal-registration/returns/quote', async (route) => {
      if (failed++ === 0) return route.fulfill({ status: 500, json: { error: 'internal', message: 'Boom' } })
      return route.fallback()
    })
    await page.reload()
    await expectStep(page, '/refund-method', 'How would you like your refund?')
    await expect(page.getByRole('alert')).toHaveText('We could not work out your refund. Please try again.')
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByRole('radio', { name: /^Store credit/ })).toBeChecked()
    await expect(page.getByRole('radio', { name: /^Original payment method/ })).toHaveAccessibleName(/€\d+\.\d\d/)
    await continueButton(page).click()
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await expect(page.getByText('Refund to: Store credit (gift card)')).toBeVisible()
  })

  for (const [fault, answer] of [
    ['fails before the server acts', 'refused'],
    ['is made but its answer is lost', 'lost'],
  ] as const) {
    test(`the submit ${fault}: a clear message, a retry, one return`, async ({ page, request, resetDemoShops }) => {
      await resetDemoShops()
      await teeExchangedToConfirm(page)
      const keys: string[] = []
      await page.route('**/portal-registration/returns', async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '')
        if (keys.length > 1) return route.fallback()
        // 'lost': the server makes the return, the shopper's browser sees a 500 instead.
        if (answer === 'lost')
          expect((await route.fetch({ url: apiUrl('/portal-registration/returns') })).status()).toBe(201)
        return route.fulfill({ status: 500, json: { error: 'internal', message: 'Boom' } })
      })
      await page.getByRole('button', { name: 'Submit return' }).click()
      await expect(page.getByRole('alert')).toContainText('We could not submit your return.')
      await expect(page).toHaveURL(shopUrl('demo', '/confirm'))
      await expect(page.getByRole('list', { name: 'Your items' })).toContainText('Exchange for L')
      await expectAccessible(page)

      await page.getByRole('button', { name: 'Try again' }).click()
      await expectStep(page, '/return-instruction', 'Your return is registered')
      await expect(page.getByText('Return number #1001-R1')).toBeVisible()
      expect(keys).toHaveLength(2)
      expect(keys[1]).toBe(keys[0])
      const order = await verifyOrder(request, '#1001', 'jane@example.com')
      expect(order.line_items.find((line) => line.id === TEE)!.returnable_quantity).toBe(1)
    })
  }

  test('a reload whose session-check chunk fails once still restores the step and the choices', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await openStart(page)
    await startReturn(page, '#1001', 'jane@example.com')
    await chooseItems(page, [{ title: 'Classic Tee' }])
    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    // The first request for the restore chunk (or one it needs: support's view shares them all)
    // is dropped; the boot asks again.
    let requests = 0
    await page.route(chunkGroupRoute('restore'), (route) =>
      requests++ === 0 ? route.abort('connectionreset') : route.fallback(),
    )
    await page.reload()
    await expectStep(page, `/return-item/${TEE}/return-reason`, 'Why are you returning the Classic Tee?')
    expect(requests).toBeGreaterThan(1)
    await page.getByRole('button', { name: 'Back', exact: true }).click()
    await expect(page.getByRole('checkbox', { name: /^Classic Tee/ })).toBeChecked()
  })

  test('a lazy chunk that 404s (a deploy replaced it) reloads the page once instead of a blank screen', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    // After a deploy the old build's chunk is gone for good (its background preload fails too);
    // the reload brings the new build, whose chunk loads (here: the same one, let through).
    let reloaded = false
    let gone = 0
    await page.route(ownChunkRoute('confirm'), async (route) => {
      if (reloaded) return route.fallback()
      gone++
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' })
    })
    await openStart(page)
    let loads = 0
    page.on('load', () => loads++)
    page.on('request', (sent) => {
      if (sent.isNavigationRequest() && sent.frame() === page.mainFrame()) reloaded = true
    })
    await startReturn(page, '#1001', 'jane@example.com')
    await chooseItems(page, [{ title: 'Classic Tee' }])
    await giveReason(page, TEE, 'Classic Tee', 'Too small')
    await chooseExchange(page, TEE, 'Classic Tee', 'Size L')
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await expect(page.getByRole('list', { name: 'Your items' })).toContainText('Exchange for L')
    expect(gone).toBeGreaterThan(0)
    // The reloaded page shows its screen before its images are in: its load event may come later.
    await page.waitForLoadState('load')
    expect(loads).toBe(1)
  })
})
