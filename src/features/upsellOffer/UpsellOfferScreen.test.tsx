import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { screenLoaders } from '../../app/screens'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import {
  buildCatalogue,
  buildConfig,
  buildFlow,
  buildLineItem,
  buildOrder,
  buildQuote,
  money,
} from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const tee = buildLineItem({ id: 'tee', title: 'Classic Tee', variant_id: 'v-m' })
const refunded: ChosenItem = {
  lineItemId: 'tee',
  quantity: 1,
  reason: { id: 'too-small', comment: '' },
  exchange: { kind: 'refund' },
}

/** The calls of the screens the offer leads to, so the next screen can load. */
function nextScreensAnswer(multiplier: number | null = null) {
  server.use(
    http.get('*/portal-registration/config/:id', () =>
      HttpResponse.json(buildConfig({ gift_card_value_multiplier: multiplier })),
    ),
    http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('25.00'))),
    http.get('*/portal-registration/catalogue', () => HttpResponse.json(buildCatalogue())),
  )
}

function renderOffer() {
  return renderPortal({
    route: '/upsell-offer',
    preloadedState: {
      returnFlow: buildFlow({
        order: buildOrder({ line_items: [tee], exchange_data: { options: {}, upsell_enabled: true, variants: {} } }),
        items: [refunded],
      }),
    },
  })
}

describe('upsell offer', () => {
  test('says the credit in money and how it is made: the items, less the return fee, plus the bonus', async () => {
    nextScreensAnswer(1.1)
    const asked: unknown[] = []
    server.use(
      http.post('*/portal-registration/returns/quote', async ({ request }) => {
        asked.push(await request.json())
        return HttpResponse.json(
          buildQuote('21.05', {
            store_credit_value: money('23.16'),
            breakdown: {
              items_subtotal: money('21.01'),
              tax: money('3.99'),
              return_fee: money('3.95'),
              bonus: money('2.11'),
              upsell: money('0.00'),
              total: money('23.16'),
            },
          }),
        )
      }),
    )
    renderOffer()
    expect(
      await screen.findByText(
        'You have €23.16 to spend: €25.00 for your items, less the €3.95 return fee, plus a €2.11 bonus.',
      ),
    ).toBeInTheDocument()
    // Asked as the exploration asks it: store credit, no new item (the choices as they are are asked too).
    expect(asked).toContainEqual(expect.objectContaining({ upsell_variant_id: null, refund_method: 'store_credit' }))
  })

  test('without a fee or a bonus, the credit is the items’ value alone', async () => {
    nextScreensAnswer(null)
    server.use(
      http.post('*/portal-registration/returns/quote', () =>
        HttpResponse.json(
          buildQuote('25.00', {
            store_credit_value: null,
            breakdown: {
              items_subtotal: money('21.01'),
              tax: money('3.99'),
              return_fee: money('0.00'),
              bonus: money('0.00'),
              upsell: money('0.00'),
              total: money('25.00'),
            },
          }),
        ),
      ),
    )
    renderOffer()
    expect(await screen.findByText('You have €25.00 to spend: €25.00 for your items.')).toBeInTheDocument()
  })

  test('with a gift-card multiplier the bonus is shown as a percent', async () => {
    nextScreensAnswer(1.1)
    renderOffer()
    expect(await screen.findByRole('heading', { level: 1, name: 'Exchange for something new?' })).toBeInTheDocument()
    expect(await screen.findByText('+10%')).toBeInTheDocument()
    expect(screen.getByText(/keep a 10% bonus on top/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Yes, show me new items' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'No thanks, continue with my return' })).toBeEnabled()
  })

  test('without a multiplier no bonus is promised', async () => {
    nextScreensAnswer(null)
    renderOffer()
    await screen.findByRole('heading', { level: 1, name: 'Exchange for something new?' })
    expect(screen.queryByText(/%/)).not.toBeInTheDocument()
    expect(screen.queryByText(/bonus/i)).not.toBeInTheDocument()
  })

  test('accepting is stored and leads to the exploration', async () => {
    nextScreensAnswer(1.1)
    const { user, router, store } = renderOffer()
    await user.click(await screen.findByRole('button', { name: 'Yes, show me new items' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/upsell-explore'))
    expect(store.getState().returnFlow.upsell).toEqual({ kind: 'accepted', variantId: null })
  })

  test('declining is stored and goes on by the rules: the refund method with a multiplier', async () => {
    nextScreensAnswer(1.1)
    const { user, router, store } = renderOffer()
    await user.click(await screen.findByRole('button', { name: 'No thanks, continue with my return' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/refund-method'))
    expect(store.getState().returnFlow.upsell).toEqual({ kind: 'declined' })
  })

  test('declining without a multiplier goes to confirm', async () => {
    nextScreensAnswer(null)
    const { user, router } = renderOffer()
    await user.click(await screen.findByRole('button', { name: 'No thanks, continue with my return' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  })
})

test('the quote of the choices is asked while the offer is read: declining then moves on without waiting, asking nothing again', async () => {
  nextScreensAnswer(1.1)
  const methods: (string | null)[] = []
  server.use(
    http.post('*/portal-registration/returns/quote', async ({ request }) => {
      methods.push(((await request.json()) as { refund_method: string | null }).refund_method)
      return HttpResponse.json(buildQuote('25.00'))
    }),
  )
  // The steps' chunks come in the background once the flow has begun (app/preloadSteps.ts).
  await screenLoaders.refundMethod.preload()
  const { user, router, store } = renderOffer()
  // The offer's credit (as store credit) and the choices as they are (no method yet), each answered.
  await waitFor(() =>
    expect(
      Object.values(store.getState().portalApi.queries).filter(
        (entry) => entry?.endpointName === 'quoteReturn' && entry.data,
      ),
    ).toHaveLength(2),
  )
  await user.click(screen.getByRole('button', { name: 'No thanks, continue with my return' }))
  expect(router.state.location.pathname).toBe('/refund-method')
  expect(await screen.findByRole('radio', { name: /Original payment method/ })).toBeInTheDocument()
  expect(methods.sort()).toEqual([null, 'store_credit'])
})

test('a quote that fails on Continue (the refund value decides the next step) leads to the refund method, which says so and retries; the answer is kept', async () => {
  nextScreensAnswer(1.1)
  let failing = true
  server.use(
    http.post('*/portal-registration/returns/quote', () =>
      // The offer's own credit, the quote of these choices (asked ahead, and again on Continue)
      // and the refund method's first: all fail, until Try again.
      failing ? HttpResponse.json({ error: 'boom' }, { status: 500 }) : HttpResponse.json(buildQuote('25.00')),
    ),
  )
  const { user, router, store } = renderOffer()
  await user.click(await screen.findByRole('button', { name: 'No thanks, continue with my return' }))
  // Unknown value with a multiplier: rule 3 sends the shopper to the refund method, not past it.
  await waitFor(() => expect(router.state.location.pathname).toBe('/refund-method'))
  expect(await screen.findByRole('alert')).toHaveTextContent('We could not work out your refund. Please try again.')
  expect(store.getState().returnFlow.upsell).toEqual({ kind: 'declined' })
  failing = false
  await user.click(screen.getByRole('button', { name: 'Try again' }))
  expect(await screen.findByRole('radio', { name: /Original payment method/ })).toBeInTheDocument()
})
