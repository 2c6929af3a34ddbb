import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ExchangeData, ReturnRequest, VerifiedOrder, ReturnReason } from '../../../contract/api'
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
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/tee/exchange'))
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
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))
  })

  test('an item whose only option is its own variant is not exchangeable', async () => {
    const { router } = renderExchange('tee', [reasoned('tee')], {
      exchange_data: { options: { 'v-m': ['v-m'] }, upsell_enabled: false, variants: { 'v-m': size('v-m', 'M') } },
    })
    await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Classic Tee?' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/tee/return-reason'))
  })

  test('an item that was not chosen goes to the item selection', async () => {
    const { router } = renderExchange('tee', [reasoned('mug')])
    await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'))
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

  test('the choice is stored as it is made, so a reload of the step keeps it (docs/rules.md §16.4)', async () => {
    const { user, router, store } = renderExchange('tee', [reasoned('tee')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Size S' }))
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-s' })
    await user.click(screen.getByRole('radio', { name: /Refund instead/ }))
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'refund' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/tee/exchange'))
  })
})

describe('fit-aware exchange', () => {
  const size = (id: string, value: string, available = true) =>
    buildVariant({ id, title: value, options: [{ name: 'Size', value }], available })
  const tee = buildLineItem({ id: 'tee', title: 'Classic Tee', variant_title: 'M', variant_id: 'v-m' })
  const exchangeData = (out: string[] = []): ExchangeData => ({
    options: { 'v-m': ['v-s', 'v-m', 'v-l', 'v-xl'] },
    upsell_enabled: false,
    variants: Object.fromEntries(
      ['S', 'M', 'L', 'XL'].map((value) => [
        `v-${value.toLowerCase()}`,
        size(`v-${value.toLowerCase()}`, value, !out.includes(value)),
      ]),
    ),
  })
  const reasons: ReturnReason[] = [
    { id: 'too_small', label: 'Too small', comment_required: false, fit: 'too_small' },
    { id: 'too_large', label: 'Too large', comment_required: false, fit: 'too_large' },
    { id: 'changed_mind', label: 'Changed my mind', comment_required: false },
  ]
  const chosen = (reasonId: string, exchange: ChosenItem['exchange'] = null): ChosenItem => ({
    lineItemId: 'tee',
    quantity: 1,
    reason: { id: reasonId, comment: '' },
    exchange,
  })

  function renderExchange(item: ChosenItem, out: string[] = []) {
    return renderPortal({
      route: '/return-item/tee/exchange',
      preloadedState: {
        returnFlow: buildFlow({
          order: buildOrder({ line_items: [tee], exchange_data: exchangeData(out), return_reasons: reasons }),
          items: [item],
        }),
      },
    })
  }

  const variantsGroup = () => screen.getByRole('group', { name: 'Exchange for another variant' })
  const continueButton = () => screen.getByRole('button', { name: /continue/i })

  test('too small: the next size up is preselected and the group says why, to the eye and to screen readers', async () => {
    // Every item exchanged: the flow goes on to confirm, which asks for a quote.
    server.use(http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('0.00'))))
    const { user, router, store } = renderExchange(chosen('too_small'))
    await screen.findByRole('heading', { level: 1 })
    const why = 'We picked size L, one size up, because you said size M was too small. You can choose another.'
    expect(screen.getByRole('radio', { name: 'Size L' })).toBeChecked()
    expect(screen.getByText(why)).toBeVisible()
    expect(variantsGroup()).toHaveAccessibleDescription(why)
    expect(screen.getByText('Suggested')).toBeVisible()
    // Nothing is stored until the shopper moves on: the suggestion is not their choice yet.
    expect(store.getState().returnFlow.items[0]!.exchange).toBeNull()
    await user.click(continueButton())
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-l' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  })

  test('too large: the next size down is preselected', async () => {
    renderExchange(chosen('too_large'))
    expect(await screen.findByRole('radio', { name: 'Size S' })).toBeChecked()
    expect(
      screen.getByText(
        'We picked size S, one size down, because you said size M was too large. You can choose another.',
      ),
    ).toBeVisible()
  })

  test('the next size out of stock: the nearest one in stock beyond it, and the words say it was not the next', async () => {
    renderExchange(chosen('too_small'), ['L'])
    expect(await screen.findByRole('radio', { name: 'Size XL' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Size L Out of stock' })).not.toBeChecked()
    expect(
      screen.getByText(
        'We picked size XL, the next larger size we have, because you said size M was too small. You can choose another.',
      ),
    ).toBeVisible()
  })

  test('no size in that direction in stock: nothing preselected, it says so, and Continue still asks for a choice', async () => {
    const { user, router } = renderExchange(chosen('too_large'), ['S'])
    await screen.findByRole('heading', { level: 1 })
    const why =
      'You said size M was too large, but we have no smaller size right now. You can choose another option or a refund.'
    expect(screen.getByText(why)).toBeVisible()
    expect(variantsGroup()).toHaveAccessibleDescription(why)
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked()
    expect(screen.queryByText('Suggested')).not.toBeInTheDocument()
    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a replacement or Refund instead to continue.')
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/tee/exchange'))
  })

  test('the shopper can choose another size: it is stored at once, and the suggestion does not come back', async () => {
    const { user, store } = renderExchange(chosen('too_small'))
    await user.click(await screen.findByRole('radio', { name: 'Size S' }))
    expect(screen.getByRole('radio', { name: 'Size S' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Size L' })).not.toBeChecked()
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-s' })
  })

  test.each<[string, ChosenItem['exchange'], string]>([
    ['another size', { kind: 'exchange', variantId: 'v-s' }, 'Size S'],
    ['a refund', { kind: 'refund' }, 'Refund instead'],
  ])('a choice made before (%s) is restored, never replaced by the suggestion', async (_name, exchange, checked) => {
    renderExchange(chosen('too_small', exchange))
    expect(await screen.findByRole('radio', { name: new RegExp(`^${checked}`) })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Size L' })).not.toBeChecked()
  })

  test('a reason without a fit marker preselects nothing and says nothing about sizes', async () => {
    renderExchange(chosen('changed_mind'))
    await screen.findByRole('heading', { level: 1 })
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked()
    expect(screen.queryByText(/We picked/)).not.toBeInTheDocument()
    expect(variantsGroup()).not.toHaveAccessibleDescription()
  })

  test('in German, the reason is given in German', async () => {
    renderPortal({
      route: '/return-item/tee/exchange',
      preloadedState: {
        returnFlow: buildFlow({
          launch: { lang: 'de', testMode: false, configOverride: null },
          order: buildOrder({ line_items: [tee], exchange_data: exchangeData(), return_reasons: reasons }),
          items: [chosen('too_small')],
        }),
      },
    })
    expect(
      await screen.findByText(
        'Wir haben Größe L gewählt, eine Nummer größer, weil Ihnen Größe M zu klein war. Sie können auch etwas anderes wählen.',
      ),
    ).toBeVisible()
    // The options say "Größe" too, never the catalogue's English "Size" beside it.
    expect(screen.getByRole('radio', { name: /^Größe L/ })).toBeChecked()
    expect(screen.queryByText(/Size/)).not.toBeInTheDocument()
  })
})
