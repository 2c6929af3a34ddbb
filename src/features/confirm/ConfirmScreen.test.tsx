import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnRequest, ReturnOrder, ReturnOrderItem } from '../../../contract/api'
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
import { encodeConfigOverride } from '../../shop/configOverride'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const quoteRoute = '*/portal-registration/returns/quote'
const submitRoute = '*/portal-registration/returns'
const tee = buildLineItem({
  id: 'tee',
  title: 'Classic Tee',
  variant_title: 'M',
  variant_id: 'v-m',
  quantity: 2,
  returnable_quantity: 2,
})
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
  test('a preview of another bonus prices with it, and cannot be submitted', async () => {
    const seen = api()
    server.use(
      http.post(quoteRoute, async ({ request }) => {
        seen.quotes.push((await request.json()) as ReturnRequest)
        return HttpResponse.json({ ...quote, preview_multiplier: 1.25 })
      }),
    )
    renderConfirm({
      launch: {
        lang: null,
        testMode: false,
        configOverride: encodeConfigOverride({ gift_card_value_multiplier: 1.25 }),
      },
    })
    expect(
      await screen.findByText(/This is a preview: the amounts use the previewed store-credit bonus/),
    ).toBeInTheDocument()
    expect(seen.quotes.at(-1)).toMatchObject({ preview_multiplier: 1.25 })
    expect(submitButton()).toBeDisabled()
    expect(seen.submits).toEqual([])
  })

  test('a preview of colours alone quotes and submits as usual', async () => {
    const seen = api()
    const { user } = renderConfirm({
      launch: { lang: null, testMode: false, configOverride: encodeConfigOverride({ button_color: '#008000' }) },
    })
    await screen.findByText('Total')
    expect(seen.quotes.at(-1)).not.toHaveProperty('preview_multiplier')
    await user.click(submitButton())
    await waitFor(() => expect(seen.submits).toHaveLength(1))
    expect(seen.submits[0]!.body).not.toHaveProperty('preview_multiplier')
  })

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
    // The items are before tax, said where the tax is added below them.
    expect(rows).toEqual([
      'Items (excl. tax)€10.00',
      'Tax€2.00',
      'Return fee−€0.50',
      'Store credit bonus+€1.15',
      'Total€12.65',
    ])
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

  test('an upsell taken is shown with its image, product, variant and price, and its price in the breakdown', async () => {
    api()
    const upsellQuote = buildQuote('20.00', {
      breakdown: { ...quote.breakdown, bonus: money('0.00'), upsell: money('18.00'), total: money('2.00') },
    })
    server.use(
      http.post(quoteRoute, () => HttpResponse.json(upsellQuote)),
      http.get('*/portal-registration/catalogue', () =>
        HttpResponse.json(
          buildCatalogue([
            buildProduct({
              image_src: 'https://cdn.example.com/hoodie.png',
              variants: [buildVariant({ id: 'h-s', product_title: 'Zip Hoodie', title: 'S', price: money('18.00') })],
            }),
          ]),
        ),
      ),
    )
    renderConfirm({ upsell: { kind: 'accepted', variantId: 'h-s' }, refundMethod: null })
    const newItem = await screen.findByText('Zip Hoodie')
    const card = newItem.closest('.item')!
    expect(card).toHaveTextContent('Zip HoodieS€18.00')
    expect(card.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/hoodie.png')
    expect((await screen.findByText('New item')).nextElementSibling).toHaveTextContent('−€18.00')
    expect(screen.getByText('Original payment method')).toBeInTheDocument()
  })

  test('a bonus on the new item alone, the rest to the original payment: says why it is smaller', async () => {
    api()
    server.use(
      http.post(quoteRoute, () =>
        HttpResponse.json(
          buildQuote('12.85', {
            refund_method: 'original_payment',
            breakdown: {
              items_subtotal: money('30.92'),
              tax: money('5.88'),
              return_fee: money('3.95'),
              bonus: money('2.00'),
              upsell: money('22.00'),
              total: money('12.85'),
            },
          }),
        ),
      ),
    )
    renderConfirm({ upsell: { kind: 'accepted', variantId: 'h-s' }, refundMethod: 'original_payment' })
    expect((await screen.findByText('Store credit bonus')).nextElementSibling).toHaveTextContent('+€2.00')
    expect(
      screen.getByText(
        'The bonus is on the €22.00 your new item takes only: the rest goes back to your original payment, which has no bonus.',
      ),
    ).toBeVisible()
  })

  test('the whole refund as store credit: the bonus is on all of it, so no such note', async () => {
    api()
    server.use(
      http.post(quoteRoute, () =>
        HttpResponse.json(
          buildQuote('14.14', {
            refund_method: 'store_credit',
            breakdown: {
              items_subtotal: money('30.92'),
              tax: money('5.88'),
              return_fee: money('3.95'),
              bonus: money('3.29'),
              upsell: money('22.00'),
              total: money('14.14'),
            },
          }),
        ),
      ),
    )
    renderConfirm({ upsell: { kind: 'accepted', variantId: 'h-s' }, refundMethod: 'store_credit' })
    await screen.findByText('Store credit bonus')
    expect(screen.queryByText(/The bonus is on the/)).not.toBeInTheDocument()
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

  test('while the quote is on its way, nothing stands below it that would move: the button and the help come with the breakdown', async () => {
    let answer: (() => void) | null = null
    api()
    server.use(
      http.post(quoteRoute, async () => {
        await new Promise<void>((resolve) => (answer = resolve))
        return HttpResponse.json(quote)
      }),
    )
    renderConfirm()
    expect(await screen.findByRole('status', { name: 'Working out your refund' })).toBeInTheDocument()
    // Asked after the step's first frame.
    await waitFor(() => expect(answer).not.toBeNull())
    expect(screen.queryByRole('button', { name: 'Submit return' })).not.toBeInTheDocument()
    expect(screen.queryByText('Help with your return')).not.toBeInTheDocument()
    // Said to assistive technology too; the page's footer waits on it (styles.css).
    const step = screen.getByRole('region', { name: 'Check and confirm your return' })
    expect(step).toHaveAttribute('aria-busy', 'true')
    answer!()
    expect(await screen.findByRole('button', { name: 'Submit return' })).toBeEnabled()
    expect(step).toHaveAttribute('aria-busy', 'false')
    expect(screen.getByText('Total')).toBeInTheDocument()
    expect(screen.getByText('Help with your return')).toBeInTheDocument()
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

  test('while submitting the button is busy with a spinner and keeps the focus, and a double click sends one request', async () => {
    // The answer waits until the test has seen the submitting state (a busy machine cannot skip it).
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    const seen = api([async () => (await answered, HttpResponse.json(buildSubmittedReturn(), { status: 201 }))])
    const { user, router } = renderConfirm()
    await screen.findByText('Total')
    await user.dblClick(submitButton())
    expect(await screen.findByRole('status', { name: 'Submitting your return' })).toBeInTheDocument()
    // aria-disabled, not disabled: a disabled button would drop the focus to the page's start.
    expect(submitButton()).toHaveAttribute('aria-disabled', 'true')
    expect(submitButton()).toHaveFocus()
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
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus()
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

  test('a 401 at submit asks to verify again in place, name and e-mail filled in, and keeps every choice', async () => {
    const seen = api([() => HttpResponse.json({ error: 'session_expired' }, { status: 401 })])
    const verified: unknown[] = []
    server.use(
      http.post('*/portal-registration/verify', async ({ request }) => {
        verified.push(await request.json())
        return HttpResponse.json({ ...order, email: 'jane@example.com', token: 'fresh-token' })
      }),
    )
    const { user, router, store } = renderConfirm({ order: { ...order, email: 'jane@example.com' } })
    await screen.findByText('Total')
    await user.click(submitButton())
    expect(await screen.findByRole('heading', { name: 'Please confirm it’s you' })).toHaveFocus()
    expect(screen.getByText(/Your session timed out, so nothing was submitted/)).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Order number' })).toHaveValue('#1001')
    expect(screen.getByRole('textbox', { name: 'Order number' })).toHaveAttribute('readonly')
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveValue('jane@example.com')
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: /Submit return|Try again/ })).not.toBeInTheDocument()
    expect(store.getState().returnFlow.items).toEqual(items)
    const key = seen.submits[0]!.key

    await user.click(screen.getByRole('button', { name: 'Continue with my return' }))
    expect(verified).toEqual([expect.objectContaining({ order_name: '#1001', email: 'jane@example.com' })])
    // The form and its button are gone: the focus goes to the step's heading, not to <body>.
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Check and confirm your return' })).toHaveFocus(),
    )
    // The step is back with the choices; the quote and the submit carry the new token and the same key.
    await user.click(await screen.findByRole('button', { name: 'Submit return' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-instruction'))
    expect(seen.submits.map((submit) => [submit.auth, submit.key])).toEqual([
      ['Bearer test-token', key],
      ['Bearer fresh-token', key],
    ])
    expect(store.getState().returnFlow.items).toEqual(items)
  })

  test('verifying again with a wrong e-mail says so on the field; an empty one is not sent', async () => {
    api([() => HttpResponse.json({ error: 'session_expired' }, { status: 401 })])
    let calls = 0
    server.use(
      http.post('*/portal-registration/verify', () => {
        calls += 1
        return HttpResponse.json({ error: 'invalid_order' }, { status: 400 })
      }),
    )
    const { user, store } = renderConfirm({ order: { ...order, email: undefined } })
    await screen.findByText('Total')
    await user.click(submitButton())
    const email = await screen.findByRole('textbox', { name: 'E-mail' })
    expect(email).toHaveValue('')
    await user.click(screen.getByRole('button', { name: 'Continue with my return' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the e-mail address of your order.')
    expect(calls).toBe(0)
    await user.type(email, 'someone@example.com')
    await user.click(screen.getByRole('button', { name: 'Continue with my return' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/find|order/i)
    expect(email).toHaveAccessibleDescription(screen.getByRole('alert').textContent)
    expect(store.getState().returnFlow.expired).toBe(true)
    expect(store.getState().returnFlow.items).toEqual(items)
  })

  test('a support view whose read-only token lapsed asks for the code again, never for the shopper’s e-mail', async () => {
    server.use(http.post(quoteRoute, () => HttpResponse.json({ error: 'session_expired' }, { status: 401 })))
    renderConfirm({ readOnly: true, order: { ...order, email: 'j***@example.com' } })
    expect(await screen.findByRole('heading', { name: 'This support view has expired' })).toHaveFocus()
    expect(screen.queryByRole('textbox', { name: 'E-mail' })).not.toBeInTheDocument()
  })

  test('verifying again as another order starts that order afresh on the items step', async () => {
    api([() => HttpResponse.json({ error: 'session_expired' }, { status: 401 })])
    const other = buildOrder({ order_id: 'other-order', order_name: '#1001', token: 'other-token' })
    server.use(http.post('*/portal-registration/verify', () => HttpResponse.json(other)))
    const { user, router, store } = renderConfirm({ order: { ...order, email: 'jane@example.com' } })
    await screen.findByText('Total')
    await user.click(submitButton())
    await user.click(await screen.findByRole('button', { name: 'Continue with my return' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'))
    expect(store.getState().returnFlow.order?.order_id).toBe('other-order')
    expect(store.getState().returnFlow.items).toEqual([])
  })

  test('a 422 at submit names the sold-out exchange and leads to the step that fixes it, not to Try again', async () => {
    api([
      () =>
        HttpResponse.json(
          {
            error: 'invalid_return',
            message: 'items[0].exchange_variant_id: out of stock',
            problems: [{ field: 'items[0].exchange_variant_id', problem: 'out_of_stock', message: 'out of stock' }],
          },
          { status: 422 },
        ),
    ])
    const soldOut = {
      ...order,
      exchange_data: {
        ...order.exchange_data!,
        variants: { 'v-l': buildVariant({ id: 'v-l', title: 'L', available: false }) },
      },
    }
    server.use(http.get('*/portal-registration/order', () => HttpResponse.json(soldOut)))
    const { user, router, store } = renderConfirm()
    await screen.findByText('Total')
    await user.click(submitButton())
    expect(await screen.findByRole('heading', { name: 'Some of your choices no longer work' })).toHaveFocus()
    // The order is read again, choices kept, so the exchange step shows L as sold out.
    await waitFor(() => expect(store.getState().returnFlow.order).toEqual(soldOut))
    expect(store.getState().returnFlow.items).toEqual(items)
    expect(screen.getByText('Classic Tee (M): the exchange you chose (L) has sold out since.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Submit return|Try again/ })).not.toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Choose another exchange for Classic Tee (M)' }))
    expect(router.state.location.pathname).toBe('/return-item/tee/exchange')
  })

  test('a 422 already for the quote on arrival: each problem once, with its own way to fix it', async () => {
    server.use(
      http.post(quoteRoute, () =>
        HttpResponse.json(
          {
            error: 'invalid_return',
            message: '…',
            problems: [
              { field: 'items[1].comment', problem: 'comment_required', message: 'this reason needs a comment' },
              { field: 'items[1].photo_ids', problem: 'photos_missing', message: 'needs a photo' },
              { field: 'items[0].quantity', problem: 'too_many', message: 'at most 1 can be returned' },
              { field: 'upsell_variant_id', problem: 'costs_more_than_credit', message: 'costs more' },
            ],
          },
          { status: 422 },
        ),
      ),
    )
    server.use(
      http.get('*/portal-registration/catalogue', () =>
        HttpResponse.json(
          buildCatalogue([
            buildProduct({
              title: 'Cotton Socks',
              variants: [buildVariant({ id: 'socks-blue', product_title: 'Cotton Socks', title: 'Blue' })],
            }),
          ]),
        ),
      ),
    )
    server.use(http.get('*/portal-registration/order', () => HttpResponse.json(order)))
    renderConfirm({ upsell: { kind: 'accepted', variantId: 'socks-blue' } })
    expect(await screen.findByRole('heading', { name: 'Some of your choices no longer work' })).toHaveFocus()
    expect(screen.getByRole('link', { name: 'Review the reason for Ceramic Mug' })).toHaveAttribute(
      'href',
      '/return-item/mug/return-reason',
    )
    expect(screen.getAllByRole('link', { name: /Review the reason/ })).toHaveLength(1)
    expect(screen.getByText('Fewer units of Classic Tee (M) can be returned now than you chose.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Change your items' })).toHaveAttribute('href', '/products')
    expect(
      await screen.findByText('Cotton Socks (Blue), the new item you chose, now costs more than your credit.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Choose another new item' })).toHaveAttribute('href', '/upsell-explore')
    expect(screen.queryByText('We could not work out your refund.')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Submit return' })).not.toBeInTheDocument()
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
    // The button comes with the quote: the server's word on the choices, before they are submitted.
    expect(await screen.findByRole('button', { name: 'Submit return' })).toBeEnabled()
  })
})

describe('confirm: keep-item returns', () => {
  const socks = buildLineItem({
    id: 'socks',
    title: 'Cotton Socks',
    variant_title: null,
    variant_id: null,
    quantity: 2,
    returnable_quantity: 2,
    price: money('9.90'),
  })
  const beanie = buildLineItem({
    id: 'beanie',
    title: 'Wool Beanie',
    variant_title: null,
    variant_id: null,
    price: money('17.00'),
  })
  const order = buildOrder({
    line_items: [socks, beanie],
    return_reasons: [{ id: 'changed_mind', label: 'Changed my mind', comment_required: false }],
  })
  const chosen = (lineItemId: string, quantity = 1): ChosenItem => ({
    lineItemId,
    quantity,
    reason: { id: 'changed_mind', comment: '' },
    exchange: { kind: 'refund' },
  })
  const quoted = (line_item_id: string, title: string, keep?: boolean): ReturnOrderItem => ({
    line_item_id,
    title,
    variant_title: null,
    quantity: 1,
    reason_id: 'changed_mind',
    reason_label: 'Changed my mind',
    comment: null,
    exchange_variant_id: null,
    exchange_variant_title: null,
    ...(keep === undefined ? {} : { keep }),
  })

  function renderConfirm(items: ChosenItem[], quote: ReturnOrder) {
    server.use(http.post('*/portal-registration/returns/quote', () => HttpResponse.json(quote)))
    return renderPortal({
      route: '/confirm',
      preloadedState: { returnFlow: buildFlow({ order, items, refundMethod: 'original_payment' }) },
    })
  }

  const rowOf = (title: string) =>
    within(screen.getByRole('list', { name: 'Your items' }))
      .getAllByRole('listitem')
      .find((row) => row.textContent?.includes(title))!

  test('mixed: the kept item says to keep it, the other does not, and the breakdown names the kept part', async () => {
    renderConfirm(
      [chosen('socks'), chosen('beanie')],
      buildQuote('22.95', {
        items: [quoted('socks', 'Cotton Socks', true), quoted('beanie', 'Wool Beanie', false)],
        breakdown: {
          items_subtotal: money('22.61'),
          tax: money('4.29'),
          return_fee: money('3.95'),
          bonus: money('0.00'),
          upsell: money('0.00'),
          total: money('22.95'),
          kept_items: money('9.90'),
        },
      }),
    )
    expect(await screen.findByText('Includes €9.90 for items you keep: no need to send them back.')).toBeVisible()
    expect(rowOf('Cotton Socks')).toHaveTextContent('Keep it, no need to send it back')
    expect(rowOf('Wool Beanie')).not.toHaveTextContent(/Keep it/)
    expect(rowOf('Wool Beanie')).toHaveTextContent('Refund')
  })

  test('every item kept: each says so, and the fee shows as free', async () => {
    renderConfirm(
      [chosen('socks', 2)],
      buildQuote('19.80', {
        items: [{ ...quoted('socks', 'Cotton Socks', true), quantity: 2 }],
        breakdown: {
          items_subtotal: money('16.64'),
          tax: money('3.16'),
          return_fee: money('0.00'),
          bonus: money('0.00'),
          upsell: money('0.00'),
          total: money('19.80'),
          kept_items: money('19.80'),
        },
      }),
    )
    expect(await screen.findByText('Includes €19.80 for items you keep: no need to send them back.')).toBeVisible()
    expect(rowOf('Cotton Socks')).toHaveTextContent('Keep it, no need to send it back')
    expect(screen.getByText('Return fee').nextElementSibling).toHaveTextContent('Free')
  })

  test('every refunded item kept: the timing counts from the submission, never from receiving items', async () => {
    renderConfirm(
      [chosen('socks')],
      buildQuote('9.90', {
        items: [quoted('socks', 'Cotton Socks', true)],
        refund_timing: { original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' } },
      }),
    )
    expect(await screen.findByText('Arrives 5–10 business days after you submit your return')).toBeVisible()
    expect(screen.queryByText(/receive your items/)).not.toBeInTheDocument()
  })

  test('a fee and a new item take the total below the kept items: it never says the total includes them', async () => {
    renderConfirm(
      [chosen('socks'), chosen('beanie')],
      buildQuote('4.95', {
        items: [quoted('socks', 'Cotton Socks', true), quoted('beanie', 'Wool Beanie', false)],
        breakdown: {
          items_subtotal: money('22.61'),
          tax: money('4.29'),
          return_fee: money('3.95'),
          bonus: money('0.00'),
          upsell: money('18.00'),
          total: money('4.95'),
          kept_items: money('9.90'),
        },
      }),
    )
    expect(
      await screen.findByText('Of what your items are worth, €9.90 is for items you keep: no need to send them back.'),
    ).toBeVisible()
    expect(screen.queryByText(/Includes/)).not.toBeInTheDocument()
  })

  test('without tax the items row is plain "Items"', async () => {
    renderConfirm([chosen('beanie')], buildQuote('13.05', { items: [quoted('beanie', 'Wool Beanie')] }))
    await screen.findByText('Total')
    const rows = [...document.querySelectorAll('.confirm__row')].map((row) => row.textContent)
    expect(rows[0]).toBe('Items€13.05')
    expect(screen.queryByText('Items (excl. tax)')).not.toBeInTheDocument()
  })

  test('nothing kept, or a quote from before the flag existed: no keep note anywhere', async () => {
    renderConfirm([chosen('beanie')], buildQuote('13.05', { items: [quoted('beanie', 'Wool Beanie')] }))
    expect(await screen.findByText('Total')).toBeInTheDocument()
    expect(screen.queryByText(/keep/i)).not.toBeInTheDocument()
  })

  test('before the quote answers, nothing claims an item is kept', async () => {
    server.use(http.post('*/portal-registration/returns/quote', () => new Promise<Response>(() => {})))
    renderPortal({
      route: '/confirm',
      preloadedState: { returnFlow: buildFlow({ order, items: [chosen('socks')], refundMethod: 'original_payment' }) },
    })
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument()
    expect(screen.queryByText(/Keep it/)).not.toBeInTheDocument()
  })
})

describe('confirm: sub-reasons and photos', () => {
  const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
  const order = buildOrder({
    line_items: [mug],
    token: 'jane-token',
    return_reasons: [
      {
        id: 'not-as-described',
        label: 'Not as described',
        comment_required: false,
        children: [{ id: 'wrong-item', label: 'Wrong item sent', comment_required: false, photos_required: 1 }],
      },
    ],
  })
  const photoIds = ['photoAAAAAAAAAAAAAAAAA', 'photoBBBBBBBBBBBBBBBBB']
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

  function api() {
    const seen = { quotes: [] as ReturnRequest[], previews: [] as string[] }
    server.use(
      http.post('*/portal-registration/returns/quote', async ({ request }) => {
        seen.quotes.push((await request.json()) as ReturnRequest)
        return HttpResponse.json(buildQuote('14.00'))
      }),
      http.get('*/portal-registration/photos/:id', ({ params, request }) => {
        seen.previews.push(`${String(params.id)} ${request.headers.get('authorization')}`)
        return new HttpResponse(PNG, { headers: { 'content-type': 'image/png' } })
      }),
    )
    return seen
  }

  const flow = (readOnly = false) =>
    buildFlow({
      order,
      readOnly,
      refundMethod: 'original_payment',
      items: [{ lineItemId: 'mug', quantity: 1, reason: { id: 'wrong-item', comment: '', photoIds }, exchange: null }],
    })

  test('names the sub-reason under its reason, previews the photos and sends their ids with the request', async () => {
    const seen = api()
    renderPortal({ route: '/confirm', preloadedState: { returnFlow: flow() } })
    const item = (await screen.findAllByRole('listitem')).find((candidate) =>
      candidate.textContent?.includes('Ceramic Mug'),
    )!
    expect(item).toHaveTextContent('Reason: Not as described: Wrong item sent')
    const photos = within(item).getByRole('group', { name: 'Your photos of the Ceramic Mug' })
    await waitFor(() =>
      expect(within(photos).getByRole('img', { name: 'Photo 2 of the Ceramic Mug' })).toHaveAttribute(
        'src',
        expect.stringMatching(/^data:image\/png;base64,/),
      ),
    )
    expect(seen.previews.sort()).toEqual(photoIds.map((id) => `${id} Bearer jane-token`))
    await waitFor(() =>
      expect(seen.quotes.at(-1)?.items[0]).toEqual({
        line_item_id: 'mug',
        quantity: 1,
        reason_id: 'wrong-item',
        exchange_variant_id: null,
        photo_ids: photoIds,
      }),
    )
  })

  test('a support replay shows where the photos are without fetching them', async () => {
    const seen = api()
    renderPortal({ route: '/confirm', preloadedState: { returnFlow: flow(true) } })
    const photos = await screen.findByRole('group', { name: 'Your photos of the Ceramic Mug' })
    expect(
      within(photos)
        .getAllByRole('img')
        .map((image) => [image.tagName, image.getAttribute('aria-label')]),
    ).toEqual([
      ['SPAN', 'Photo 1 of the Ceramic Mug'],
      ['SPAN', 'Photo 2 of the Ceramic Mug'],
    ])
    await waitFor(() => expect(seen.quotes.length).toBeGreaterThan(0))
    expect(seen.previews).toEqual([])
  })
})
