import type { Browser, Page } from '@playwright/test'
import { medusaClient, type MedusaClient } from '../server/src/commerce/medusa'
import { placeOrder, startMedusa, stockedQuantity, type Medusa } from '../server/test/medusa/engine'
import { expect, expectAccessible, startReturn, test } from './fixtures'
import {
  breakdownValue,
  chooseExchange,
  chooseItems,
  chooseRefundMethod,
  declineUpsell,
  expectStep,
  giveReason,
  heading,
  openConsolePage,
  openStart,
  staffSignedIn,
} from './steps'

/**
 * The demo shop on a real Medusa 2.x (docs/commerce.md): an order placed through Medusa's store API
 * a moment ago is found by the portal, returned, received in the console with one item restocked,
 * and Medusa then holds the return, the refund of exactly the amount the shopper was shown, the
 * higher stock of the restocked item alone; and, refunded as store credit, a code a new Medusa cart
 * accepts. Medusa runs on the test PostgreSQL (TEST_DATABASE_URL, which `npm test` starts), copied
 * from the template the server suite made (server/test/medusa/engine.ts).
 */

let medusa: Medusa
let client: MedusaClient

test.describe.configure({ mode: 'serial' })

// The first run on a machine may install Medusa and migrate its template (docs/medusa.md).
test.beforeAll(async () => {
  test.setTimeout(20 * 60_000)
  // Never skipped: without PostgreSQL these journeys fail, saying why.
  if (!process.env.TEST_DATABASE_URL)
    throw new Error('TEST_DATABASE_URL is not set: the Medusa journeys need PostgreSQL (npm test starts one)')
  medusa = await startMedusa()
  client = medusaClient({ url: medusa.url, secretApiKey: medusa.secretApiKey, stockLocationId: medusa.stockLocationId })
})
test.afterAll(async () => {
  await medusa?.stop()
})

/** Waits until `read` answers something `accept` takes, reading again every half second. */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined
  await expect
    .poll(
      async () => {
        last = await read()
        return accept(last)
      },
      { message: what, timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe(true)
  return last!
}

/** The console's Store connection page: Medusa's address, key, sales channel and stock location, tested. */
async function connectMedusa(staff: Page) {
  await openConsolePage(staff, 'Store connection')
  await expect(heading(staff)).toHaveText('Store connection')
  const form = staff.getByRole('form', { name: /Connect a store|Change the connection/ })
  await form.getByLabel('Address').fill(medusa.url)
  await form.getByLabel('Secret API key').fill(medusa.secretApiKey)
  await form.getByLabel('Sales channel ID').fill(medusa.salesChannelId)
  await form.getByLabel('Stock location ID').fill(medusa.stockLocationId)
  await form.getByRole('button', { name: 'Save connection' }).click()
  await expect(staff.getByText('Connection saved. Test it to check that it works.')).toBeVisible()
  await staff.getByRole('button', { name: 'Test connection' }).click()
  await expect(staff.getByText('Everything works.')).toBeVisible()
  await expectAccessible(staff)
}

/** GET on Medusa's Admin API with the secret key, as Rebound calls it. */
async function admin<T>(path: string): Promise<T> {
  const response = await fetch(`${medusa.url}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${medusa.secretApiKey}:`).toString('base64')}` },
  })
  expect(response.status, `GET ${path}`).toBe(200)
  return (await response.json()) as T
}

interface AdminReturn {
  id: string
  status: string
  items: { item_id: string; quantity: number; received_quantity: number }[]
}

/** The order's returns in Medusa, as the shop's own admin lists them. */
const returnsOf = async (orderId: string) =>
  (await admin<{ returns: AdminReturn[] }>(`/admin/returns?order_id=${orderId}&fields=id,status,*items`)).returns

/** The status link the instructions give the shopper to keep. */
const statusLinkOf = (page: Page) =>
  page
    .getByRole('region', { name: 'Follow your return' })
    .getByRole('textbox', { name: 'Link to your return’s status' })
    .inputValue()

/** The demo shop as its file has it, connected to this Medusa by its staff: their console page. */
async function demoOnMedusa(resetDemoShops: () => Promise<void>, browser: Browser, page: Page): Promise<Page> {
  await resetDemoShops()
  const staff = await staffSignedIn(browser, page)
  await connectMedusa(staff)
  return staff
}

/** Insights' "Refunded" of the shop, in minor units: what the shop refunded in the period shown. */
async function insightsRefunded(staff: Page): Promise<number> {
  await openConsolePage(staff, 'Insights')
  const row = staff
    .getByRole('table', { name: 'Revenue kept by the shop and refunded' })
    .getByRole('row', { name: /^Refunded\b/ })
  return minorOf((await row.getByRole('cell').textContent())!)
}

/** Minor units of a euro amount as the portal shows it ("€31.54"). */
const minorOf = (shown: string) => Math.round(Number(shown.replace(/[^0-9.]/g, '')) * 100)

test('an order placed in Medusa is returned in the portal, received with one item restocked, and refunded in Medusa', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  test.slow()
  const staff = await demoOnMedusa(resetDemoShops, browser, page)

  const email = `ada.${Date.now()}@example.com`
  const placed = await placeOrder(medusa, {
    email,
    items: [
      { sku: 'TEE-M', quantity: 1 },
      { sku: 'CAP', quantity: 1 },
    ],
  })
  const [tee, cap] = placed.lineItems
  const teeStock = await stockedQuantity(medusa, 'TEE-M')
  const capStock = await stockedQuantity(medusa, 'CAP')

  // The shopper finds the order placed a moment ago by its number, with the prefix or without.
  await openStart(page)
  await startReturn(page, String(placed.displayId), email)
  await chooseItems(page, [{ title: 'Organic tee' }, { title: 'Wool cap' }])
  // The items in the order's order: Rebound keeps Medusa's lines by id.
  const lines = [
    { id: tee!.id, title: 'Organic tee' },
    { id: cap!.id, title: 'Wool cap' },
  ].sort((a, b) => (a.id < b.id ? -1 : 1))
  for (const line of lines) {
    await giveReason(page, line.id, line.title, 'Changed my mind')
    // Medusa's other sizes of the tee are offered; the shopper takes the money.
    if (line.id === tee!.id) await chooseExchange(page, tee!.id, 'Organic tee', 'Refund instead')
  }
  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', 'Check and confirm your return')
  const refund = (await breakdownValue(page, 'Total').textContent())!
  await page.getByRole('button', { name: 'Submit return' }).click()
  await expectStep(page, '/return-instruction', 'Your return is registered')
  const returnName = `#${placed.displayId}-R1`
  await expect(page.getByText(`Return number ${returnName}`)).toBeVisible()
  const statusLink = await statusLinkOf(page)

  // The shop's own Medusa admin shows the return, requested with both items.
  const [requested] = await eventually(
    () => returnsOf(placed.orderId),
    // Opened, its items added, then requested: Medusa lists it `open` until the last call.
    (returns) => returns.length === 1 && returns[0]!.status === 'requested',
    'the return is requested in Medusa',
  )
  expect(requested!.items.map((item) => [item.item_id, item.quantity]).sort()).toEqual(
    [
      [tee!.id, 1],
      [cap!.id, 1],
    ].sort(),
  )

  const refundedBefore = await insightsRefunded(staff)

  // The warehouse receives the tee as new (restocked) and the cap damaged (not restocked).
  await openConsolePage(staff, 'Receive')
  const code = staff.getByRole('textbox', { name: 'Drop-off code or return number' })
  await code.pressSequentially(returnName)
  await code.press('Enter')
  await expect(heading(staff)).toContainText(returnName)
  const teeItem = staff.getByRole('group', { name: /Organic tee/ })
  await teeItem.getByRole('group', { name: 'Condition' }).getByRole('radio', { name: 'As new' }).check()
  await expect(
    teeItem.getByRole('group', { name: 'Disposition' }).getByRole('radio', { name: 'Restock' }),
  ).toBeChecked()
  const capItem = staff.getByRole('group', { name: /Wool cap/ })
  await capItem.getByRole('group', { name: 'Condition' }).getByRole('radio', { name: 'Damaged' }).check()
  await capItem.getByRole('group', { name: 'Disposition' }).getByRole('radio', { name: 'Dispose' }).check()
  await expect(staff.getByRole('checkbox', { name: 'Issue the refund now' })).toBeChecked()
  await staff.getByRole('button', { name: 'Review', exact: true }).click()
  await staff.getByRole('button', { name: 'Confirm', exact: true }).click()
  const recorded = staff.getByRole('status').filter({ hasText: 'Inspection recorded' })
  await expect(recorded).toContainText(`2 items of ${returnName} inspected, and the refund issued.`)
  const confirmedAt = Date.now()

  // Medusa: the refund of exactly what the console issued after the cap's deduction, the tee's
  // stock up by one, the cap's not.
  await recorded.getByRole('link', { name: `Open ${returnName}` }).click()
  const figures = staff.getByRole('region', { name: 'Refund', exact: true })
  const cell = (label: RegExp) => figures.getByRole('row', { name: label }).getByRole('cell')
  // The total the shopper agreed to, then the inspection's 50 % of the cap taken off it.
  await expect(cell(/^Total\b/)).toHaveText(refund)
  const issued = (await cell(/^After the inspection\b/).textContent())!
  expect(minorOf(issued)).toBe(minorOf(refund) - Math.floor(cap!.unitPrice * 100 * 0.5))
  const refunds = await eventually(
    () => client.refundsOf(placed.orderId),
    (found) => found.length > 0,
    'the refund is made in Medusa',
  )
  console.log(`inspection confirmed → refund in Medusa: ${Date.now() - confirmedAt} ms`)
  expect(refunds).toHaveLength(1)
  expect(refunds[0]!.amountMinor).toBe(minorOf(issued))
  await eventually(
    () => stockedQuantity(medusa, 'TEE-M'),
    (stock) => stock === teeStock + 1,
    'the restocked tee raises its stock',
  )
  expect(await stockedQuantity(medusa, 'CAP')).toBe(capStock)

  // The console says what Medusa did, each action done.
  const inMedusa = staff.getByRole('region', { name: 'In Medusa' })
  await expect(inMedusa.getByText(`Refund of ${issued} in Medusa`)).toBeVisible()
  await expect(inMedusa.getByRole('listitem')).toHaveCount(3)
  await expect(inMedusa.getByRole('listitem').filter({ hasText: /: done/ })).toHaveCount(3)
  await expectAccessible(staff)

  // The shopper's status page and refund e-mail give the same amount as Medusa refunded.
  await page.goto(statusLink)
  await expect(page.getByRole('region', { name: 'Your refund' })).toContainText(issued)
  await staff
    .getByRole('region', { name: 'E-mails to the shopper' })
    .getByRole('link', { name: `Your refund for ${returnName} is issued` })
    .click()
  const mail = staff.frameLocator('iframe[title^="The e-mail"]')
  await expect(mail.locator('body')).toContainText(`${issued} to your original payment method`)
  const [received] = await returnsOf(placed.orderId)
  expect(received!.status).toBe('received')

  // Insights count the same refund: the shop's refunded total rose by exactly that amount.
  await expect.poll(() => insightsRefunded(staff)).toBe(refundedBefore + minorOf(issued))
})

test('refunded as store credit, the code on the status page is a Medusa promotion that a new cart of the shopper takes', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  test.slow()
  const staff = await demoOnMedusa(resetDemoShops, browser, page)

  const email = `grace.${Date.now()}@example.com`
  const placed = await placeOrder(medusa, { email, items: [{ sku: 'CAP', quantity: 1 }] })
  const [cap] = placed.lineItems

  await openStart(page)
  await startReturn(page, `#${placed.displayId}`, email)
  await chooseItems(page, [{ title: 'Wool cap' }])
  await giveReason(page, cap!.id, 'Wool cap', 'Changed my mind')
  await declineUpsell(page)
  const storeCredit = page.locator('label').filter({ has: page.getByRole('radio', { name: /^Store credit/ }) })
  const credit = (await storeCredit.locator('.refund-method__amount').textContent())!
  await chooseRefundMethod(page, 'Store credit')
  await expectStep(page, '/confirm', 'Check and confirm your return')
  await page.getByRole('button', { name: 'Submit return' }).click()
  await expectStep(page, '/return-instruction', 'Your return is registered')
  const statusLink = await statusLinkOf(page)

  // The status page shows the code; Medusa holds it as a promotion of the credit, for this shopper.
  await page.goto(statusLink)
  const yourRefund = page.getByRole('region', { name: 'Your refund' })
  const codeText = yourRefund.getByText(/^GC-[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/)
  await expect(codeText).toBeVisible()
  const code = (await codeText.textContent())!
  await expectAccessible(page)
  const promotion = await eventually(
    () => client.findPromotionByCode(code),
    (found) => found !== null,
    'the store credit is a code in Medusa',
  )
  expect(promotion!.status).toBe('active')
  expect(promotion!.limit).toBe(1)

  // A new cart of the same shopper takes the code: the order costs the credit less.
  const next = await placeOrder(medusa, { email, items: [{ sku: 'TEE-L', quantity: 2 }], promoCodes: [code] })
  const full = 2 * medusa.variants['TEE-L']!.price + 5
  expect(Math.round((full - next.total) * 100)).toBe(Math.min(minorOf(credit), Math.round(full * 100)))
  await staff.close()
})
