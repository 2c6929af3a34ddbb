import { chunkGroupFiles, ownChunkFiles, ownChunkRoute } from './chunks'
import { encodeConfigOverride } from '../src/shop/configOverride'
import { expect, expectAccessible, shopUrl, startReturn, test } from './fixtures'
import type { Request } from '@playwright/test'

test.describe('start screen of the demo shop', () => {
  test('shows the shop branding from its configuration', async ({ page, shopConfig }) => {
    const config = await shopConfig('demo')
    await page.goto(shopUrl('demo'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(config.start_return_message!)
    await expect(page).toHaveTitle(config.document_title_text!)
    const logo = page.locator('a.shop-logo')
    await expect(logo).toHaveAttribute('target', '_blank')
    await expect(logo).toHaveAttribute('rel', /noopener/)
    await expect(page.getByRole('textbox', { name: 'E-mail address' })).toHaveAttribute('placeholder', 'E-mail')
    await expect(page.getByRole('textbox', { name: 'Order number' })).toHaveAttribute(
      'placeholder',
      config.order_placeholder_text!,
    )
    await expect(page.getByText(/powered by/i)).toBeVisible()
    // The demo shop's button colour, #1f5fbf.
    await expect(page.getByRole('button', { name: config.start_return_button_message })).toHaveCSS(
      'background-color',
      'rgb(31, 95, 191)',
    )
    await expectAccessible(page)
  })

  test('#1001 with jane@example.com verifies and lands on /products with its items', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await page.goto(shopUrl('demo'))
    await startReturn(page, '#1001', 'jane@example.com')
    await expect(page).toHaveURL(/\/products$/)
    await expect(page.getByText('Classic Tee').first()).toBeVisible()
    await expect(page.getByText('Ceramic Mug').first()).toBeVisible()
  })

  for (const [order, email, key] of [
    ['#1002', 'sam@example.com', 'order_not_fulfilled_message'],
    ['#1003', 'old@example.com', 'order_too_old_message'],
    ['#1004', 'repeat@example.com', 'order_already_has_return_message'],
    ['#9999', 'nobody@example.com', 'invalid_order_message'],
    ['#1001', 'wrong@example.com', 'invalid_order_message'],
  ] as const) {
    test(`${order} / ${email} shows the configured ${key} in red under the button`, async ({
      page,
      shopConfig,
      resetDemoShops,
    }) => {
      await resetDemoShops()
      const config = await shopConfig('demo')
      await page.goto(shopUrl('demo'))
      await startReturn(page, order, email)
      const alert = page.getByRole('alert')
      await expect(alert).toHaveText(config[key]!)
      await expect(alert).toHaveCSS('color', 'rgb(180, 35, 24)')
      await expect(page).toHaveURL(shopUrl('demo'))
      await expectAccessible(page)
    })
  }

  test('orderName and email in the URL verify by themselves; Back then reaches an empty start screen, not the link again', async ({
    page,
    resetDemoShops,
  }) => {
    await resetDemoShops()
    await page.goto(shopUrl('demo', '/?orderName=%231001&email=jane%40example.com'))
    await expect(page).toHaveURL(/\/products$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose the items to return')
    await page.goBack()
    await expect(page).toHaveURL(shopUrl('demo'))
    await expect(page.getByRole('textbox', { name: 'Order number' })).toHaveValue('')
    await page.waitForTimeout(300)
    await expect(page).toHaveURL(shopUrl('demo'))
  })

  test('testMode=1 shows the Test Mode banner, on later steps too', async ({ page, resetDemoShops }) => {
    await resetDemoShops()
    await page.goto(shopUrl('demo', '/?testMode=1'))
    await expect(page.getByText('Test Mode')).toBeVisible()
    // As the spec writes it, as rendered (innerText applies CSS text-transform; textContent does not).
    expect(await page.getByText('Test Mode').innerText()).toBe('Test Mode')
    await startReturn(page, '#1001', 'jane@example.com')
    await expect(page).toHaveURL(/\/products$/)
    await expect(page.getByText('Test Mode')).toBeVisible()
  })

  test('lang=de shows the German configuration', async ({ page, shopConfig }) => {
    const german = await shopConfig('demo-de')
    await page.goto(shopUrl('demo', '/?lang=de'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(german.start_return_message!)
  })

  test('a config override restyles the portal and shows the Preview marker; script never runs', async ({ page }) => {
    const override = encodeConfigOverride({
      start_return_message: '<img src=x onerror="window.__pwned=1">Preview title',
      button_color: '#0a7d38',
      website_url: 'javascript:window.__pwned=1',
    })
    await page.goto(shopUrl('demo', `/?config=${override}`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      '<img src=x onerror="window.__pwned=1">Preview title',
    )
    await expect(page.getByText('Preview', { exact: true })).toBeVisible()
    await expect(page.locator('button[type=submit]')).toHaveCSS('background-color', 'rgb(10, 125, 56)')
    await expect(page.locator('a.shop-logo')).not.toHaveAttribute('href', /javascript/)
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  })

  test('a merchant colour too pale for white text gets dark text, and the page stays accessible', async ({ page }) => {
    await page.goto(shopUrl('demo', `/?config=${encodeConfigOverride({ button_color: '#ffeb3b' })}`))
    const button = page.locator('button[type=submit]')
    await expect(button).toHaveCSS('background-color', 'rgb(255, 235, 59)')
    await expect(button).toHaveCSS('color', 'rgb(17, 17, 17)')
    await page.getByRole('textbox', { name: 'Order number' }).fill('#1001')
    await page.getByRole('textbox', { name: 'E-mail address' }).fill('jane@example.com')
    await expectAccessible(page)
  })

  test('a colour given by name (read by its own chunk, for previews only) styles the button', async ({ page }) => {
    const chunks: string[] = []
    page.on('request', (request) => chunks.push(new URL(request.url()).pathname))
    await page.goto(shopUrl('demo', `/?config=${encodeConfigOverride({ button_color: 'gold' })}`))
    const button = page.locator('button[type=submit]')
    await expect(button).toHaveCSS('background-color', 'rgb(255, 215, 0)')
    await expect(button).toHaveCSS('color', 'rgb(17, 17, 17)')
    expect(ownChunkFiles('preview').every((file) => chunks.includes(file))).toBe(true)
    // Without a preview, neither the preview's parser nor the colour reader is fetched.
    chunks.length = 0
    await page.goto(shopUrl('demo', '/'))
    await expect(page.getByRole('button', { name: /start/i })).toBeVisible()
    expect(
      chunks.filter((path) => [...ownChunkFiles('preview'), ...ownChunkFiles('css-colors')].includes(path)),
    ).toEqual([])
  })

  test('the page names its configuration and logo so they load beside the JavaScript; the portal takes them, asking nothing twice', async ({
    page,
  }) => {
    // What went over the network (Chromium's own record): a copy from the browser's cache is no second request.
    const fetched: string[] = []
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    cdp.on('Network.responseReceived', ({ response }) => {
      if (!response.fromDiskCache && !response.fromPrefetchCache) fetched.push(new URL(response.url).pathname)
    })
    const warnings: string[] = []
    page.on('console', (message) => void (message.type() !== 'log' && warnings.push(message.text())))
    await page.goto(shopUrl('demo'))
    await expect(page.getByRole('img', { name: /Demo Store/ })).toBeVisible()
    expect(
      await page.locator('link[rel=preload]').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(['/portal-registration/config/demo', '/demo-assets/logo.svg'])
    // The logo is drawn in the page before any script has run; the portal's first render replaces it.
    await expect(page.locator('.page--first-paint')).toHaveCount(0)
    await expect(page.locator('img.shop-logo__image')).toHaveCount(1)
    // Wait past Chromium's "preloaded but not used" check (3 s after load).
    await page.waitForTimeout(3500)
    expect(fetched.filter((path) => path === '/portal-registration/config/demo')).toHaveLength(1)
    expect(fetched.filter((path) => path === '/demo-assets/logo.svg')).toHaveLength(1)
    expect(warnings).toEqual([])
    const served = await page.evaluate(() => fetch('/').then((response) => response.text()))
    expect(served).toContain(
      '<div id=root><div class="page page--first-paint" aria-hidden="true"><div class="page__body"><div class="card"><div class="card__header"><div class="shop-logo"><img class="shop-logo__image" src="/demo-assets/logo.svg"',
    )
  })

  test('a later step reloaded names its scripts, configuration and logo in its page; the portal takes each, once', async ({
    page,
  }) => {
    await page.goto(shopUrl('demo'))
    // The steps' chunks come in the background once the flow has begun; one still arriving when
    // the cache is emptied would be written back to it and served from there to the reload.
    const inFlight = new Set<Request>()
    let lastSettled = Date.now()
    const settled = (request: Request) => {
      inFlight.delete(request)
      lastSettled = Date.now()
    }
    page.on('request', (request) => void inFlight.add(request))
    page.on('requestfinished', settled)
    page.on('requestfailed', settled)
    await startReturn(page, '#1001', 'jane@example.com')
    await expect(page).toHaveURL(/\/products$/)
    // Quiet for longer than the preloader's idle timeout (a second): every step's chunk is in.
    await expect
      .poll(() => (Date.now() - lastSettled > 1_500 ? [...inFlight].map((each) => each.url()) : ['settling']), {
        timeout: 15_000,
      })
      .toEqual([])
    // What went over the network for the reloaded page (its loader's requests).
    const responses: { path: string; loaderId: string; type: string }[] = []
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    // The reload as Lighthouse measures it: the browser's cache emptied first.
    await cdp.send('Network.clearBrowserCache')
    cdp.on('Network.responseReceived', ({ response, loaderId, type }) => {
      if (!response.fromDiskCache && !response.fromPrefetchCache)
        responses.push({ path: new URL(response.url).pathname, loaderId, type })
    })
    const warnings: string[] = []
    page.on('console', (message) => void (message.type() !== 'log' && warnings.push(message.text())))
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose the items to return')
    const named = await page
      .locator('link[rel=preload]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!))
    expect(named.slice(0, 2)).toEqual(['/portal-registration/config/demo', '/demo-assets/logo.svg'])
    const scripts = named.slice(2)
    // Every file of these chunk groups is preloaded.
    for (const chunk of ['restore', 'products', 'i18n-flow-en'])
      expect(
        chunkGroupFiles(chunk).filter((file) => !scripts.includes(file)),
        chunk,
      ).toEqual([])
    // Wait past Chromium's "preloaded but not used" check (3 s after load).
    await page.waitForTimeout(3500)
    const reloaded = responses.findLast((each) => each.type === 'Document' && each.path === '/products')!.loaderId
    const fetched = responses.filter((each) => each.loaderId === reloaded).map((each) => each.path)
    for (const path of named)
      expect(
        fetched.filter((each) => each === path),
        path,
      ).toHaveLength(1)
    expect(warnings).toEqual([])
  })

  test("a step reloaded while its chunk is slow keeps the shop's logo above the spinner on a phone, where the step shows it", async ({
    page,
  }) => {
    await page.goto(shopUrl('demo'))
    await startReturn(page, '#1001', 'jane@example.com')
    await expect(page).toHaveURL(/\/products$/)
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(ownChunkRoute('products'), async (route) => {
      await held
      await route.continue()
    })
    // The preloaded chunk holds the page's load event: wait for the page to begin only.
    await page.reload({ waitUntil: 'commit' })
    await expect(page.getByRole('status', { name: 'Loading the next step' })).toBeVisible()
    const logo = page.getByRole('img', { name: /Demo Store/ })
    // A wide screen centres the card by its height: there the logo waits for the step, as it
    // would jump when the card grows.
    const narrow = (page.viewportSize()?.width ?? 0) < 768
    if (narrow) await expect(logo).toBeVisible()
    else await expect(logo).toBeHidden()
    const before = narrow ? await logo.boundingBox() : null
    release()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose the items to return')
    if (narrow) expect(await logo.boundingBox()).toEqual(before)
    await expect(logo).toBeVisible()
  })

  test("a configuration that fails to load is asked for once, says 'Error fetching config', and Try again asks again", async ({
    page,
  }) => {
    let asked = 0
    let failing = true
    await page.route('**/portal-registration/config/**', (route) => {
      asked++
      return failing ? route.fulfill({ status: 500, json: { error: 'internal', message: 'Boom' } }) : route.fallback()
    })
    await page.goto(shopUrl('demo'))
    await expect(page.getByRole('alert')).toHaveText('Error fetching config')
    // docs/rules.md §4.6: retry is disabled; nothing asks again by itself.
    await page.waitForTimeout(500)
    expect(asked).toBe(1)
    failing = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByRole('textbox', { name: 'Order number' })).toBeVisible()
    expect(asked).toBe(2)
  })

  test('the order tip opens over its “?”, never while typing in the field, and Escape closes it', async ({ page }) => {
    await page.goto(shopUrl('demo'))
    const tip = page.getByRole('tooltip')
    const orderName = page.getByRole('textbox', { name: 'Order number' })
    await orderName.click()
    await orderName.pressSequentially('#10')
    await expect(tip).toBeHidden()
    const help = page.getByRole('button', { name: 'Where to find your order number' })
    await help.hover()
    await expect(tip).toBeVisible()
    await tip.hover()
    await expect(tip).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(tip).toBeHidden()
    await page.mouse.move(0, 0)
    await help.focus()
    await expect(tip).toBeVisible()
    await expectAccessible(page)
    await page.keyboard.press('Escape')
    await expect(tip).toBeHidden()
  })

  test('a bad e-mail says why when the shopper leaves the field; a refused verify takes the focus to its message', async ({
    page,
  }) => {
    await page.goto(shopUrl('demo'))
    const email = page.getByRole('textbox', { name: 'E-mail address' })
    await page.getByRole('textbox', { name: 'Order number' }).fill('#1001')
    await email.fill('jane@example')
    await expect(page.getByRole('alert')).toHaveCount(0)
    await email.press('Tab')
    await expect(page.getByRole('alert')).toHaveText('Enter a whole e-mail address, like name@example.com.')
    await expect(email).toHaveAttribute('aria-invalid', 'true')
    await expectAccessible(page)
    await email.fill('nobody@example.com')
    await expect(page.getByRole('alert')).toHaveCount(0)
    await page.getByRole('button', { name: 'Start return' }).click()
    const refused = page.getByRole('alert')
    await expect(refused).toBeVisible()
    await expect(refused).toBeFocused()
  })

  test('the help e-mail is a mailto: link that does not break inside the address', async ({ page }) => {
    await page.goto(shopUrl('demo'))
    const link = page.getByRole('link', { name: 'help@demo-store.example' })
    await expect(link).toHaveAttribute('href', 'mailto:help@demo-store.example')
    await expect(link).toHaveCSS('white-space', 'nowrap')
  })

  test('a config value that is not base64 JSON says in the marker that nothing is previewed', async ({ page }) => {
    await page.goto(shopUrl('demo', '/?config=%25%25garbage'))
    await expect(page.getByRole('complementary', { name: 'Preview' })).toHaveText(
      'Preview · the link’s configuration is unreadable',
    )
  })

  test('an unknown path shows the start screen', async ({ page, shopConfig }) => {
    const config = await shopConfig('demo')
    await page.goto(shopUrl('demo', '/no/such/page'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(config.start_return_message!)
  })

  test('a later step without a session lands on the start screen', async ({ page }) => {
    await page.goto(shopUrl('demo', '/confirm'))
    await expect(page).toHaveURL(shopUrl('demo'))
  })
})

test.describe('start screen of the acme shop (order prefix AC)', () => {
  test('digits get the prefix, EXC2001 can be typed key by key, and the button is black', async ({ page }) => {
    await page.goto(shopUrl('acme'))
    const orderName = page.getByRole('textbox', { name: 'Order number' })
    await orderName.pressSequentially('1001')
    await expect(orderName).toHaveValue('AC1001')
    // A key typed in the middle is made upper case and the caret stays after it.
    await orderName.press('Home')
    await orderName.press('ArrowRight')
    await orderName.press('ArrowRight')
    await orderName.pressSequentially('xy')
    await expect(orderName).toHaveValue('ACXY1001')
    await orderName.fill('')
    await orderName.pressSequentially('exc2001')
    await expect(orderName).toHaveValue('EXC2001')
    await expect(page.locator('button[type=submit]')).toHaveCSS('background-color', 'rgb(0, 0, 0)')
  })

  test('#AC1001 typed key by key gives AC1001, as pasting it does', async ({ page }) => {
    await page.goto(shopUrl('acme'))
    const orderName = page.getByRole('textbox', { name: 'Order number' })
    await orderName.pressSequentially('#AC1001')
    await expect(orderName).toHaveValue('AC1001')
    await orderName.fill('#AC1001')
    await expect(orderName).toHaveValue('AC1001')
  })

  test('AC1001 with ada@example.com verifies', async ({ page, resetDemoShops }) => {
    await resetDemoShops()
    await page.goto(shopUrl('acme'))
    await startReturn(page, '1001', 'ada@example.com')
    await expect(page).toHaveURL(/\/products$/)
  })
})
