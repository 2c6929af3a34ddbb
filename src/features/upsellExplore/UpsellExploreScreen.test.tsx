import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnRequest } from '../../../contract/api'
import { screenLoaders } from '../../app/screens'
import type { ChosenItem, ReturnFlowState } from '../returnFlow/returnFlowSlice'
import {
  buildCatalogue,
  buildConfig,
  buildFlow,
  buildLineItem,
  buildOrder,
  buildProduct,
  buildQuote,
  buildVariant,
  money,
  returnedElsewhere,
} from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const quoteRoute = '*/portal-registration/returns/quote'
const catalogueRoute = '*/portal-registration/catalogue'
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_id: null, variant_title: null })
const refunded: ChosenItem = {
  lineItemId: 'mug',
  quantity: 1,
  reason: { id: 'too-small', comment: '' },
  exchange: null,
}
const hoodie = (id: string, size: string, price: string, available = true) =>
  buildVariant({
    id,
    product_id: 'hoodie',
    product_title: 'Zip Hoodie',
    title: size,
    options: [{ name: 'Size', value: size }],
    price: money(price),
    available,
  })
const catalogue = buildCatalogue([
  buildProduct({
    id: 'hoodie',
    title: 'Zip Hoodie',
    variants: [hoodie('h-s', 'S', '27.50'), hoodie('h-m', 'M', '27.51'), hoodie('h-l', 'L', '20.00', false)],
  }),
  buildProduct({
    id: 'tote',
    title: 'Canvas Tote',
    image_src: 'javascript:alert(1)',
    variants: [
      buildVariant({
        id: 'tote-1',
        title: 'Natural',
        options: [{ name: 'Colour', value: 'Natural' }],
        price: money('12.00'),
      }),
    ],
  }),
])
/** A product with nothing within the credit. */
const coat = buildProduct({
  id: 'coat',
  title: 'Wool Coat',
  variants: [buildVariant({ id: 'coat-1', price: money('90.00') })],
})
// Refund 25.00; as store credit (×1.1) 27.50.
const quote = buildQuote('25.00', { store_credit_value: money('27.50') })

function renderExplore(flow: Partial<ReturnFlowState> = {}) {
  return renderPortal({
    route: '/upsell-explore',
    preloadedState: {
      returnFlow: buildFlow({
        order: buildOrder({ line_items: [mug], exchange_data: { options: {}, upsell_enabled: true, variants: {} } }),
        items: [refunded],
        upsell: { kind: 'accepted', variantId: null },
        ...flow,
      }),
    },
  })
}

function answer(bodies: ReturnRequest[] = []) {
  server.use(
    http.get(catalogueRoute, () => HttpResponse.json(catalogue)),
    http.post(quoteRoute, async ({ request }) => {
      bodies.push((await request.json()) as ReturnRequest)
      return HttpResponse.json(quote)
    }),
  )
}

describe('upsell exploration', () => {
  test('in German a size is named "Größe", never the catalogue’s "Size"; the shop’s other options as written', async () => {
    answer()
    renderExplore({ launch: { lang: 'de', testMode: false, configOverride: null } })
    const hoodieGroup = await screen.findByRole('group', { name: 'Zip Hoodie' })
    expect(within(hoodieGroup).getByRole('radio', { name: /^Größe S/ })).toBeInTheDocument()
    expect(screen.queryByText(/Size/)).not.toBeInTheDocument()
    expect(
      within(screen.getByRole('group', { name: 'Canvas Tote' })).getByRole('radio', { name: /^Colour Natural/ }),
    ).toBeInTheDocument()
  })

  test('what can be chosen comes first; products with nothing within the credit or in stock are folded away', async () => {
    answer()
    server.use(
      http.get(catalogueRoute, () =>
        HttpResponse.json(
          buildCatalogue([
            coat,
            buildProduct({
              id: 'cap',
              title: 'Cap',
              variants: [buildVariant({ id: 'cap-1', price: money('10.00'), available: false })],
            }),
            ...catalogue.products,
          ]),
        ),
      ),
    )
    const { user } = renderExplore()
    await screen.findByRole('group', { name: 'Zip Hoodie' })
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)
    expect(headings).toEqual(['Zip Hoodie', 'Canvas Tote', 'Wool Coat', 'Cap'])
    // The last two sit in a closed disclosure (jsdom does not hide its content; the journey checks that).
    const more = screen.getByText('Show 2 more items: above your credit or sold out').closest('details')!
    expect(more).not.toHaveAttribute('open')
    expect(
      within(more)
        .getAllByRole('heading')
        .map((heading) => heading.textContent),
    ).toEqual(['Wool Coat', 'Cap'])
    await user.click(screen.getByText('Show 2 more items: above your credit or sold out'))
    expect(more).toHaveAttribute('open')
  })

  test('nothing within the credit says so', async () => {
    server.use(
      http.get(catalogueRoute, () => HttpResponse.json(buildCatalogue([coat]))),
      http.post(quoteRoute, () => HttpResponse.json(quote)),
    )
    renderExplore()
    expect(await screen.findByText(/Nothing in the shop fits your credit right now/)).toBeInTheDocument()
    expect(screen.getByText('Show 1 more item: above your credit or sold out')).toBeInTheDocument()
  })

  test('the pick is named with its price beside the button, and kept in the flow at once', async () => {
    answer()
    const { user, store } = renderExplore()
    expect(await screen.findByText('Pick an item above.')).toBeInTheDocument()
    await user.click(await screen.findByRole('radio', { name: /^Size S/ }))
    const bar = screen.getByText('Your pick:').closest('p')!
    expect(bar).toHaveTextContent('Your pick: Zip Hoodie · Size S€27.50')
    // A reload (the persisted flow) or a support code keeps it, like an exchange's size.
    expect(store.getState().returnFlow.upsell).toEqual({ kind: 'accepted', variantId: 'h-s' })
  })

  test('shows the credit and the catalogue, greying out what is out of stock or above the credit', async () => {
    const bodies: ReturnRequest[] = []
    answer(bodies)
    const { store } = renderExplore()
    expect(await screen.findByRole('heading', { level: 1, name: 'Find something new' })).toBeInTheDocument()
    expect(await screen.findByText('€27.50', { selector: '.explore__credit .amount' })).toBeInTheDocument()
    const hoodieGroup = screen.getByRole('group', { name: 'Zip Hoodie' })
    expect(within(hoodieGroup).getByRole('radio', { name: /^Size S €27\.50/ })).toBeEnabled()
    expect(within(hoodieGroup).getByRole('radio', { name: /^Size M €27\.51 More than your credit/ })).toBeDisabled()
    expect(within(hoodieGroup).getByRole('radio', { name: /^Size L €20\.00 Out of stock/ })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /Colour Natural €12\.00/ })).toBeEnabled()
    expect(screen.getByRole('heading', { level: 2, name: 'Canvas Tote' })).toBeInTheDocument()
    // Only http(s) images: the tote's script URL is dropped.
    expect(document.querySelectorAll('img.explore__image')).toHaveLength(1)
    expect(document.querySelector('img[src^="javascript"]')).toBeNull()
    // The credit is priced as store credit without any upsell, and is not the flow's stored quote.
    expect(bodies).toEqual([
      {
        items: [{ line_item_id: 'mug', quantity: 1, reason_id: 'too-small', exchange_variant_id: null }],
        upsell_variant_id: null,
        refund_method: 'store_credit',
      },
    ])
    expect(store.getState().returnFlow.quote).toBeNull()
  })

  test('without store credit the refund is the credit', async () => {
    server.use(
      http.get(catalogueRoute, () => HttpResponse.json(catalogue)),
      http.post(quoteRoute, () => HttpResponse.json(buildQuote('27.51'))),
    )
    renderExplore()
    expect(await screen.findByRole('radio', { name: /^Size M €27\.51$/ })).toBeEnabled()
  })

  test('choosing a variant stores it and goes to confirm', async () => {
    answer()
    const { user, router, store } = renderExplore()
    await user.click(await screen.findByRole('radio', { name: /^Size S/ }))
    await user.click(screen.getByRole('button', { name: 'Choose this item' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
    expect(store.getState().returnFlow.upsell).toEqual({ kind: 'accepted', variantId: 'h-s' })
  })

  test('Choose without a pick says so, and Continue without a new item goes on without one', async () => {
    answer()
    const { user, router, store } = renderExplore()
    await user.click(await screen.findByRole('button', { name: 'Choose this item' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a new item, or continue without one.')
    expect(screen.getByRole('radio', { name: /^Size S/ })).toHaveFocus()
    expect(router.state.location.pathname).toBe('/upsell-explore')
    await user.click(screen.getByRole('button', { name: 'Continue without a new item' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
    expect(store.getState().returnFlow.upsell).toEqual({ kind: 'accepted', variantId: null })
  })

  test('with a multiplier, going on without a new item leads to the refund method', async () => {
    answer()
    server.use(
      http.get('*/portal-registration/config/:id', () =>
        HttpResponse.json(buildConfig({ gift_card_value_multiplier: 1.1 })),
      ),
    )
    const { user, router } = renderExplore()
    await user.click(await screen.findByRole('button', { name: 'Continue without a new item' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/refund-method'))
  })

  /**
   * A shop with a 1.1 multiplier and the catalogue; each quote asked is told to `seen`, and answered
   * `remainder` with a new item, the quote without.
   */
  const withMultiplier = (remainder: string, seen: (body: ReturnRequest) => void) =>
    server.use(
      http.get('*/portal-registration/config/:id', () =>
        HttpResponse.json(buildConfig({ gift_card_value_multiplier: 1.1 })),
      ),
      http.get(catalogueRoute, () => HttpResponse.json(catalogue)),
      http.post(quoteRoute, async ({ request }) => {
        const body = (await request.json()) as ReturnRequest
        seen(body)
        return HttpResponse.json(body.upsell_variant_id ? buildQuote(remainder) : quote)
      }),
    )

  test('with a multiplier, a new item is priced before moving on: taking the whole credit goes to confirm, a remainder to the refund method', async () => {
    for (const [remainder, next] of [
      ['0.00', '/confirm'],
      ['2.50', '/refund-method'],
    ] as const) {
      const bodies: ReturnRequest[] = []
      // The exploration's credit is asked without the new item; the flow's quote with it.
      withMultiplier(remainder, (body) => bodies.push(body))
      const { user, router, store, unmount } = renderExplore()
      await user.click(await screen.findByRole('radio', { name: /^Size S/ }))
      await user.click(screen.getByRole('button', { name: 'Choose this item' }))
      // A new item is no exchange of the mug: the remainder decides (rule 3).
      await waitFor(() => expect(router.state.location.pathname).toBe(next))
      // The credit, the choices without a new item (asked ahead, for Continue without one) and with
      // the new item (as it is picked, or at Choose), each asked once by this screen. The confirm
      // screen asks the same choices again on arrival (it always asks afresh), after its first frame.
      if (next === '/confirm') await waitFor(() => expect(bodies).toHaveLength(4))
      const asked = bodies.map((body) => [body.upsell_variant_id, body.refund_method])
      expect(asked.slice(0, 3).map(String).sort()).toEqual([',', ',store_credit', 'h-s,'])
      expect(
        asked.slice(3).every(([variant, method]) => next === '/confirm' && variant === 'h-s' && method === null),
      ).toBe(true)
      expect(store.getState().returnFlow.upsell).toEqual({ kind: 'accepted', variantId: 'h-s' })
      unmount()
    }
  })

  test('with a multiplier, a pick is priced while the shopper looks: Choose then moves on without waiting', async () => {
    const answered: string[] = []
    withMultiplier('2.50', (body) => answered.push(`${body.upsell_variant_id}`))
    // The steps' chunks come in the background once the flow has begun (app/preloadSteps.ts).
    await screenLoaders.refundMethod.preload()
    const { user, router, store } = renderExplore()
    await user.click(await screen.findByRole('radio', { name: /^Size S/ }))
    // The pick's quote answered: the next step is known when Choose is pressed.
    await waitFor(() =>
      expect(
        Object.values(store.getState().portalApi.queries).some(
          (entry) =>
            entry?.endpointName === 'quoteReturn' &&
            entry.data !== undefined &&
            (entry.originalArgs as { body: ReturnRequest }).body.upsell_variant_id === 'h-s',
        ),
      ).toBe(true),
    )
    await user.click(screen.getByRole('button', { name: 'Choose this item' }))
    expect(router.state.location.pathname).toBe('/refund-method')
    expect(answered.filter((variant) => variant === 'h-s')).toHaveLength(1)
  })

  test('a variant chosen before is restored', async () => {
    answer()
    renderExplore({ upsell: { kind: 'accepted', variantId: 'tote-1' } })
    expect(await screen.findByRole('radio', { name: /Colour Natural/ })).toBeChecked()
  })

  test('a spinner while loading; a failed catalogue is announced and Try again loads it', async () => {
    let calls = 0
    server.use(
      http.get(catalogueRoute, () => (++calls === 1 ? HttpResponse.error() : HttpResponse.json(catalogue))),
      http.post(quoteRoute, () => HttpResponse.json(quote)),
    )
    const { user } = renderExplore()
    expect(await screen.findByRole('status', { name: 'Loading the shop’s items' })).toBeInTheDocument()
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load the shop’s items.')
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('group', { name: 'Zip Hoodie' })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  test('an expired session says so with a way to start again', async () => {
    server.use(
      http.get(catalogueRoute, () => HttpResponse.json({ error: 'unauthorized' }, { status: 401 })),
      http.post(quoteRoute, () => HttpResponse.json({ error: 'unauthorized' }, { status: 401 })),
    )
    renderExplore()
    expect(await screen.findByRole('alert')).toHaveTextContent('Your session has expired')
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/')
  })

  test('items returned meanwhile from another tab: named with a link to that return, never "try again"', async () => {
    let quotes = 0
    server.use(
      http.get(catalogueRoute, () => HttpResponse.json(catalogue)),
      http.post(quoteRoute, () => (quotes++, HttpResponse.json(returnedElsewhere('mug'), { status: 422 }))),
      http.get('*/portal-registration/order', () =>
        HttpResponse.json({ error: 'order_already_has_return' }, { status: 409 }),
      ),
    )
    const { user, router } = renderExplore()
    expect(await screen.findByRole('heading', { name: 'Some of your choices no longer work' })).toHaveFocus()
    expect(screen.getByText('Ceramic Mug was already returned, in return #1001-R1.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See return #1001-R1' })).toHaveAttribute('href', '/status/r-7#sig')
    expect(screen.queryByText(/could not work out your credit/i)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
    expect(quotes).toBe(1)

    // Every unit of the order went back: the items step says so instead of offering the mug again.
    await user.click(screen.getByRole('link', { name: 'Change your items' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'))
    const mugBox = await screen.findByRole('checkbox', { name: /Ceramic Mug/ })
    expect(mugBox).toBeDisabled()
    expect(mugBox.closest('li')).toHaveTextContent('Already returned')
  })
})
