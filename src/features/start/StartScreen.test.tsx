import { screen, waitFor, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import type { VerifyRequest } from '../../../contract/api'
import { buildConfig, buildFlow, buildLineItem, buildOrder } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'
import { settled } from '../../testing/settled'
import { encodeConfigOverride } from '../../shop/configOverride'

const configRoute = '*/portal-registration/config/:id'
const verifyRoute = '*/portal-registration/verify'

const orderField = () => screen.getByRole('textbox', { name: 'Order number' })
const emailField = () => screen.getByRole('textbox', { name: 'E-mail address' })
const startButton = () => screen.getByRole('button', { name: /start return/i })

async function fillAndSubmit(user: ReturnType<typeof renderPortal>['user'], orderName: string, email: string) {
  await user.type(orderField(), orderName)
  await user.type(emailField(), `${email}{Enter}`)
}

afterEach(() => jest.restoreAllMocks())

describe('start screen content', () => {
  test('shows the shop logo linking to its website in a new tab, the texts and the footer', async () => {
    renderPortal()
    expect(await screen.findByRole('heading', { level: 1, name: 'Start your return' })).toBeInTheDocument()
    const logoLink = screen.getByRole('link', { name: /demo store returns website/i })
    expect(logoLink).toHaveAttribute('href', 'https://shop.example.com/')
    expect(logoLink).toHaveAttribute('target', '_blank')
    expect(logoLink).toHaveAttribute('rel', expect.stringContaining('noopener'))
    expect(orderField()).toHaveAttribute('placeholder', 'Order number, e.g. #1001')
    expect(emailField()).toHaveAttribute('placeholder', 'E-mail')
    // The help e-mail is a mailto: link that never breaks inside the address.
    expect(screen.getByText(/^Need help\? Write to/)).toHaveTextContent('Need help? Write to help@example.com')
    expect(screen.getByRole('link', { name: 'help@example.com' })).toHaveAttribute('href', 'mailto:help@example.com')
    expect(screen.getByRole('link', { name: 'help@example.com' })).toHaveClass('help-email')
    expect(screen.getByText(/powered by/i)).toBeInTheDocument()
    expect(screen.queryByText('Test Mode')).not.toBeInTheDocument()
    expect(screen.queryByText('Preview')).not.toBeInTheDocument()
  })

  test('the configuration sets the document title, favicon and button colour', async () => {
    server.use(
      http.get(configRoute, () =>
        HttpResponse.json(
          buildConfig({
            document_title_text: 'Acme Returns',
            favicon_src: 'https://cdn.example.com/f.ico',
            button_color: '#ffeb3b',
          }),
        ),
      ),
    )
    renderPortal()
    await screen.findByRole('heading', { level: 1 })
    expect(document.title).toBe('Acme Returns')
    expect(document.querySelector('link[rel="icon"]')).toHaveAttribute('href', 'https://cdn.example.com/f.ico')
    expect(document.documentElement.style.getPropertyValue('--button-bg')).toBe('#ffeb3b')
    // A light button colour gets dark text so the label stays readable.
    expect(document.documentElement.style.getPropertyValue('--button-fg')).toBe('#111111')
  })

  test('the background image comes from the configuration, and only an http(s) one is used', async () => {
    server.use(
      http.get(configRoute, () => HttpResponse.json(buildConfig({ background_src: 'https://cdn.example.com/bg.jpg' }))),
    )
    const { container, unmount } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    expect(container.querySelector('img.page__background')).toHaveAttribute('src', 'https://cdn.example.com/bg.jpg')
    unmount()

    jest.spyOn(console, 'warn').mockImplementation(() => {})
    server.use(http.get(configRoute, () => HttpResponse.json(buildConfig({ background_src: 'javascript:alert(1)' }))))
    const second = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    expect(second.container.querySelector('img.page__background')).toBeNull()
  })

  test('without a button colour the button is black with white text', async () => {
    renderPortal()
    await screen.findByRole('heading', { level: 1 })
    expect(document.documentElement.style.getPropertyValue('--button-bg')).toBe('#000000')
    expect(document.documentElement.style.getPropertyValue('--button-fg')).toBe('#ffffff')
  })

  test('the optional tooltip describes the order field', async () => {
    server.use(
      http.get(configRoute, () =>
        HttpResponse.json(buildConfig({ order_tooltip_text: 'Find it in your confirmation e-mail' })),
      ),
    )
    renderPortal()
    expect(await screen.findByRole('textbox', { name: 'Order number' })).toHaveAccessibleDescription(
      'Find it in your confirmation e-mail',
    )
  })

  test('the tooltip has its own “?” button, and Escape closes it until the pointer or focus leaves it', async () => {
    server.use(
      http.get(configRoute, () =>
        HttpResponse.json(buildConfig({ order_tooltip_text: 'Find it in your confirmation e-mail' })),
      ),
    )
    const { user } = renderPortal()
    const help = await screen.findByRole('button', { name: 'Where to find your order number' })
    expect(help).toHaveAccessibleDescription('Find it in your confirmation e-mail')
    const tip = help.closest('.tooltip')!
    await user.hover(help)
    await user.keyboard('{Escape}')
    expect(tip).toHaveClass('tooltip--closed')
    await user.unhover(tip)
    expect(tip).not.toHaveClass('tooltip--closed')
  })

  test('no tooltip is shown when the shop has none', async () => {
    renderPortal()
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument()
  })

  test('shows the Test Mode banner only for testMode=1', async () => {
    const { unmount } = renderPortal({ route: '/?testMode=1' })
    expect(await screen.findByText('Test Mode')).toBeInTheDocument()
    // In a landmark, as everything on the page.
    expect(screen.getByRole('complementary')).toHaveTextContent('Test Mode')
    unmount()
    renderPortal({ route: '/?testMode=true' })
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByText('Test Mode')).not.toBeInTheDocument()
  })

  test('an unknown path shows the start screen', async () => {
    renderPortal({ route: '/no/such/page' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Start your return' })).toBeInTheDocument()
  })

  test.each([
    ['null', null],
    ['an array', []],
    ['an empty object', {}],
    ['a configuration without portal_id', { shop: 'demo' }],
  ])(
    "a configuration answer that is %s is a failed fetch: 'Error fetching config', no start screen",
    async (_name, body) => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => {})
      server.use(http.get(configRoute, () => HttpResponse.json(body)))
      renderPortal()
      expect(await screen.findByRole('alert')).toHaveTextContent('Error fetching config')
      expect(screen.queryByRole('textbox', { name: 'Order number' })).not.toBeInTheDocument()
      expect(warn).toHaveBeenCalledWith('configuration: no shop or portal_id')
      warn.mockRestore()
    },
  )

  test("a failed configuration fetch shows 'Error fetching config' and can be retried", async () => {
    let calls = 0
    server.use(
      http.get(configRoute, () => {
        calls += 1
        return calls === 1 ? new HttpResponse(null, { status: 500 }) : HttpResponse.json(buildConfig())
      }),
    )
    const { user } = renderPortal()
    expect(await screen.findByRole('alert')).toHaveTextContent('Error fetching config')
    // The page still has a heading to find and navigate by: the error itself.
    expect(screen.getByRole('heading', { level: 1, name: 'Error fetching config' })).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'Order number' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Start your return' })).toBeInTheDocument()
  })

  test('lang selects the configuration variant {subdomain}-{lang}', async () => {
    const ids: string[] = []
    server.use(
      http.get(configRoute, ({ params }) => {
        ids.push(String(params.id))
        return HttpResponse.json(buildConfig({ start_return_message: 'Rücksendung starten' }))
      }),
    )
    renderPortal({ route: '/?lang=de' })
    expect(await screen.findByRole('heading', { name: 'Rücksendung starten' })).toBeInTheDocument()
    expect(ids).toEqual(['demo-de'])
  })
})

describe('the config override', () => {
  beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}))

  test('is merged over the fetched configuration and shows the Preview marker', async () => {
    const override = encodeConfigOverride({ start_return_message: 'Preview welcome', button_color: 'green' })
    renderPortal({ route: `/?config=${override}` })
    expect(await screen.findByRole('heading', { name: 'Preview welcome' })).toBeInTheDocument()
    // A landmark of its own, so nothing of the page is outside one.
    expect(screen.getByRole('complementary', { name: 'Preview' })).toHaveTextContent(
      'Preview · configuration override active',
    )
    expect(document.documentElement.style.getPropertyValue('--button-bg')).toBe('#008000')
    // Fields the override leaves out come from the shop.
    expect(screen.getByRole('link', { name: 'help@example.com' })).toHaveAttribute('href', 'mailto:help@example.com')
  })

  test('hostile values are ignored field by field and markup stays text', async () => {
    const override = encodeConfigOverride({
      start_return_message: '<b>bold</b><script>alert(1)</script>',
      website_url: 'javascript:alert(1)',
      logo_src: 'data:image/svg+xml,<svg/onload=alert(1)>',
      button_color: 'red;background:url(//evil)',
      need_help_message: { html: '<i>x</i>' },
    })
    renderPortal({ route: `/?config=${override}` })
    expect(await screen.findByRole('heading', { name: '<b>bold</b><script>alert(1)</script>' })).toBeInTheDocument()
    expect(document.querySelector('script, b')).toBeNull()
    expect(screen.getByRole('link', { name: /website/i })).toHaveAttribute('href', 'https://shop.example.com/')
    expect(screen.getByRole('img', { name: /website/i })).toHaveAttribute(
      'src',
      'http://localhost/demo-assets/logo.svg',
    )
    expect(screen.getByRole('link', { name: 'help@example.com' })).toHaveAttribute('href', 'mailto:help@example.com')
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('website_url'))
    expect(screen.getByText('Preview')).toBeInTheDocument()
  })

  test.each([
    ['not base64', '%%%garbage'],
    ['base64 of no JSON', btoa('hello')],
    ['JSON without a field to use', encodeConfigOverride({ colour: 'pink' })],
  ])(
    'a value that gives nothing (%s) is ignored with a warning, and the marker says nothing is previewed',
    async (_name, value) => {
      renderPortal({ route: `/?config=${encodeURIComponent(value)}` })
      expect(await screen.findByRole('heading', { name: 'Start your return' })).toBeInTheDocument()
      expect(screen.getByRole('complementary', { name: 'Preview' })).toHaveTextContent(
        'Preview · the link’s configuration is unreadable',
      )
      expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('config override'))
    },
  )
})

describe('the e-mail field', () => {
  test('a bad e-mail says why once the shopper leaves the field, not while typing', async () => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(emailField(), 'jane@example')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await user.tab()
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a whole e-mail address, like name@example.com.')
    expect(emailField()).toBeInvalid()
    expect(emailField()).toHaveAccessibleDescription('Enter a whole e-mail address, like name@example.com.')
    await user.type(emailField(), '.com')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(emailField()).not.toBeInvalid()
  })

  test('an empty e-mail left behind is not an error yet', async () => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.click(emailField())
    await user.tab()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

describe('focus after a refused verify', () => {
  test('started with the button (disabled while verifying), the focus goes to the message, not to <body>', async () => {
    server.use(http.post(verifyRoute, () => HttpResponse.json({ error: 'invalid_order' }, { status: 400 })))
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(orderField(), '#1001')
    await user.type(emailField(), 'jane@example.com')
    await user.click(startButton())
    const message = await screen.findByRole('alert')
    await waitFor(() => expect(message).toHaveFocus())
  })
})

describe('the start button', () => {
  test.each([
    ['both empty', '', ''],
    ['no order name', '', 'jane@example.com'],
    ['an e-mail without a domain', '#1001', 'jane@'],
    ['an e-mail without a dot in the domain', '#1001', 'jane@example'],
  ])('is disabled with %s', async (_name, orderName, email) => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    if (orderName) await user.type(orderField(), orderName)
    if (email) await user.type(emailField(), email)
    expect(startButton()).toBeDisabled()
  })

  test('is enabled with an order name and a valid e-mail, and disabled while verifying', async () => {
    // The answer waits until the test has seen the verifying state (a busy machine cannot skip it).
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    server.use(
      http.post(verifyRoute, async () => {
        await answered
        return HttpResponse.json(buildOrder())
      }),
    )
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(orderField(), '#1001')
    await user.type(emailField(), 'jane@example.com')
    expect(startButton()).toBeEnabled()
    await user.click(startButton())
    expect(await screen.findByRole('status', { name: 'Verifying your order' })).toBeInTheDocument()
    expect(startButton()).toBeDisabled()
    answer()
    expect(await screen.findByRole('heading', { name: 'Choose the items to return' })).toBeInTheDocument()
  })

  test('Enter does nothing while the form is invalid', async () => {
    let calls = 0
    server.use(
      http.post(verifyRoute, () => {
        calls += 1
        return HttpResponse.json(buildOrder())
      }),
    )
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await fillAndSubmit(user, '#1001', 'jane@nowhere')
    expect(calls).toBe(0)
    expect(screen.getByRole('heading', { name: 'Start your return' })).toBeInTheDocument()
  })
})

describe('verification', () => {
  test('Enter verifies, sends the order to the API and goes to /products with the order in the store', async () => {
    let body: VerifyRequest | undefined
    server.use(
      http.post(verifyRoute, async ({ request }) => {
        body = (await request.json()) as VerifyRequest
        return HttpResponse.json(buildOrder({ order_name: '#1001' }))
      }),
    )
    const { user, router, store } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await fillAndSubmit(user, '  #1001 ', ' jane@example.com ')
    expect(await screen.findByRole('heading', { name: 'Choose the items to return' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/products')
    expect(body).toEqual({
      order_name: '#1001',
      email: 'jane@example.com',
      shop: 'demo-shop',
      portal_id: 'portal-demo',
    })
    expect(store.getState().returnFlow.order?.order_name).toBe('#1001')
  })

  test.each([
    ['invalid_order', 'We could not find that order.'],
    ['order_not_fulfilled', 'This order has not shipped yet.'],
    ['order_too_old', 'This order is past the return window.'],
    ['order_already_has_return', 'This order already has a return.'],
    ['something_else', 'We could not start your return.'],
  ])('a 400 with %s shows its configured message in the error line', async (code, message) => {
    server.use(http.post(verifyRoute, () => HttpResponse.json({ error: code }, { status: 400 })))
    const { user, router } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await fillAndSubmit(user, '#1002', 'sam@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    expect(router.state.location.pathname).toBe('/')
    expect(startButton()).toBeEnabled()
  })

  test.each([
    ['a 500', () => new HttpResponse(null, { status: 500 })],
    ['a 429', () => HttpResponse.json({ error: 'rate_limited' }, { status: 429 })],
    ['a network failure', () => HttpResponse.error()],
  ])("%s shows 'Something went wrong'", async (_name, resolver) => {
    server.use(http.post(verifyRoute, resolver))
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await fillAndSubmit(user, '#1001', 'jane@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Something went wrong$/)
  })

  test('verification is not retried by itself after a failure', async () => {
    let calls = 0
    server.use(
      http.post(verifyRoute, () => {
        calls += 1
        return new HttpResponse(null, { status: 503 })
      }),
    )
    const { user, store } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await fillAndSubmit(user, '#1001', 'jane@example.com')
    await screen.findByRole('alert')
    await settled(store)
    expect(calls).toBe(1)
  })

  test('product images are prefetched after a successful verify', async () => {
    const requested: string[] = []
    const RealImage = window.Image
    jest.spyOn(window, 'Image').mockImplementation(() => {
      const image = new RealImage()
      Object.defineProperty(image, 'src', { set: (value: string) => requested.push(value) })
      return image
    })
    server.use(
      http.post(verifyRoute, () =>
        HttpResponse.json(
          buildOrder({
            line_items: [
              buildLineItem({ product_src: 'https://cdn.example.com/tee.png' }),
              buildLineItem({ product_src: 'https://cdn.example.com/tee.png' }),
              buildLineItem({ product_src: 'javascript:alert(1)' }),
              buildLineItem({ product_src: '/demo-assets/mug.svg' }),
            ],
          }),
        ),
      ),
    )
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await fillAndSubmit(user, '#1001', 'jane@example.com')
    await screen.findByRole('heading', { name: 'Choose the items to return' })
    // After the step's first frame (docs/decisions/0098-server-bound-steps.md).
    await waitFor(() =>
      expect(requested).toEqual(['https://cdn.example.com/tee.png', 'http://localhost/demo-assets/mug.svg']),
    )
  })
})

describe('query parameters orderName and email', () => {
  test('pre-fill the fields and verify automatically once the configuration is loaded', async () => {
    const events: string[] = []
    server.use(
      http.get(configRoute, async () => {
        await delay(50)
        events.push('config')
        return HttpResponse.json(buildConfig())
      }),
      http.post(verifyRoute, () => {
        events.push('verify')
        return HttpResponse.json(buildOrder())
      }),
    )
    const { router } = renderPortal({ route: '/?orderName=%231001&email=jane%40example.com' })
    expect(await screen.findByRole('heading', { name: 'Choose the items to return' })).toBeInTheDocument()
    expect(events).toEqual(['config', 'verify'])
    expect(router.state.location.pathname).toBe('/products')
  })

  test('Back from the items reaches a usable start screen: the link’s order and e-mail left the address, the other parameters stayed', async () => {
    let verifies = 0
    server.use(http.post(verifyRoute, () => (verifies++, HttpResponse.json(buildOrder()))))
    const { router, store } = renderPortal({ route: '/?testMode=1&orderName=%231001&email=jane%40example.com' })
    expect(await screen.findByRole('heading', { name: 'Choose the items to return' })).toBeInTheDocument()
    router.back()
    expect(await screen.findByRole('heading', { level: 1, name: 'Start your return' })).toBeInTheDocument()
    expect(router.state.location).toMatchObject({ pathname: '/', search: '?testMode=1' })
    expect(screen.getByText('Test Mode')).toBeInTheDocument()
    expect(orderField()).toHaveValue('')
    // Nothing verified again: the shopper may now type another order.
    await settled(store)
    expect(verifies).toBe(1)
    expect(router.state.location.pathname).toBe('/')
  })

  test('pre-fill without verifying when the e-mail is not valid', async () => {
    let calls = 0
    server.use(
      http.post(verifyRoute, () => {
        calls += 1
        return HttpResponse.json(buildOrder())
      }),
    )
    renderPortal({ route: '/?orderName=1001&email=jane' })
    await screen.findByRole('heading', { level: 1 })
    expect(orderField()).toHaveValue('1001')
    expect(emailField()).toHaveValue('jane')
    expect(calls).toBe(0)
  })

  test('an auto-verification that fails shows its message and stays on the start screen', async () => {
    server.use(http.post(verifyRoute, () => HttpResponse.json({ error: 'order_too_old' }, { status: 400 })))
    renderPortal({ route: '/?orderName=1003&email=old%40example.com' })
    expect(await screen.findByRole('alert')).toHaveTextContent('This order is past the return window.')
    expect(orderField()).toHaveValue('1003')
  })
})

describe('the order-name prefix', () => {
  beforeEach(() => {
    server.use(http.get(configRoute, () => HttpResponse.json(buildConfig({ order_prefix: 'AC' }))))
  })

  test('typing digits gives the prefix, in upper case', async () => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(orderField(), '1001')
    expect(orderField()).toHaveValue('AC1001')
  })

  test('lower-case input is forced to upper case', async () => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(orderField(), 'ac1001')
    expect(orderField()).toHaveValue('AC1001')
  })

  test('EXC2001 can be typed key by key', async () => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(orderField(), 'exc2001')
    expect(orderField()).toHaveValue('EXC2001')
  })

  test('a rewrite keeps the caret where the shopper types, not at the end', async () => {
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(orderField(), '1001')
    expect(orderField()).toHaveValue('AC1001')
    // After AC: a letter in lower case is made upper case; the next key follows it.
    await user.type(orderField(), 'xy', { initialSelectionStart: 2, initialSelectionEnd: 2 })
    expect(orderField()).toHaveValue('ACXY1001')
    expect((orderField() as HTMLInputElement).selectionStart).toBe(4)
    // At the very start: the prefix goes in front of what was typed, and the caret after it.
    await user.type(orderField(), '9', { initialSelectionStart: 0, initialSelectionEnd: 0 })
    expect(orderField()).toHaveValue('AC9ACXY1001')
    expect((orderField() as HTMLInputElement).selectionStart).toBe(3)
  })

  test('a pre-filled order name is rewritten too', async () => {
    renderPortal({ route: '/?orderName=1001' })
    expect(await screen.findByRole('textbox', { name: 'Order number' })).toHaveValue('AC1001')
  })

  test('a beginning of the prefix (A, EX) is kept while typing but is not an order name: no button, no Enter, no verify', async () => {
    let verifies = 0
    server.use(http.post(verifyRoute, () => void verifies++))
    const { user } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.type(emailField(), 'ada@example.com')
    for (const typed of ['a', 'ex']) {
      await user.clear(orderField())
      await user.type(orderField(), `${typed}{Enter}`)
      expect(orderField()).toHaveValue(typed.toUpperCase())
      expect(startButton()).toBeDisabled()
    }
    await user.type(orderField(), 'c2001')
    expect(orderField()).toHaveValue('EXC2001')
    expect(startButton()).toBeEnabled()
    expect(verifies).toBe(0)
  })

  test('a link with a beginning of the prefix pre-fills it and waits for the shopper instead of verifying', async () => {
    let verifies = 0
    server.use(http.post(verifyRoute, () => void verifies++))
    renderPortal({ route: '/?orderName=a&email=ada%40example.com' })
    expect(await screen.findByRole('textbox', { name: 'Order number' })).toHaveValue('A')
    expect(startButton()).toBeDisabled()
    expect(verifies).toBe(0)
  })
})

describe('the stored return order', () => {
  test('opening the start screen clears it', async () => {
    const { store } = renderPortal({
      route: '/',
      preloadedState: { returnFlow: buildFlow() },
    })
    await screen.findByRole('heading', { level: 1, name: 'Start your return' })
    expect(store.getState().returnFlow.order).toBeNull()
  })

  test('a later step without a verified order sends the shopper to the start screen', async () => {
    const { router } = renderPortal({ route: '/confirm' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Start your return' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/')
  })

  test('a later step with a verified order shows its line items', async () => {
    renderPortal({
      route: '/products',
      preloadedState: {
        returnFlow: buildFlow({
          launch: { lang: null, testMode: true, configOverride: null },
          order: buildOrder({
            line_items: [buildLineItem({ title: 'Classic Tee' }), buildLineItem({ title: 'Ceramic Mug' })],
          }),
        }),
      },
    })
    const list = await screen.findByRole('list', { name: 'Items in this order' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Classic Tee'), expect.stringContaining('Ceramic Mug')])
    // The launch's Test Mode follows the shopper through the flow.
    expect(screen.getByText('Test Mode')).toBeInTheDocument()
  })
})

test('the whole start screen works by keyboard: tab to the fields, type, Enter', async () => {
  const { user } = renderPortal()
  await screen.findByRole('heading', { level: 1 })
  await user.tab()
  expect(screen.getByRole('link', { name: /website/i })).toHaveFocus()
  await user.tab()
  expect(orderField()).toHaveFocus()
  await user.keyboard('#1001')
  await user.tab()
  expect(emailField()).toHaveFocus()
  await user.keyboard('jane@example.com{Enter}')
  await waitFor(() => expect(screen.getByRole('heading', { name: 'Choose the items to return' })).toBeInTheDocument())
})

test('focus moves to the heading of each new screen', async () => {
  const { user } = renderPortal()
  await screen.findByRole('heading', { level: 1 })
  expect(screen.getByRole('heading', { level: 1 })).not.toHaveFocus()
  await fillAndSubmit(user, '#1001', 'jane@example.com')
  // After the frame that first draws the step (docs/decisions/0098-server-bound-steps.md).
  const heading = await screen.findByRole('heading', { name: 'Choose the items to return' })
  await waitFor(() => expect(heading).toHaveFocus())
})

describe('an order name longer than the API takes', () => {
  test('is said at once beside the field, the button stays enabled, and a press sends nothing', async () => {
    const sent = jest.fn()
    server.use(
      http.post(verifyRoute, () => {
        sent()
        return HttpResponse.json(buildOrder())
      }),
    )
    const { user, store } = renderPortal()
    await screen.findByRole('heading', { level: 1 })
    await user.click(orderField())
    await user.paste('1'.repeat(400))
    await user.type(emailField(), 'jane@example.com')
    const message = screen.getByRole('alert')
    expect(message).toHaveTextContent('An order number is at most 100 characters: check what you pasted.')
    expect(orderField()).toHaveAttribute('aria-invalid', 'true')
    expect(orderField()).toHaveAccessibleDescription(message.textContent ?? '')
    expect(startButton()).toBeEnabled()
    await user.click(startButton())
    await settled(store)
    expect(sent).not.toHaveBeenCalled()
    // Back within the limit, the message goes.
    await user.clear(orderField())
    await user.type(orderField(), '#1001')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(orderField()).not.toHaveAttribute('aria-invalid')
  })
})
