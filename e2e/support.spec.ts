import { expect, expectAccessible, shopUrl, startReturn, test } from './fixtures'

/**
 * Support replay (issue 7): a shopper copies the support code from the need-help area; support
 * staff, in another browser with no session, open it on /support and land on the same screen
 * with the same choices, read-only.
 */
test('a support code copied on confirm opens the same screen and choices for support staff, who cannot submit', async ({
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
  await page.getByRole('button', { name: 'Show my support code' }).click()
  const field = page.getByRole('textbox', { name: 'Your support code' })
  await expect(field).toHaveValue(/^RB1\.[A-Za-z0-9_-]{200,}$/)
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Copy support code' }).click()
  await expect(page.getByText('Support code copied.')).toBeVisible()
  const code = await page.evaluate(() => navigator.clipboard.readText())
  expect(code).toBe(await field.inputValue())

  // Support staff: another browser, no session of the shopper's.
  const agent = await (await browser.newContext({ viewport: page.viewportSize() ?? undefined })).newPage()
  await agent.goto(shopUrl('demo', '/support'))
  await expect(agent.getByRole('heading', { level: 1 })).toHaveText('Open a shopper’s session')
  await agent.getByRole('textbox', { name: 'Support code' }).fill('not a code')
  await agent.getByRole('button', { name: 'Open the session' }).click()
  await expect(agent.getByRole('alert')).toHaveText(
    'This is not a support code of this portal. Check that it was copied whole.',
  )
  await expectAccessible(agent)
  await agent.getByRole('textbox', { name: 'Support code' }).fill(code)
  await agent.getByRole('button', { name: 'Open the session' }).click()

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
