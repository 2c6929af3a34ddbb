import { ownChunkRoute } from './chunks'
import type { Locator, Page, Request, Route } from '@playwright/test'
import { API_TIMEOUT_MS } from '../src/api/portalApi'
import { apiUrl, expect, expectAccessible, startReturn, test, verifyOrder } from './fixtures'
import {
  breakdownValue,
  chooseExchange,
  chooseItems,
  continueButton,
  expectStep,
  giveReason,
  isSubmit,
  openStart,
  TEE,
} from './steps'

/**
 * The API going away mid-flow (issue 5, "Faults"): every call of a journey, in turn, either times
 * out (an answer that never comes) or finds the browser offline. Each time the shopper gets a
 * clear message and a way to retry, keeps every choice, and once the fault clears the retry
 * succeeds and the journey goes on to its end, with one return made.
 *
 * Timeouts run on Playwright's clock: the held call is given up after the portal's own
 * API_TIMEOUT_MS, skipped over in an instant, so the real value is what is tested.
 */

type Kind = 'timeout' | 'offline'

interface Outage {
  /** Waits until the next call fails: for a timeout, once the portal's own wait has run out. */
  failNext: () => Promise<void>
  /** The API answers again. */
  end: () => Promise<void>
  /** With `reachesServer`: the statuses the server answered with, which the browser never saw. */
  lostAnswers: number[]
}

/**
 * Breaks the calls to `path` until `end()`. A timeout holds each one unanswered (with
 * `reachesServer`, after the server has acted on it: only the answer is lost). Offline takes the
 * browser off the network now, or with `atCall` just as the first such call goes out.
 */
async function breakApi(
  page: Page,
  fault: Kind,
  path: string,
  options: { reachesServer?: boolean; atCall?: boolean } = {},
): Promise<Outage> {
  const pattern = new RegExp(`^${path.replace('*', '[^/]+')}$`)
  const matches = (url: URL) => pattern.test(url.pathname)
  const context = page.context()
  // The calls the browser saw fail, whatever failed them: counted, so that each retry is seen to fail.
  let failed = 0
  let givenUp = 0
  const countFailure = (request: Request) => {
    if (matches(new URL(request.url()))) failed++
  }
  page.on('requestfailed', countFailure)
  const lostAnswers: number[] = []
  // Calls broken so far: for a timeout, calls now waiting for an answer that never comes.
  let held = 0
  const breakCall = async (route: Route) => {
    if (fault === 'offline') {
      if (held++ > 0) return route.fallback()
      await context.setOffline(true)
      return route.abort('internetdisconnected')
    }
    // The server is done with it before the portal can give up, so the retry cannot overtake it.
    if (options.reachesServer)
      lostAnswers.push((await route.fetch({ url: apiUrl(new URL(route.request().url()).pathname) })).status())
    held++
    // No answer, ever: only the portal's own timeout ends the wait.
  }
  if (fault === 'offline' && !options.atCall) await context.setOffline(true)
  else await page.route(matches, breakCall)
  return {
    failNext: async () => {
      if (fault === 'timeout') {
        await expect.poll(() => held, { message: `a call to ${path} is on its way` }).toBeGreaterThan(givenUp)
        await page.clock.fastForward(API_TIMEOUT_MS)
      }
      await expect.poll(() => failed, { message: `a call to ${path} failed` }).toBeGreaterThan(givenUp)
      givenUp++
    },
    end: async () => {
      page.off('requestfailed', countFailure)
      await page.unroute(matches, breakCall)
      await context.setOffline(false)
    },
    lostAnswers,
  }
}

interface Fault {
  /** what the shopper does that makes the call */
  send: () => Promise<void>
  /** what the portal says when the call fails */
  message: string
  /** the control that makes the call again */
  retry: Locator
  /** the choices made so far, still on screen while the fault lasts */
  kept?: () => Promise<void>
}

/**
 * The shopper's side of one outage: `send` makes the call, the portal says `message` and keeps
 * the choices, the page passes axe, a retry while the fault lasts fails the same way, and once
 * the fault is over `retry` is pressed again (the caller checks that the journey goes on).
 */
async function recoverFrom(page: Page, outage: Outage, fault: Fault) {
  const alert = page.getByRole('alert')
  await fault.send()
  await outage.failNext()
  await expect(alert).toHaveText(fault.message)
  await fault.kept?.()
  await expectAccessible(page)
  // Still broken: the retry fails the same way and the message comes back.
  await fault.retry.click()
  await outage.failNext()
  await expect(alert).toHaveText(fault.message)
  await outage.end()
  await fault.retry.click()
}

/** What was chosen before confirm: the tee, its reason, a refund as store credit. */
async function choicesOnConfirm(page: Page) {
  const items = page.getByRole('list', { name: 'Your items' }).getByRole('listitem')
  await expect(items).toHaveCount(1)
  await expect(items).toContainText(['Classic Tee'])
  await expect(items).toContainText(['Reason: Too small'])
  await expect(page.getByText('Refund to: Store credit (gift card)')).toBeVisible()
}

for (const fault of ['timeout', 'offline'] as const) {
  test(`${fault} at every call of #1001's journey: a message, a retry, every choice kept, one return`, async ({
    page,
    request,
    resetDemoShops,
    shopConfig,
  }) => {
    test.setTimeout(90_000)
    await resetDemoShops()
    const config = await shopConfig('demo')
    const submits: Request[] = []
    page.on('request', (sent) => {
      if (isSubmit(sent)) submits.push(sent)
    })
    if (fault === 'timeout') await page.clock.install()
    await openStart(page)

    // Verify: the error line under the button (docs/rules.md §12.2), the fields as typed.
    const orderName = page.getByRole('textbox', { name: 'Order number' })
    const email = page.getByRole('textbox', { name: 'E-mail address' })
    await orderName.fill('#1001')
    await email.fill('jane@example.com')
    await recoverFrom(page, await breakApi(page, fault, '/portal-registration/verify'), {
      send: () => email.press('Enter'),
      message: 'Something went wrong',
      retry: page.getByRole('button', { name: config.start_return_button_message }),
      kept: async () => {
        await expect(orderName).toHaveValue('#1001')
        await expect(email).toHaveValue('jane@example.com')
      },
    })
    await expectStep(page, '/products', 'Choose the items to return')

    await chooseItems(page, [{ title: 'Classic Tee' }])
    await giveReason(page, TEE, 'Classic Tee', 'Too small')
    await chooseExchange(page, TEE, 'Classic Tee', 'Refund instead')
    await expectStep(page, '/upsell-offer', 'Exchange for something new?')

    // The catalogue of the exploration.
    await recoverFrom(page, await breakApi(page, fault, '/portal-registration/catalogue'), {
      send: () => page.getByRole('button', { name: 'Yes, show me new items' }).click(),
      message: 'We could not load the shop’s items. Please try again.',
      retry: page.getByRole('button', { name: 'Try again' }),
    })
    await expectStep(page, '/upsell-explore', 'Find something new')
    await expect(page.getByText(/^Your credit to spend/)).toBeVisible()
    await expect(page.getByRole('radio').first()).toBeVisible()

    // Leaving the exploration without a new item asks for nothing: the quote of these very choices
    // was asked for as the offer opened (decision 0098), and the refund method shows it.
    await page.getByRole('button', { name: 'Continue without a new item' }).click()
    await expectStep(page, '/refund-method', 'How would you like your refund?')
    const credit = page.getByRole('radio', { name: /^Store credit/ })
    await expect(credit).toHaveAccessibleName(/€\d+\.\d\d/)
    await credit.check()

    // The quote of confirm: the method chosen and the item's reason stay on screen.
    await recoverFrom(page, await breakApi(page, fault, '/portal-registration/returns/quote'), {
      send: () => continueButton(page).click(),
      message: 'We could not work out your refund.',
      retry: page.getByRole('button', { name: 'Reload the refund' }),
      kept: () => choicesOnConfirm(page),
    })
    await expectStep(page, '/confirm', 'Check and confirm your return')
    await expect(breakdownValue(page, 'Total')).toHaveText(/€\d+\.\d\d/)

    // The submit: on a timeout the server makes the return and only its answer is lost. Its
    // instructions fail next, just after the return is made.
    const instructions = await breakApi(page, fault, '/portal-registration/returns/*/instructions', { atCall: true })
    const submit = await breakApi(page, fault, '/portal-registration/returns', { reachesServer: true })
    await recoverFrom(page, submit, {
      send: () => page.getByRole('button', { name: 'Submit return' }).click(),
      message:
        'We could not submit your return. Your choices are kept; try again and you will still get only one return.',
      retry: page.getByRole('button', { name: 'Try again' }),
      kept: async () => {
        await expect(page).toHaveURL((url) => url.pathname === '/confirm')
        await choicesOnConfirm(page)
      },
    })
    await expect(page).toHaveURL((url) => url.pathname === '/return-instruction')
    // Timed out, the first submit made the return (201) and the retry found it (200); offline,
    // the server saw neither.
    expect(submit.lostAnswers).toEqual(fault === 'timeout' ? [201, 200] : [])

    // The instructions: the return is made, and says so, while its details cannot be loaded.
    await recoverFrom(page, instructions, {
      send: async () => {},
      message: 'Your return is registered, but we could not load the instructions.',
      retry: page.getByRole('button', { name: 'Try again' }),
      kept: () => expect(page.getByText('Return number #1001-R1')).toBeVisible(),
    })
    await expectStep(page, '/return-instruction', 'Your return is registered')
    await expect(page.getByText('Return number #1001-R1')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    await expect(page.getByText(/as store credit \(a gift card\)/)).toBeVisible()

    // One return: every submit carried the same key, and the server has one tee back.
    expect(submits.length).toBeGreaterThanOrEqual(2)
    expect(new Set(submits.map((sent) => sent.headers()['idempotency-key'])).size).toBe(1)
    const order = await verifyOrder(request, '#1001', 'jane@example.com')
    expect(order.line_items.find((line) => line.id === TEE)!.returnable_quantity).toBe(1)
  })
}

test('offline before the next step has loaded: the portal says so and keeps the choices, and a reload brings the step back', async ({
  page,
  resetDemoShops,
}) => {
  await resetDemoShops()
  // A connection too poor for the background load of the confirm screen…
  const confirmChunk = ownChunkRoute('confirm')
  await page.route(confirmChunk, (route) => route.abort('connectionfailed'))
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title: 'Classic Tee' }])
  await giveReason(page, TEE, 'Classic Tee', 'Too small')
  // …and gone when the shopper moves on: the portal's message, not the browser's offline page.
  await page.context().setOffline(true)
  await chooseExchange(page, TEE, 'Classic Tee', 'Size L')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page could not be shown')
  await expect(page.getByRole('alert')).toHaveText(
    'Something went wrong while loading this step. Your choices are kept.',
  )
  await expectAccessible(page)

  await page.unroute(confirmChunk)
  await page.context().setOffline(false)
  await page.getByRole('button', { name: 'Reload the page' }).click()
  await expectStep(page, '/confirm', 'Check and confirm your return')
  await expect(page.getByRole('list', { name: 'Your items' })).toContainText('Exchange for L')
  await expect(page.getByRole('list', { name: 'Your items' })).toContainText('Reason: Too small')
})
