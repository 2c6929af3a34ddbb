import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ExchangeData, ReturnRequest, VerifiedOrder } from '../../api/contract'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildConfig, buildFlow, buildLineItem, buildOrder, buildQuote, buildVariant } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const size = (id: string, value: string, available = true) =>
  buildVariant({ id, title: value, options: [{ name: 'Size', value }], available })
const tee = buildLineItem({ id: 'tee', title: 'Classic Tee', variant_title: 'M', variant_id: 'v-m' })
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const teeExchange = (upsell = false): ExchangeData => ({
  options: { 'v-m': ['v-s', 'v-m', 'v-l', 'v-xl'] },
  upsell_enabled: upsell,
  variants: {
    'v-s': size('v-s', 'S'),
    'v-m': size('v-m', 'M'),
    'v-l': size('v-l', 'L'),
    'v-xl': size('v-xl', 'XL', false),
  },
})
const reasoned = (lineItemId: string, more: Partial<ChosenItem> = {}): ChosenItem => ({
  lineItemId,
  quantity: 1,
  reason: { id: 'too-small', comment: '' },
  exchange: null,
  ...more,
})

function renderExchange(id: string, items: ChosenItem[], order: Partial<VerifiedOrder> = {}) {
  return renderPortal({
    route: `/return-item/${id}/exchange`,
    preloadedState: {
      returnFlow: buildFlow({
        order: buildOrder({ line_items: [tee, mug], exchange_data: teeExchange(), ...order }),
        items,
      }),
    },
  })
}

const continueButton = () => screen.getByRole('button', { name: /continue/i })

describe('exchange', () => {
  test('offers the other variants by their option values, out-of-stock ones shown but disabled, and a refund', async () => {
    renderExchange('tee', [reasoned('tee')])
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Would you like to exchange the Classic Tee?' }),
    ).toBeInTheDocument()
    const variants = screen.getByRole('group', { name: 'Exchange for another variant' })
    expect(
      within(variants)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['v-s', 'v-l', 'v-xl'])
    expect(screen.getByRole('radio', { name: 'Size S' })).toBeEnabled()
    expect(screen.getByRole('radio', { name: 'Size L' })).toBeEnabled()
    expect(screen.getByRole('radio', { name: 'Size XL Out of stock' })).toBeDisabled()
    // The variant bought is not offered as its own exchange.
    expect(screen.queryByRole('radio', { name: /Size M/ })).not.toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Refund instead/ })).toBeEnabled()
    expect(screen.getByText('You have: M')).toBeInTheDocument()
  })

  test('Refund instead says what happens to the item: sent back, or kept when the shop refunds it without its return', async () => {
    const { unmount } = renderExchange('tee', [reasoned('tee')])
    expect(
      await screen.findByRole('radio', { name: 'Refund instead Send it back without a replacement.' }),
    ).toBeInTheDocument()
    unmount()
    renderExchange('tee', [reasoned('tee')], { line_items: [{ ...tee, keep_if_refunded: true }, mug] })
    expect(
      await screen.findByRole('radio', {
        name: 'Refund instead Keep it: we refund it, and there is no need to send it back.',
      }),
    ).toBeInTheDocument()
    expect(screen.queryByText('Send it back without a replacement.')).not.toBeInTheDocument()
  })

  test('an exchange is stored and the flow moves on by the rules (here: confirm)', async () => {
    const { user, router, store } = renderExchange('tee', [reasoned('tee')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Size L' }))
    await user.click(continueButton())
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-l' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  })

  test('Refund instead is stored, and with upsell enabled the last item goes to the upsell offer', async () => {
    const { user, router, store } = renderExchange('tee', [reasoned('tee')], { exchange_data: teeExchange(true) })
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: /Refund instead/ }))
    await user.click(continueButton())
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'refund' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/upsell-offer'))
  })

  test('an item that is not the last goes on to the next item’s reason', async () => {
    const { user, router } = renderExchange('tee', [reasoned('tee'), reasoned('mug', { reason: null })])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Size S' }))
    await user.click(continueButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))
  })

  test('Continue without a choice says so and stays', async () => {
    const { user, router, store } = renderExchange('tee', [reasoned('tee')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a replacement or Refund instead to continue.')
    expect(screen.getByRole('radio', { name: 'Size S' })).toHaveFocus()
    expect(router.state.location.pathname).toBe('/return-item/tee/exchange')
    expect(store.getState().returnFlow.items[0]!.exchange).toBeNull()
  })

  test('a reload restores the choice made before', async () => {
    const { unmount } = renderExchange('tee', [reasoned('tee', { exchange: { kind: 'exchange', variantId: 'v-l' } })])
    expect(await screen.findByRole('radio', { name: 'Size L' })).toBeChecked()
    unmount()
    renderExchange('tee', [reasoned('tee', { exchange: { kind: 'refund' } })])
    expect(await screen.findByRole('radio', { name: /Refund instead/ })).toBeChecked()
  })

  test('a non-exchangeable item goes to its return-reason step instead', async () => {
    const { router } = renderExchange('mug', [reasoned('tee'), reasoned('mug')])
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Ceramic Mug?' }),
    ).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/return-item/mug/return-reason')
  })

  test('an item whose only option is its own variant is not exchangeable', async () => {
    const { router } = renderExchange('tee', [reasoned('tee')], {
      exchange_data: { options: { 'v-m': ['v-m'] }, upsell_enabled: false, variants: { 'v-m': size('v-m', 'M') } },
    })
    await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Classic Tee?' })
    expect(router.state.location.pathname).toBe('/return-item/tee/return-reason')
  })

  test('an item that was not chosen goes to the item selection', async () => {
    const { router } = renderExchange('tee', [reasoned('mug')])
    await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })
    expect(router.state.location.pathname).toBe('/products')
  })

  test('when the next step hangs on the refund value, Continue waits for the quote with a spinner', async () => {
    let body: ReturnRequest | undefined
    // The quote waits until the test has seen the waiting state (a busy machine cannot skip it).
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    server.use(
      http.get('*/portal-registration/config/:id', () =>
        HttpResponse.json(buildConfig({ gift_card_value_multiplier: 1.1 })),
      ),
      http.post('*/portal-registration/returns/quote', async ({ request }) => {
        body = (await request.json()) as ReturnRequest
        await answered
        return HttpResponse.json(buildQuote('25.00'))
      }),
    )
    const { user, router, store } = renderExchange('tee', [reasoned('tee')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: /Refund instead/ }))
    await user.click(continueButton())
    expect(await screen.findByRole('status', { name: 'Moving on' })).toBeInTheDocument()
    expect(continueButton()).toBeDisabled()
    answer()

    // The next screen belongs to another step; only where the flow went is asserted here.
    await waitFor(() => expect(router.state.location.pathname).toBe('/refund-method'))
    expect(body?.items).toEqual([
      { line_item_id: 'tee', quantity: 1, reason_id: 'too-small', exchange_variant_id: null },
    ])
    expect(store.getState().returnFlow.quote?.refund_value.presentment_money.amount).toBe('25.00')
  })

  test('a quote of zero skips the refund method and goes to confirm', async () => {
    server.use(
      http.get('*/portal-registration/config/:id', () =>
        HttpResponse.json(buildConfig({ gift_card_value_multiplier: 1.1 })),
      ),
      http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('0.00'))),
    )
    const { user, router } = renderExchange('tee', [reasoned('tee')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: /Refund instead/ }))
    await user.click(continueButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  })

  test('the choice is stored as it is made, so a reload of the step keeps it (PRODUCT.md §7)', async () => {
    const { user, router, store } = renderExchange('tee', [reasoned('tee')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Size S' }))
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-s' })
    await user.click(screen.getByRole('radio', { name: /Refund instead/ }))
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'refund' })
    expect(router.state.location.pathname).toBe('/return-item/tee/exchange')
  })
})
