import type { Browser, Page } from '@playwright/test'
import { expect, expectAccessible, shopUrl, test } from './fixtures'
import { heading, openConsolePage, scanParcelsByKeyboard, staffSignedIn, submittedByApi } from './steps'

/**
 * A shop's team at work in the console (docs/back-office.md, "Roles" and "The audit log"), one
 * role after another: the owner invites an agent and a warehouse worker; the agent finds a return
 * by part of the shopper's name, writes a note and resends an e-mail, and cannot change the
 * policy, which the server refuses too; the warehouse worker scans three parcels in a row by the
 * keyboard alone; the owner reads all of it in the audit log. The journey's server sends no
 * e-mail (no SMTP_URL), so the owner is handed each invite's link to give (decision 0081).
 */
test.describe.configure({ mode: 'serial' })

// New people each run: a worker's server keeps its staff from journey to journey.
const run = Date.now().toString(36)
const AGENT = `agent-${run}@demo.example`
const WAREHOUSE = `warehouse-${run}@demo.example`
const PASSWORD = 'a team member’s own passphrase'

/** The pages each person keeps open, from test to test of this file. */
const open: { owner?: Page; agent?: Page; warehouse?: Page } = {}
const links: Record<string, string> = {}

/** The owner's invite of `email` as `role`, on the Staff page; answers the link handed over. */
async function invite(owner: Page, email: string, role: string): Promise<string> {
  await owner.getByLabel('E-mail', { exact: true }).fill(email)
  await owner.getByLabel('Role', { exact: true }).selectOption(role)
  await owner.getByRole('button', { name: 'Send invite' }).click()
  await expect(owner.getByRole('status').first()).toHaveText(`Invite made for ${email}: give them the link below.`)
  const handOver = owner.getByRole('region', { name: `Give ${email} this link` })
  return handOver.getByRole('textbox', { name: `Link for ${email}` }).inputValue()
}

/** Opens an invite's link on a browser of the invitee's own, and sets a password by the keyboard. */
async function accept(browser: Browser, like: Page, link: string): Promise<Page> {
  const context = await browser.newContext({ viewport: like.viewportSize() })
  const page = await context.newPage()
  await page.goto(link)
  await expect(heading(page)).toHaveText('Set your password')
  await page.getByLabel('New password').fill(PASSWORD)
  await page.getByLabel('New password').press('Enter')
  await expect(heading(page)).toHaveText('Returns')
  return page
}

test('the owner invites an agent and a warehouse worker, each with a link to set a password', async ({
  browser,
  page,
  resetDemoShops,
}) => {
  await resetDemoShops()
  const owner = (open.owner = await staffSignedIn(browser, page))
  await openConsolePage(owner, 'Staff')
  await expect(heading(owner)).toHaveText('Staff')
  links[AGENT] = await invite(owner, AGENT, 'agent')
  links[WAREHOUSE] = await invite(owner, WAREHOUSE, 'warehouse')
  expect(links[AGENT]).toMatch(new RegExp(`^${shopUrl('demo', '/admin/invite#token=')}[A-Za-z0-9_-]{43}$`))
  await expect(owner.getByText(`${AGENT} as agent, by staff@demo.example`)).toBeVisible()
  await expectAccessible(owner)

  open.agent = await accept(browser, page, links[AGENT])
  open.warehouse = await accept(browser, page, links[WAREHOUSE])
  // The link works once.
  const again = await browser.newPage({ viewport: page.viewportSize() })
  await again.goto(links[AGENT])
  await again.getByLabel('New password').fill(PASSWORD)
  await again.getByRole('button', { name: 'Set password and sign in' }).click()
  await expect(again.getByRole('alert')).toContainText(/invite|link/i)
  await again.context().close()

  await owner.reload()
  const staff = owner.getByRole('table', { name: 'The shop’s staff' })
  await expect(staff.getByRole('combobox', { name: `Role of ${AGENT}` })).toHaveValue('agent')
  await expect(staff.getByRole('combobox', { name: `Role of ${WAREHOUSE}` })).toHaveValue('warehouse')
})

test('the agent finds a return by part of the shopper’s name, writes a note and resends its e-mail', async ({
  request,
}) => {
  const agent = open.agent!
  await submittedByApi(request, '#1005', 'solo@example.com', `team-e2e-1005-${run}`)
  // Sola Nowak's return, by a part of her name.
  await agent.getByRole('searchbox', { name: 'Search' }).fill('nowa')
  await agent.getByRole('searchbox', { name: 'Search' }).press('Enter')
  const found = agent.getByRole('table').getByRole('link', { name: '#1005-R1' })
  await expect(found).toBeVisible()
  await found.click()
  await expect(heading(agent)).toContainText('#1005-R1')

  await agent.getByLabel('Note', { exact: true }).fill('Called Sola: the parcel leaves on Monday.')
  await agent.getByRole('button', { name: 'Add note' }).click()
  await expect(agent.getByText('Called Sola: the parcel leaves on Monday.')).toBeVisible()

  const resend = agent.getByRole('button', { name: /^Resend “/ }).first()
  const name = (await resend.getAttribute('aria-label'))!.replace(/^Resend /, '')
  await resend.click()
  await expect(agent.getByText(`${name} is written again to solo@example.com`)).toBeVisible()
  await expectAccessible(agent)
})

test('the agent sees the policy but cannot change it, and the server refuses it too', async () => {
  const agent = open.agent!
  await openConsolePage(agent, 'Policy')
  await expect(heading(agent)).toHaveText('Return policy')
  await expect(agent.getByText('Your role cannot change the policy: an owner or admin can.')).toBeVisible()
  await expect(agent.getByRole('button', { name: 'Save policy' })).toHaveCount(0)
  // What the page does not offer, the server refuses: the same PUT the Save button would send.
  const refused = await agent.evaluate(async () => {
    const response = await fetch('/admin/api/policy', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: { returns: 1, days: 30 } }),
    })
    return { status: response.status, body: (await response.json()) as { error: string } }
  })
  expect(refused).toMatchObject({ status: 403, body: { error: 'not_allowed' } })
  // Nor is the Staff page the agent's.
  const nav = agent.getByRole('navigation', { name: 'Back office' })
  await expect(nav.getByRole('link', { name: 'Staff', exact: true })).toHaveCount(0)
})

test('the warehouse worker scans three parcels in a row without touching the mouse', async ({ request }) => {
  const warehouse = open.warehouse!
  const parcels = [
    await submittedByApi(request, '#1001', 'jane@example.com', `team-e2e-1001-${run}`),
    await submittedByApi(request, '#1014', 'restock@example.com', `team-e2e-1014-${run}`),
    await submittedByApi(request, '#1015', 'size@example.com', `team-e2e-1015-${run}`),
  ]
  // The warehouse's menu offers what the role may do: receiving, not the shop's settings.
  const menu = warehouse.getByRole('button', { name: /^Menu/ })
  if (await menu.isVisible()) await menu.press('Enter')
  const nav = warehouse.getByRole('navigation', { name: 'Back office' })
  await expect(nav.getByRole('link', { name: 'Receive', exact: true })).toBeVisible()
  for (const page of ['Policy', 'Webhooks', 'Staff', 'Audit log'])
    await expect(nav.getByRole('link', { name: page, exact: true })).toHaveCount(0)
  await warehouse.goto(shopUrl('demo', '/admin/receive'))
  await expect(heading(warehouse)).toHaveText('Receive a return')
  await scanParcelsByKeyboard(warehouse, parcels)
})

test('the owner reads all of it in the audit log', async () => {
  const owner = open.owner!
  await openConsolePage(owner, 'Audit log')
  await expect(heading(owner)).toHaveText('Audit log')
  const entries = owner.getByRole('list', { name: 'Entries, newest first' })
  for (const sentence of [
    `staff@demo.example invited ${AGENT} as agent`,
    `staff@demo.example invited ${WAREHOUSE} as warehouse`,
    `${AGENT} accepted the invite as agent`,
    `${AGENT} wrote a note on #1005-R1`,
    `${AGENT} resent the e-mail`,
    `${WAREHOUSE} recorded the inspection of #1001-R1 and refunded it`,
    `${WAREHOUSE} recorded the inspection of #1015-R1 and refunded it`,
  ])
    await expect(entries.getByText(sentence).first()).toBeVisible()
  // One person's doings, by the Person filter.
  await owner.getByLabel('Person').selectOption(AGENT)
  await expect(entries.getByText(`${AGENT} wrote a note on #1005-R1`)).toBeVisible()
  await expect(entries.getByText(WAREHOUSE)).toHaveCount(0)
  await expectAccessible(owner)
  for (const page of Object.values(open)) await page.context().close()
})
