import { expect, expectAccessible, shopUrl, startReturn, test } from './fixtures'
import { DEMO_STAFF_PASSWORD } from './serverSecrets'

/**
 * Support replay (docs/support.md): a shopper reads out the support reference from the need-help
 * area; the shop's staff, in another browser, open it in the back office and land on the same
 * screen with the same choices, read-only. Nobody else can open it.
 */
test('a support reference read on confirm opens the same screen and choices for the shop’s staff, who cannot submit', async ({
  page,
  browser,
  resetDemoShops,
}) => {
  await resetDemoShops()
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(shopUrl('demo'))
  await startReturn(page, '#1001', 'jane@example.com')
  await page.getByRole('checkbox', { name: /^Classic Tee/ }).check()
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await page.getByRole('radio', { name: 'Too small', exact: true }).check()
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await page.getByRole('radio', { name: /Size L$/ }).check()
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check and confirm your return')

  await page.getByText('Help with your return', { exact: true }).click()
  await page.getByRole('button', { name: 'Show my support reference' }).click()
  const field = page.getByRole('textbox', { name: 'Your support reference' })
  await expect(field).toHaveValue(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
  await expect(field).toBeFocused()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Copy reference' }).click()
  await expect(page.getByText('Reference copied.')).toBeVisible()
  const reference = await page.evaluate(() => navigator.clipboard.readText())
  expect(reference).toBe(await field.inputValue())

  // Anyone else, signed in to no back office, gets nothing for the reference.
  const stranger = await (await browser.newContext({ viewport: page.viewportSize() })).newPage()
  await stranger.goto(shopUrl('demo', `/admin/support/${reference}`))
  await expect(stranger.getByLabel('Password')).toBeVisible()
  const asked = await stranger.evaluate(
    async (wanted) => (await fetch(`/admin/api/support/${wanted}`)).status,
    reference,
  )
  expect(asked).toBe(401)
  await stranger.context().close()

  // The shop's staff: another browser, no session of the shopper's. The reference as heard on
  // the phone: lower case, no dash.
  const agent = await (await browser.newContext({ viewport: page.viewportSize() })).newPage()
  await agent.goto(shopUrl('demo', '/admin'))
  await agent.getByLabel('E-mail').fill('staff@demo.example')
  await agent.getByLabel('Password').fill(DEMO_STAFF_PASSWORD)
  await agent.getByRole('button', { name: 'Sign in' }).click()
  await agent.getByLabel('Support reference').fill('ZZZZ-ZZZZ')
  await agent.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(agent.getByRole('heading', { level: 1 })).toHaveText('No session for ZZZZ-ZZZZ')
  await expect(agent.getByRole('alert')).toContainText('References last 7 days')
  await expectAccessible(agent)
  await agent.getByLabel('Support reference').fill(reference.replace('-', '').toLowerCase())
  await agent.getByRole('button', { name: 'Open', exact: true }).click()

  await expect(agent).toHaveURL((url) => url.pathname === '/confirm')
  await expect(agent.getByRole('heading', { level: 1 })).toHaveText('Check and confirm your return')
  await expect(agent.getByText(/^Support view, read only/)).toBeVisible()
  await expect(agent.getByText('Exchange for L')).toBeVisible()
  // An exchange only: no refund block, the words that it costs nothing.
  await expect(agent.getByText(/^Your exchange costs nothing/)).toBeVisible()
  const submit = agent.getByRole('button', { name: 'Submit return' })
  await expect(submit).toBeDisabled()
  await expectAccessible(agent)
  // A reload keeps the replay read-only.
  await agent.reload()
  await expect(agent.getByRole('button', { name: 'Submit return' })).toBeDisabled()
  await expect(agent.getByText(/^Support view, read only/)).toBeVisible()
  await agent.context().close()

  // The shopper's own session is untouched and still submits.
  await page.getByRole('button', { name: 'Submit return' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your return is registered')
})
