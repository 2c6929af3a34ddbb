import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnRequest } from '../../../contract/api'
import type { ChosenItem, ReturnFlowState } from '../returnFlow/returnFlowSlice'
import {
  buildCatalogue,
  buildFlow,
  buildInstructions,
  buildLineItem,
  buildOrder,
  buildProduct,
  buildQuote,
  buildSubmittedReturn,
  buildVariant,
  money,
} from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const quoteRoute = '*/portal-registration/returns/quote'
const submitRoute = '*/portal-registration/returns'
const tee = buildLineItem({ id: 'tee', title: 'Classic Tee', variant_title: 'M', variant_id: 'v-m' })
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const order = buildOrder({
  line_items: [tee, mug],
  exchange_data: {
    options: { 'v-m': ['v-m', 'v-l'] },
    upsell_enabled: true,
    variants: { 'v-l': buildVariant({ id: 'v-l', title: 'L' }) },
  },
  return_reasons: [
    { id: 'too-small', label: 'Too small', comment_required: false },
    { id: 'damaged', label: 'Arrived damaged', comment_required: true },
  ],
})
const items: ChosenItem[] = [
  {
    lineItemId: 'tee',
    quantity: 2,
    reason: { id: 'too-small', comment: '' },
    exchange: { kind: 'exchange', variantId: 'v-l' },
  },
  { lineItemId: 'mug', quantity: 1, reason: { id: 'damaged', comment: 'Chipped handle' }, exchange: null },
]
const quote = buildQuote('11.50', {
  refund_method: 'store_credit',
  breakdown: {
    items_subtotal: money('10.00'),
    tax: money('2.00'),
    return_fee: money('0.50'),
    bonus: money('1.15'),
    upsell: money('0.00'),
    total: money('12.65'),
  },
})

interface Seen {
  quotes: ReturnRequest[]
  submits: { body: ReturnRequest; key: string | null; auth: string | null }[]
}

/** The quote and instructions answer; the submit answers with `answers` in turn, then 201s. */
function api(answers: (() => Response | Promise<Response>)[] = []): Seen {
  const seen: Seen = { quotes: [], submits: [] }
  server.use(
    http.post(quoteRoute, async ({ request }) => {
      seen.quotes.push((await request.json()) as ReturnRequest)
      return HttpResponse.json(quote)
    }),
    http.post(submitRoute, async ({ request }) => {
      seen.submits.push({
        body: (await request.json()) as ReturnRequest,
        key: request.headers.get('idempotency-key'),
        auth: request.headers.get('authorization'),
      })
      const answer = answers[seen.submits.length - 1]
      return answer ? answer() : HttpResponse.json(buildSubmittedReturn(), { status: 201 })
    }),
    http.get('*/portal-registration/returns/:id/instructions', () => HttpResponse.json(buildInstructions())),
  )
  return seen
}

function renderConfirm(flow: Partial<ReturnFlowState> = {}) {
  return renderPortal({
    route: '/confirm',
    preloadedState: { returnFlow: buildFlow({ order, items, refundMethod: 'store_credit', ...flow }) },
  })
}

const submitButton = () => screen.getByRole('button', { name: /Submit return|Try again/ })

describe('confirm', () => {
  test('shows every chosen item, the refund method and the server’s breakdown of the full request', async () => {
    const seen = api()
    const { store } = renderConfirm()
    expect(await screen.findByRole('heading', { level: 1, name: 'Check and confirm your return' })).toBeInTheDocument()
    const [teeRow, mugRow] = within(screen.getByRole('list', { name: 'Your items' })).getAllByRole('listitem')
    expect(teeRow).toHaveTextContent(/Classic Tee.*M.*Quantity 2.*Reason: Too small.*Exchange for L/)
    expect(mugRow).toHaveTextContent(/Ceramic Mug.*Quantity 1.*Reason: Arrived damaged.*Chipped handle.*Refund/)
    expect(screen.getByText('Store credit (gift card)')).toBeInTheDocument()

    const total = await screen.findByText('Total')
    expect(total.nextElementSibling).toHaveTextContent('€12.65')
    const rows = [...document.querySelectorAll('.confirm__row')].map((row) => row.textContent)
    expect(rows).toEqual(['Items€10.00', 'Tax€2.00', 'Return fee−€0.50', 'Store credit bonus+€1.15', 'Total€12.65'])
    expect(screen.queryByText('New item')).not.toBeInTheDocument()
    expect(seen.quotes).toEqual([
      {
        items: [
          { line_item_id: 'tee', quantity: 2, reason_id: 'too-small', exchange_variant_id: 'v-l' },
          {
            line_item_id: 'mug',
            quantity: 1,
            reason_id: 'damaged',
            comment: 'Chipped handle',
            exchange_variant_id: null,
          },
        ],
        upsell_variant_id: null,
        refund_method: 'store_credit',
      },
    ])
    expect(store.getState().returnFlow.quote).toEqual(quote)
  })

  test('an upsell taken is shown by name, with its price in the breakdown', async () => {
    api()
    const upsellQuote = buildQuote('20.00', {
      breakdown: { ...quote.breakdown, bonus: money('0.00'), upsell: money('18.00'), total: money('2.00') },
    })
    server.use(
      http.post(quoteRoute, () => HttpResponse.json(upsellQuote)),
      http.get('*/portal-registration/catalogue', () =>
        HttpResponse.json(
          buildCatalogue([
            buildProduct({ variants: [buildVariant({ id: 'h-s', product_title: 'Zip Hoodie', title: 'S' })] }),
          ]),
        ),
      ),
    )
    renderConfirm({ upsell: { kind: 'accepted', variantId: 'h-s' }, refundMethod: null })
    expect(await screen.findByText('Zip Hoodie (S)')).toBeInTheDocument()
    expect((await screen.findByText('New item')).nextElementSibling).toHaveTextContent('−€18.00')
    expect(screen.getByText('Original payment method')).toBeInTheDocument()
  })

  test('a new item without options is shown by its product title alone', async () => {
    api()
    server.use(
      http.get('*/portal-registration/catalogue', () =>
        HttpResponse.json(
          buildCatalogue([
            buildProduct({
              variants: [buildVariant({ id: 'nb', product_title: 'Dotted Notebook', title: '', options: [] })],
            }),
          ]),
        ),
      ),
    )
    renderConfirm({ upsell: { kind: 'accepted', variantId: 'nb' }, refundMethod: 'original_payment' })
    expect(await screen.findByText('Dotted Notebook')).toBeInTheDocument()
    expect(screen.queryByText(/Dotted Notebook \(/)).toBeNull()
  })

  test('Submit sends the token and an idempotency key, stores the return and shows the instructions', async () => {
    const seen = api()
    const { user, router, store } = renderConfirm()
    await screen.findByText('Total')
    await user.click(submitButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-instruction'))
    expect(seen.submits).toHaveLength(1)
    expect(seen.submits[0]!.auth).toBe('Bearer test-token')
    expect(seen.submits[0]!.key).toMatch(/^[0-9a-f-]{32,36}$/)
    expect(seen.submits[0]!.key).toBe(store.getState().returnFlow.idempotencyKey)
    expect(seen.submits[0]!.body).toEqual(seen.quotes[0])
    expect(store.getState().returnFlow.submitted?.name).toBe('#1001-R1')
  })

  test('while submitting the button is disabled with a spinner, and a double click sends one request', async () => {
    // The answer waits until the test has seen the submitting state (a busy machine cannot skip it).
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    const seen = api([async () => (await answered, HttpResponse.json(buildSubmittedReturn(), { status: 201 }))])
    const { user, router } = renderConfirm()
    await screen.findByText('Total')
    await user.dblClick(submitButton())
    expect(await screen.findByRole('status', { name: 'Submitting your return' })).toBeInTheDocument()
    expect(submitButton()).toBeDisabled()
    answer()
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-instruction'))
    expect(seen.submits).toHaveLength(1)
  })

  test('a network failure, then a 5xx, then Try again: every attempt carries the same key, one return', async () => {
    const seen = api([() => HttpResponse.error(), () => HttpResponse.json({ error: 'internal' }, { status: 503 })])
    const { user, router, store } = renderConfirm({ idempotencyKey: null })
    await screen.findByText('Total')
    await user.click(submitButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not submit your return. Your choices are kept')
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(seen.submits).toHaveLength(2))
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeEnabled()
    expect(router.state.location.pathname).toBe('/confirm')
    expect(store.getState().returnFlow.items).toEqual(items)
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-instruction'))
    const keys = seen.submits.map((submit) => submit.key)
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
  })

  test('a key kept from an earlier attempt (a reload) is reused', async () => {
    const seen = api()
    const { user, router } = renderConfirm({ idempotencyKey: 'kept-key-1' })
    await screen.findByText('Total')
    await user.click(submitButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-instruction'))
    expect(seen.submits[0]!.key).toBe('kept-key-1')
  })

  test('a 401 says the session expired with a link to start again, and keeps the choices', async () => {
    api([() => HttpResponse.json({ error: 'unauthorized' }, { status: 401 })])
    const { user, store } = renderConfirm()
    await screen.findByText('Total')
    await user.click(submitButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('Your session has expired')
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: /Submit return|Try again/ })).not.toBeInTheDocument()
    expect(store.getState().returnFlow.items).toEqual(items)
    expect(store.getState().returnFlow.submitted).toBeNull()
  })

  test('a failed quote is announced with a retry, and the choices stay on screen', async () => {
    let calls = 0
    server.use(http.post(quoteRoute, () => (++calls === 1 ? HttpResponse.error() : HttpResponse.json(quote))))
    const { user } = renderConfirm()
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not work out your refund.')
    expect(screen.getByText('Classic Tee')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reload the refund' }))
    expect(await screen.findByText('Total')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  test('a return already submitted goes straight on to the instructions without submitting again', async () => {
    const seen = api()
    const { router } = renderConfirm({ submitted: buildSubmittedReturn(), idempotencyKey: 'kept-key-1' })
    expect(await screen.findByText('#1001-R1')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/return-instruction')
    expect(seen.submits).toHaveLength(0)
    expect(seen.quotes).toHaveLength(0)
  })

  test('the chosen method’s refund timing is said under it; a shop without timing says nothing of it', async () => {
    api()
    server.use(
      http.post(quoteRoute, () =>
        HttpResponse.json({
          ...quote,
          refund_timing: {
            original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
            store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
          },
        }),
      ),
    )
    const { unmount } = renderConfirm()
    expect(await screen.findByText('Arrives at once, when you submit your return')).toBeInTheDocument()
    unmount()

    api()
    renderConfirm()
    await screen.findByText('Total')
    expect(
      screen.queryByText(/Arrives|when you submit your return|after we receive your items/),
    ).not.toBeInTheDocument()
  })

  test('an exchange only refunds nothing: no refund block of zeros, it says the exchange costs nothing', async () => {
    const zero = money('0.00')
    api()
    server.use(
      http.post(quoteRoute, () =>
        HttpResponse.json(
          buildQuote('0.00', {
            breakdown: { items_subtotal: zero, tax: zero, return_fee: zero, bonus: zero, upsell: zero, total: zero },
          }),
        ),
      ),
    )
    renderConfirm({ items: items.slice(0, 1), refundMethod: null })
    expect(await screen.findByText('Your exchange costs nothing: there is no fee and nothing to pay.')).toBeVisible()
    expect(screen.queryByRole('heading', { name: 'Your refund' })).not.toBeInTheDocument()
    expect(screen.queryByText('Total')).not.toBeInTheDocument()
    expect(screen.queryByText(/€0\.00|Free/)).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Submit return' })).toBeEnabled()
  })
})
