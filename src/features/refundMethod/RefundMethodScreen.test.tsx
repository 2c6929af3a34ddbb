import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnRequest } from '../../../contract/api'
import type { ChosenItem, ReturnFlowState } from '../returnFlow/returnFlowSlice'
import {
  buildConfig,
  buildFlow,
  buildLineItem,
  buildOrder,
  buildQuote,
  money,
  returnedElsewhere,
} from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const quoteRoute = '*/portal-registration/returns/quote'
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_id: null, variant_title: null })
const refunded: ChosenItem = {
  lineItemId: 'mug',
  quantity: 1,
  reason: { id: 'too-small', comment: '' },
  exchange: null,
}
const quote = buildQuote('11.50', { store_credit_value: money('12.65') })

function renderRefundMethod(flow: Partial<ReturnFlowState> = {}, multiplier: number | null = 1.1) {
  server.use(
    http.get('*/portal-registration/config/:id', () =>
      HttpResponse.json(buildConfig({ gift_card_value_multiplier: multiplier })),
    ),
  )
  return renderPortal({
    route: '/refund-method',
    preloadedState: { returnFlow: buildFlow({ order: buildOrder({ line_items: [mug] }), items: [refunded], ...flow }) },
  })
}

describe('refund method', () => {
  test('asks for a quote without a method and shows both amounts with the bonus as a percent', async () => {
    const bodies: ReturnRequest[] = []
    server.use(
      http.post(quoteRoute, async ({ request }) => {
        bodies.push((await request.json()) as ReturnRequest)
        return HttpResponse.json(quote)
      }),
    )
    const { store } = renderRefundMethod()
    expect(
      await screen.findByRole('heading', { level: 1, name: 'How would you like your refund?' }),
    ).toBeInTheDocument()
    expect(await screen.findByRole('radio', { name: /Original payment method.*€11\.50/ })).not.toBeChecked()
    expect(screen.getByRole('radio', { name: /Store credit \(gift card\).*\+10% bonus.*€12\.65/ })).not.toBeChecked()
    expect(screen.getByRole('group', { name: 'Refund method' })).toBeInTheDocument()
    expect(bodies).toEqual([
      {
        items: [{ line_item_id: 'mug', quantity: 1, reason_id: 'too-small', exchange_variant_id: null }],
        upsell_variant_id: null,
        refund_method: null,
      },
    ])
    // Without a method yet, this quote is the one for the current choices: the flow keeps it.
    expect(store.getState().returnFlow.quote?.refund_value.presentment_money.amount).toBe('11.50')
  })

  test('arriving from the step that asked for the quote, the amounts show without asking again', async () => {
    const bodies: ReturnRequest[] = []
    server.use(
      http.get('*/portal-registration/config/:id', () =>
        HttpResponse.json(buildConfig({ gift_card_value_multiplier: 1.1 })),
      ),
      http.post(quoteRoute, async ({ request }) => {
        bodies.push((await request.json()) as ReturnRequest)
        return HttpResponse.json(quote)
      }),
    )
    const { user, router, store } = renderPortal({
      route: '/return-item/mug/return-reason',
      preloadedState: {
        returnFlow: buildFlow({ order: buildOrder({ line_items: [mug] }), items: [{ ...refunded, reason: null }] }),
      },
    })
    await user.click(await screen.findByRole('radio', { name: 'Too small' }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    // The refund value decides between the refund method and confirm: the step asks for it first.
    await waitFor(() => expect(router.state.location.pathname).toBe('/refund-method'))
    expect(await screen.findByRole('radio', { name: /Original payment method.*€11\.50/ })).toBeInTheDocument()
    expect(bodies).toHaveLength(1)
    expect(store.getState().returnFlow.quote?.refund_value.presentment_money.amount).toBe('11.50')
  })

  test('words and amounts follow the shopper’s language', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json(quote)))
    renderRefundMethod({ launch: { lang: 'de', testMode: false, configOverride: null } })
    expect(await screen.findByRole('radio', { name: /Ursprüngliche Zahlungsart.*11,50\s€/ })).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Guthaben \(Geschenkkarte\).*12,65\s€/ })).toBeInTheDocument()
  })

  test('a previous choice is restored, and Continue stores the new one and goes to confirm', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json(quote)))
    const { user, router, store } = renderRefundMethod({ refundMethod: 'original_payment' })
    expect(await screen.findByRole('radio', { name: /Original payment method/ })).toBeChecked()
    await user.click(screen.getByRole('radio', { name: /Store credit/ }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
    expect(store.getState().returnFlow.refundMethod).toBe('store_credit')
  })

  test('Continue without a choice says so and stays', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json(quote)))
    const { user, router, store } = renderRefundMethod()
    await user.click(await screen.findByRole('button', { name: 'Continue' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Choose how you would like your refund to continue.')
    expect(screen.getByRole('radio', { name: /Original payment method/ })).toHaveFocus()
    expect(router.state.location.pathname).toBe('/refund-method')
    expect(store.getState().returnFlow.refundMethod).toBeNull()
  })

  test('a failed quote is announced, and Try again shows the amounts keeping the choice', async () => {
    let calls = 0
    server.use(
      http.post(quoteRoute, () =>
        ++calls === 1 ? HttpResponse.json({ error: 'boom' }, { status: 500 }) : HttpResponse.json(quote),
      ),
    )
    const { user } = renderRefundMethod({ refundMethod: 'store_credit' })
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not work out your refund.')
    expect(screen.queryByRole('radio')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('radio', { name: /Store credit/ })).toBeChecked()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  test('an expired session asks to verify again in place; once verified, the amounts come with the new token', async () => {
    const order = buildOrder({ line_items: [mug] })
    const tokens: (string | null)[] = []
    server.use(
      http.post(quoteRoute, ({ request }) => {
        tokens.push(request.headers.get('authorization'))
        return tokens.length === 1
          ? HttpResponse.json({ error: 'session_expired' }, { status: 401 })
          : HttpResponse.json(buildQuote('21.05'))
      }),
      http.post('*/portal-registration/verify', async ({ request }) =>
        HttpResponse.json({
          ...order,
          email: ((await request.json()) as { email: string }).email,
          token: 'fresh-token',
        }),
      ),
    )
    const { user } = renderRefundMethod({ order })
    expect(await screen.findByRole('heading', { name: 'Please confirm it’s you' })).toHaveFocus()
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'jane@example.com')
    await user.click(screen.getByRole('button', { name: 'Continue with my return' }))
    expect(await screen.findByRole('radio', { name: /Store credit/ })).toBeInTheDocument()
    expect(tokens.at(-1)).toBe('Bearer fresh-token')
  })

  test('while the quote loads a spinner is shown', async () => {
    server.use(http.post(quoteRoute, () => new Promise<never>(() => {})))
    renderRefundMethod()
    expect(await screen.findByRole('status', { name: 'Working out your refund' })).toBeInTheDocument()
    expect(screen.queryByRole('radio')).not.toBeInTheDocument()
  })

  test('the method is stored as it is chosen, so a reload of the step keeps it (docs/rules.md §16.4)', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json(quote)))
    const { user, router, store } = renderRefundMethod()
    await user.click(await screen.findByRole('radio', { name: /Store credit/ }))
    expect(store.getState().returnFlow.refundMethod).toBe('store_credit')
    expect(router.state.location.pathname).toBe('/refund-method')
  })

  test('the shop’s refund timing is said under each method; without it, no timing words', async () => {
    const timed = buildQuote('11.50', {
      store_credit_value: money('12.65'),
      refund_timing: {
        original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
        store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
      },
    })
    server.use(http.post(quoteRoute, () => HttpResponse.json(timed)))
    const { unmount } = renderRefundMethod()
    expect(
      await screen.findByRole('radio', {
        name: /Original payment method.*Arrives 5–10 business days after we receive your items/,
      }),
    ).toBeInTheDocument()
    expect(
      screen.getByRole('radio', { name: /Store credit.*Arrives at once, when you submit your return/ }),
    ).toBeInTheDocument()
    unmount()

    server.use(http.post(quoteRoute, () => HttpResponse.json(quote)))
    renderRefundMethod()
    await screen.findByRole('radio', { name: /Original payment method/ })
    expect(screen.queryByText(/Arrives/)).not.toBeInTheDocument()
  })

  test('every refunded item kept: a timing after receipt counts from the submission, as nothing is sent', async () => {
    const socks = buildLineItem({ id: 'socks', title: 'Cotton Socks', variant_id: null, variant_title: null })
    const keptOnly = buildQuote('9.90', {
      items: [
        {
          line_item_id: 'socks',
          title: 'Cotton Socks',
          variant_title: null,
          quantity: 1,
          reason_id: 'too-small',
          reason_label: 'Too small',
          comment: null,
          exchange_variant_id: null,
          exchange_variant_title: null,
          keep: true,
        },
      ],
      refund_timing: { original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' } },
    })
    server.use(http.post(quoteRoute, () => HttpResponse.json(keptOnly)))
    renderRefundMethod({ order: buildOrder({ line_items: [socks] }), items: [{ ...refunded, lineItemId: 'socks' }] })
    expect(
      await screen.findByRole('radio', {
        name: /Original payment method.*Arrives 5–10 business days after you submit your return/,
      }),
    ).toBeInTheDocument()
    expect(screen.queryByText(/receive your items/)).not.toBeInTheDocument()
  })

  test('a return fee is said with what it is taken from; without one, no fee words', async () => {
    const withFee = buildQuote('10.05', {
      store_credit_value: money('11.06'),
      breakdown: {
        items_subtotal: money('11.76'),
        tax: money('2.24'),
        return_fee: money('3.95'),
        bonus: money('0.00'),
        upsell: money('0.00'),
        total: money('10.05'),
      },
    })
    server.use(http.post(quoteRoute, () => HttpResponse.json(withFee)))
    const { unmount } = renderRefundMethod()
    expect(await screen.findByRole('radio', { name: /Original payment method.*€10\.05/ })).toBeInTheDocument()
    expect(
      screen.getByText(
        'Your items come to €14.00. A return fee of €3.95 is taken from that, so both amounts below are after the fee.',
      ),
    ).toBeVisible()
    unmount()

    server.use(http.post(quoteRoute, () => HttpResponse.json(quote)))
    renderRefundMethod()
    await screen.findByRole('radio', { name: /Original payment method/ })
    expect(screen.queryByText(/return fee/i)).not.toBeInTheDocument()
  })
})

describe('refund method, with a new item bought', () => {
  const withNewItem = (returnFee: string) =>
    buildQuote('12.85', {
      store_credit_value: money('14.14'),
      breakdown: {
        items_subtotal: money('30.92'),
        tax: money('5.88'),
        return_fee: money(returnFee),
        bonus: money('2.00'),
        upsell: money('22.00'),
        total: money('12.85'),
      },
      new_item: {
        variant_id: 'scarf-1',
        product_title: 'Wool Scarf',
        title: '',
        price: money('22.00'),
        image_src: null,
      },
    })

  test('the note names the new item and its price beside the fee, and the part its bonus pays', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json(withNewItem('3.95'))))
    renderRefundMethod({ upsell: { kind: 'accepted', variantId: 'scarf-1' } })
    expect(
      await screen.findByText(
        '€36.80 for your items, less the €3.95 return fee and the €22.00 Wool Scarf, of which a €2.00 bonus pays part: both amounts below are what is left.',
      ),
    ).toBeVisible()
    expect(screen.queryByText(/so both amounts below are after the fee/)).not.toBeInTheDocument()
  })

  test('without a fee, the new item alone', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json(withNewItem('0.00'))))
    renderRefundMethod({ upsell: { kind: 'accepted', variantId: 'scarf-1' } })
    expect(
      await screen.findByText(
        '€36.80 for your items, less the €22.00 Wool Scarf, of which a €2.00 bonus pays part: both amounts below are what is left.',
      ),
    ).toBeVisible()
  })
})

describe('refund method, with choices that no longer hold', () => {
  test('items returned meanwhile from another tab: named with a link to that return, never "try again"', async () => {
    server.use(
      http.post(quoteRoute, () => HttpResponse.json(returnedElsewhere('mug'), { status: 422 })),
      http.get('*/portal-registration/order', () =>
        HttpResponse.json({ error: 'order_already_has_return' }, { status: 409 }),
      ),
    )
    const { user, router } = renderRefundMethod()
    expect(await screen.findByRole('heading', { name: 'Some of your choices no longer work' })).toHaveFocus()
    expect(screen.getByText('Ceramic Mug was already returned, in return #1001-R1.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See return #1001-R1' })).toHaveAttribute('href', '/status/r-7#sig')
    expect(screen.queryByText(/We could not work out your refund/)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()

    // Every unit of the order went back: the items step says so instead of offering the mug again.
    await user.click(screen.getByRole('link', { name: 'Change your items' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'))
    const mugBox = await screen.findByRole('checkbox', { name: /Ceramic Mug/ })
    expect(mugBox).toBeDisabled()
    expect(mugBox.closest('li')).toHaveTextContent('Already returned')
  })
})
