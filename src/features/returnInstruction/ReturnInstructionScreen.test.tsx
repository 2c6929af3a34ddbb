import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnFlowState } from '../returnFlow/returnFlowSlice'
import {
  buildCatalogue,
  buildFlow,
  buildInstructions,
  buildLineItem,
  buildOrder,
  buildProduct,
  buildVariant,
  buildQuote,
  buildReturnStatus,
  buildSubmittedReturn,
  money,
} from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'
import type { InstructionItem, NothingToSendInstructions, ReturnOrder, ReviewInstructions } from '../../../contract/api'

const instructionsRoute = '*/portal-registration/returns/:id/instructions'
const items: ReturnFlowState['items'] = [
  { lineItemId: 'mug', quantity: 1, reason: { id: 'too-small', comment: '' }, exchange: null },
]

function renderInstructions(flow: Partial<ReturnFlowState> = {}) {
  return renderPortal({
    route: '/return-instruction',
    preloadedState: { returnFlow: buildFlow({ items, submitted: buildSubmittedReturn(), ...flow }) },
  })
}

describe('return instructions', () => {
  test('the return address is written as its country writes it: the server’s lines, then the country', async () => {
    server.use(
      http.get(instructionsRoute, () =>
        HttpResponse.json(
          buildInstructions({
            address: {
              name: 'ACME Returns Center',
              line1: '1 Road Runner Way',
              line2: 'Dock 7',
              city: 'Phoenix',
              region: 'AZ',
              postal_code: '85001',
              country_code: 'US',
              lines: ['1 Road Runner Way', 'Dock 7', 'Phoenix, AZ 85001'],
            },
          }),
        ),
      ),
    )
    renderInstructions()
    const heading = await screen.findByRole('heading', { name: 'Return address' })
    const lines = [...heading.nextElementSibling!.children].map((line) => line.textContent)
    expect(lines).toEqual(['ACME Returns Center', '1 Road Runner Way', 'Dock 7', 'Phoenix, AZ 85001', 'United States'])
  })

  test('the new item taken with the return is shown with its image, variant and price, and when it ships', async () => {
    server.use(
      http.get(instructionsRoute, () => HttpResponse.json(buildInstructions())),
      http.get('*/portal-registration/catalogue', () =>
        HttpResponse.json(
          buildCatalogue([
            buildProduct({
              image_src: 'https://cdn.example.com/socks.png',
              variants: [
                buildVariant({ id: 'socks-blue', product_title: 'Cotton Socks', title: 'Blue', price: money('9.00') }),
              ],
            }),
          ]),
        ),
      ),
    )
    renderInstructions({ upsell: { kind: 'accepted', variantId: 'socks-blue' } })
    const section = await screen.findByRole('region', { name: 'Your new item' })
    expect(await within(section).findByText('Cotton Socks')).toBeInTheDocument()
    expect(section).toHaveTextContent('Cotton SocksBlue€9.00')
    expect(section.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/socks.png')
    expect(section).toHaveTextContent('It ships once your return arrives.')
  })

  test.each([
    ['a new item alone', null, 'It ships once your return arrives.'],
    ['a new item beside an exchanged item', 'v-l', 'Your new items ship once your return arrives.'],
  ])('%s: one line says when it ships', async (_name, exchangeVariantId, words) => {
    server.use(
      http.get(instructionsRoute, () => HttpResponse.json(buildInstructions())),
      http.get('*/portal-registration/catalogue', () =>
        HttpResponse.json(
          buildCatalogue([
            buildProduct({ variants: [buildVariant({ id: 'socks-blue', product_title: 'Cotton Socks' })] }),
          ]),
        ),
      ),
    )
    const submitted = buildSubmittedReturn()
    renderInstructions({
      upsell: { kind: 'accepted', variantId: 'socks-blue' },
      submitted: {
        ...submitted,
        items: [
          {
            line_item_id: 'mug',
            title: 'Ceramic Mug',
            variant_title: null,
            quantity: 1,
            reason_id: 'too-small',
            reason_label: 'Too small',
            comment: null,
            exchange_variant_id: exchangeVariantId,
            exchange_variant_title: exchangeVariantId ? 'L' : null,
            keep: false,
          },
        ],
        breakdown: { ...submitted.breakdown, upsell: money('9.00') },
      },
    })
    await screen.findByRole('region', { name: 'Your new item' })
    expect(screen.getAllByText(/ships? once your return arrives/)).toHaveLength(1)
    expect(screen.getByText(words, { exact: false })).toBeInTheDocument()
  })

  test('a session that lapsed before the instructions came: verify again here, then they show', async () => {
    let calls = 0
    server.use(
      http.get(instructionsRoute, () =>
        ++calls === 1
          ? HttpResponse.json({ error: 'session_expired' }, { status: 401 })
          : HttpResponse.json(buildInstructions()),
      ),
    )
    const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug' })
    const order = buildOrder({ line_items: [mug], email: 'jane@example.com' })
    // Verify now says the mug is returned: the made return keeps it all the same.
    const now = { ...order, line_items: [{ ...mug, returnable_quantity: 0 }], token: 'fresh' }
    server.use(http.post('*/portal-registration/verify', () => HttpResponse.json(now)))
    const { user, store } = renderInstructions({ order })
    await user.click(await screen.findByRole('button', { name: 'Continue with my return' }))
    expect(await screen.findByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    expect(store.getState().returnFlow).toMatchObject({ items, order: { ...order, token: 'fresh' } })
  })

  test('while the instructions are on their way, nothing stands below them that would move: the way back and the help come with them', async () => {
    let answer: () => void = () => undefined
    server.use(
      http.get(instructionsRoute, async () => {
        await new Promise<void>((resolve) => (answer = resolve))
        return HttpResponse.json(buildInstructions())
      }),
    )
    renderInstructions()
    expect(await screen.findByRole('status', { name: 'Loading your return instructions' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Start another return' })).not.toBeInTheDocument()
    expect(screen.queryByText('Help with your return')).not.toBeInTheDocument()
    answer()
    expect(await screen.findByRole('link', { name: 'Start another return' })).toBeInTheDocument()
    expect(screen.getByText('Help with your return')).toBeInTheDocument()
  })

  test('shows the number, steps, label, QR code, address and refund, with a way back to the start', async () => {
    const seen: { id?: string; auth?: string | null } = {}
    server.use(
      http.get(instructionsRoute, ({ params, request }) => {
        seen.id = String(params.id)
        seen.auth = request.headers.get('authorization')
        return HttpResponse.json(buildInstructions())
      }),
    )
    renderInstructions()
    expect(await screen.findByRole('heading', { level: 1, name: 'Your return is registered' })).toBeInTheDocument()
    expect(await screen.findByText('#1001-R1')).toBeInTheDocument()
    expect(seen).toEqual({ id: 'return-1', auth: 'Bearer test-token' })

    const steps = within(screen.getByRole('list', { name: 'What to do next' })).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual([
      'Pack the items in their original packaging.',
      'Print the label and stick it on the parcel.',
      'Drop the parcel off within 14 days.',
    ])
    // An API-relative label is made absolute on the API host (this page's origin here).
    const label = screen.getByRole('link', { name: 'Download shipping label (PDF)' })
    expect(label).toHaveAttribute(
      'href',
      'http://localhost/portal-registration/returns/return-1/label.pdf?signature=abc',
    )

    const qr = screen.getByRole('img', { name: 'QR code for drop-off: RB-1001-R1' })
    expect(qr.getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(buildInstructions().qr_svg)}`,
    )
    expect(screen.getByText('Code: RB-1001-R1')).toBeInTheDocument()

    const address = screen.getByRole('heading', { name: 'Return address' }).nextElementSibling!
    expect(address).toHaveTextContent(/Demo Store Returns.*Hafenstraße 12.*20457 Hamburg.*Germany/)
    expect(
      screen.getByText('Once we receive your items, we refund €25.00 to your original payment method.'),
    ).toBeInTheDocument()

    expect(screen.getByRole('link', { name: 'Start another return' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument()
  })

  test('an SVG with a script is only ever an image, and a non-http label is not linked', async () => {
    const hostile = '<svg xmlns="http://www.w3.org/2000/svg"><script>window.hacked = true</script></svg>'
    server.use(
      http.get(instructionsRoute, () =>
        HttpResponse.json(buildInstructions({ qr_svg: hostile, label_url: 'javascript:alert(1)' })),
      ),
    )
    const { container } = renderInstructions()
    expect(await screen.findByRole('img', { name: /QR code for drop-off/ })).toBeInTheDocument()
    expect(container.querySelector('svg script, script')).toBeNull()
    expect((window as { hacked?: boolean }).hacked).toBeUndefined()
    expect(screen.queryByRole('link', { name: /shipping label/ })).not.toBeInTheDocument()
    expect(screen.getByText(/The shipping label is not available/)).toBeInTheDocument()
  })

  test('an absolute https label is used as it is; store credit is described as a gift card', async () => {
    server.use(
      http.get(instructionsRoute, () =>
        HttpResponse.json(buildInstructions({ label_url: 'https://labels.example.com/r1.pdf' })),
      ),
    )
    renderInstructions({
      submitted: buildSubmittedReturn({
        refund_method: 'store_credit',
        breakdown: { ...buildQuote('10.00').breakdown, total: money('11.00') },
      }),
    })
    expect(await screen.findByRole('link', { name: 'Download shipping label (PDF)' })).toHaveAttribute(
      'href',
      'https://labels.example.com/r1.pdf',
    )
    expect(
      screen.getByText('Once we receive your items, you get €11.00 as store credit (a gift card) by e-mail.'),
    ).toBeInTheDocument()
  })

  test('a failed load is announced with Try again, keeping the return number', async () => {
    let calls = 0
    server.use(
      http.get(instructionsRoute, () =>
        ++calls === 1 ? HttpResponse.json({ error: 'x' }, { status: 500 }) : HttpResponse.json(buildInstructions()),
      ),
    )
    const { user } = renderInstructions()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your return is registered, but we could not load the instructions.',
    )
    expect(screen.getByText('#1001-R1')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: 'Download shipping label (PDF)' })).toBeInTheDocument()
  })

  test('without a submitted return it goes to confirm', async () => {
    server.use(http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('25.00'))))
    const { router } = renderInstructions({ submitted: null })
    expect(await screen.findByRole('heading', { level: 1, name: 'Check and confirm your return' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/confirm')
  })

  test('offers the return’s status page: a link to keep (with the session’s language) and a way there', async () => {
    server.use(
      http.get(instructionsRoute, () => HttpResponse.json(buildInstructions())),
      http.get('*/portal-registration/returns/:id/status', ({ request }) =>
        new URL(request.url).searchParams.get('signature') === buildInstructions().status_token
          ? HttpResponse.json(buildReturnStatus())
          : HttpResponse.json({ error: 'not_found' }, { status: 404 }),
      ),
    )
    const { user, router } = renderInstructions({ launch: { lang: 'de', testMode: false, configOverride: null } })
    const follow = await screen.findByRole('region', { name: 'Ihre Rücksendung verfolgen' })
    const path = `/status/return-1?lang=de#${buildInstructions().status_token}`
    expect(within(follow).getByRole('textbox', { name: 'Link zum Status Ihrer Rücksendung' })).toHaveValue(
      `http://localhost${path}`,
    )
    await user.click(within(follow).getByRole('link', { name: 'Status Ihrer Rücksendung ansehen' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Rücksendung #1001-R1' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/status/return-1')
  })

  test('with the shop’s refund timing the refund says when the money arrives', async () => {
    server.use(http.get(instructionsRoute, () => HttpResponse.json(buildInstructions())))
    renderInstructions({
      submitted: buildSubmittedReturn({
        refund_timing: { original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' } },
      }),
    })
    expect(
      await screen.findByText(
        'We refund €25.00 to your original payment method, 5–10 business days after we receive your items.',
      ),
    ).toBeInTheDocument()
  })

  test('an exchange only has no refund section: it says the new items ship', async () => {
    server.use(http.get(instructionsRoute, () => HttpResponse.json(buildInstructions())))
    const exchanged = {
      line_item_id: 'tee',
      title: 'Classic Tee',
      variant_title: 'M',
      quantity: 1,
      reason_id: 'too-small',
      reason_label: 'Too small',
      comment: null,
      exchange_variant_id: 'v-l',
      exchange_variant_title: 'L',
      keep: false,
    }
    renderInstructions({
      submitted: buildSubmittedReturn({ items: [exchanged], breakdown: buildQuote('0.00').breakdown }),
    })
    expect(await screen.findByRole('heading', { name: 'Your exchange' })).toBeInTheDocument()
    expect(screen.getByText('Your new items ship once your return arrives.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Your refund' })).not.toBeInTheDocument()
  })

  test('a refund at once on submission reads as done once the return is submitted', async () => {
    server.use(http.get(instructionsRoute, () => HttpResponse.json(buildInstructions())))
    const atOnce = { from_days: 0, to_days: 0, business_days: true, after: 'submit' as const }
    renderInstructions({
      submitted: buildSubmittedReturn({ refund_method: 'store_credit', refund_timing: { store_credit: atOnce } }),
    })
    expect(
      await screen.findByText(
        'We issued €25.00 as store credit (a gift card) when you submitted your return: look for it in your e-mail.',
      ),
    ).toBeInTheDocument()
    expect(screen.queryByText(/when you submit your return/)).not.toBeInTheDocument()
  })
})

describe('return instructions: keep-item returns', () => {
  const items: ReturnFlowState['items'] = [
    { lineItemId: 'socks', quantity: 2, reason: { id: 'changed_mind', comment: '' }, exchange: { kind: 'refund' } },
  ]
  const socks: InstructionItem = {
    line_item_id: 'socks',
    title: 'Cotton Socks',
    variant_title: null,
    quantity: 2,
    keep: true,
  }
  const beanie: InstructionItem = {
    line_item_id: 'beanie',
    title: 'Wool Beanie',
    variant_title: 'Grey',
    quantity: 1,
    keep: false,
  }
  const returnItem = (item: InstructionItem): ReturnOrder['items'][number] => ({
    line_item_id: item.line_item_id,
    title: item.title,
    variant_title: item.variant_title,
    quantity: item.quantity,
    reason_id: 'changed_mind',
    reason_label: 'Changed my mind',
    comment: null,
    exchange_variant_id: null,
    exchange_variant_title: null,
    keep: item.keep,
  })

  function renderInstructions(answer: object, submitted: ReturnOrder) {
    server.use(http.get('*/portal-registration/returns/:id/instructions', () => HttpResponse.json(answer)))
    return renderPortal({
      route: '/return-instruction',
      preloadedState: { returnFlow: buildFlow({ items, submitted }) },
    })
  }

  test('every item kept: a clear "nothing to send", the items to keep, and no label, QR code or address', async () => {
    const answer: NothingToSendInstructions = {
      return_id: 'return-1',
      return_name: '#1010-R1',
      steps: ['Keep the items: there is nothing to pack, print or drop off. Your refund is on its way.'],
      items: [socks],
      nothing_to_send: true,
      status_token: 'signature',
    }
    renderInstructions(
      answer,
      buildSubmittedReturn({
        name: '#1010-R1',
        items: [returnItem(socks)],
        refund_method: 'original_payment',
        breakdown: { ...buildSubmittedReturn().breakdown, total: money('19.80') },
      }),
    )
    expect(await screen.findByRole('heading', { level: 2, name: 'You don’t need to send anything back' })).toBeVisible()
    expect(screen.getByText(answer.steps[0]!)).toBeVisible()
    expect(
      within(screen.getByRole('list', { name: 'Keep, no need to send back' })).getByRole('listitem'),
    ).toHaveTextContent('2 × Cotton Socks')
    expect(screen.queryByRole('list', { name: 'Send back' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /shipping label/ })).not.toBeInTheDocument()
    expect(screen.queryByText(/shipping label is not available/)).not.toBeInTheDocument()
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Return address' })).not.toBeInTheDocument()
    expect(screen.queryByText(/Pack the items/)).not.toBeInTheDocument()
    // The refund does not wait for a parcel that is never sent.
    expect(
      screen.getByText('We refund €19.80 to your original payment method. There is nothing to send back.'),
    ).toBeVisible()
  })

  test('mixed: what to send and what to keep, with the label and QR code for the parcel', async () => {
    renderInstructions(
      buildInstructions({
        items: [socks, beanie],
        steps: ['Pack only the items to send back in a parcel.', 'Print the label.', 'Drop it off.'],
      }),
      buildSubmittedReturn({ items: [returnItem(socks), returnItem(beanie)] }),
    )
    const send = await screen.findByRole('list', { name: 'Send back' })
    expect(within(send).getByRole('listitem')).toHaveTextContent('1 × Wool Beanie · Grey')
    expect(
      within(screen.getByRole('list', { name: 'Keep, no need to send back' })).getByRole('listitem'),
    ).toHaveTextContent('2 × Cotton Socks')
    expect(screen.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    expect(screen.getByRole('img', { name: /QR code/ })).toBeVisible()
    expect(screen.getByText(/Once we receive your items/)).toBeVisible()
  })

  test('nothing kept: the items to pack are listed all the same, and no keep list', async () => {
    renderInstructions(
      buildInstructions({ items: [{ ...beanie }] }),
      buildSubmittedReturn({ items: [returnItem(beanie)] }),
    )
    expect(await screen.findByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    expect(screen.getByRole('list', { name: 'Send back' })).toHaveTextContent(beanie.title)
    expect(screen.queryByRole('list', { name: /Keep/ })).not.toBeInTheDocument()
  })
})

describe('return instructions: a return the shop reviews', () => {
  const mugItem: InstructionItem = {
    line_item_id: 'mug',
    title: 'Ceramic Mug',
    variant_title: null,
    quantity: 1,
    keep: false,
  }
  const teeItem: InstructionItem = {
    line_item_id: 'tee',
    title: 'Classic Tee',
    variant_title: 'M',
    quantity: 2,
    keep: false,
  }
  const review = (overrides: Partial<ReviewInstructions> = {}): ReviewInstructions => ({
    return_id: 'return-1',
    return_name: '#1001-R1',
    steps: ['We check your return and e-mail you our answer.'],
    items: [mugItem, teeItem],
    review: { state: 'pending', answer_by: '2026-11-16' },
    status_token: buildInstructions().status_token,
    ...overrides,
  })

  function renderReview(answer: ReviewInstructions, flow: Partial<ReturnFlowState> = {}) {
    server.use(http.get(instructionsRoute, () => HttpResponse.json(answer)))
    return renderPortal({
      route: '/return-instruction',
      preloadedState: { returnFlow: buildFlow({ items, submitted: buildSubmittedReturn(), ...flow }) },
    })
  }

  /** What a return under review must never offer: something to send. */
  function expectNothingToSendYet() {
    expect(screen.queryByRole('link', { name: /shipping label/ })).not.toBeInTheDocument()
    expect(screen.queryByText(/shipping label is not available/)).not.toBeInTheDocument()
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument()
    expect(screen.queryByText(/^Code:/)).not.toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Return address' })).not.toBeInTheDocument()
    expect(screen.queryByText(/Hafenstraße/)).not.toBeInTheDocument()
  }

  test('waiting for review: says so, by when the shop answers, that the label comes by e-mail once approved; no label, QR or address', async () => {
    renderReview(review())
    expect(await screen.findByRole('heading', { level: 1, name: 'Your return is being reviewed' })).toBeInTheDocument()
    expect(screen.getByText('#1001-R1')).toBeInTheDocument()
    expect(screen.getByText('The shop will answer by', { exact: false })).toHaveTextContent(
      'The shop will answer by November 16, 2026.',
    )
    expect(screen.getByText('November 16, 2026')).toHaveAttribute('datetime', '2026-11-16')
    expect(
      screen.getByText(
        'There is no shipping label yet. Once your return is approved, we e-mail you the label. Please don’t send anything before then.',
      ),
    ).toBeVisible()
    expect(within(screen.getByRole('list', { name: 'What happens next' })).getByRole('listitem')).toHaveTextContent(
      'We check your return and e-mail you our answer.',
    )
    const listed = within(screen.getByRole('list', { name: 'Items in your return' })).getAllByRole('listitem')
    expect(listed.map((item) => item.textContent)).toEqual(['1 × Ceramic Mug', '2 × Classic Tee · M'])
    expectNothingToSendYet()
    // No refund is promised before the shop has answered.
    expect(screen.queryByRole('heading', { name: 'Your refund' })).not.toBeInTheDocument()

    const follow = screen.getByRole('region', { name: 'Follow your return' })
    expect(within(follow).getByRole('textbox', { name: 'Link to your return’s status' })).toHaveValue(
      `http://localhost/status/return-1#${buildInstructions().status_token}`,
    )
    expect(within(follow).getByRole('link', { name: 'See your return’s status' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Start another return' })).toHaveAttribute('href', '/')
    expect(document.title).toBe('Your return is being reviewed – Demo Store Returns')
  })

  test('waiting for review: the headings go in order, each under the page’s own', async () => {
    renderReview(review())
    await screen.findByRole('heading', { level: 1, name: 'Your return is being reviewed' })
    const headings = screen.getAllByRole('heading').map((heading) => [heading.tagName, heading.textContent])
    expect(headings.slice(0, 4)).toEqual([
      ['H1', 'Your return is being reviewed'],
      ['H2', 'What happens next'],
      ['H2', 'Items in your return'],
      ['H2', 'Follow your return'],
    ])
  })

  test('waiting without a day from the server, and without steps: the shop answers soon, and no empty list', async () => {
    renderReview(review({ steps: [], review: { state: 'pending' } }))
    expect(await screen.findByText('The shop will answer soon.')).toBeVisible()
    expect(screen.queryByRole('list', { name: 'What happens next' })).not.toBeInTheDocument()
    expectNothingToSendYet()
  })

  test('rejected (the page opened again later): the shop’s reason in its words, that nothing is to be sent; no label', async () => {
    renderReview(
      review({
        steps: [],
        review: {
          state: 'rejected',
          reason: 'The photos show wear <b>after</b> use.',
          decided_at: '2026-11-13T10:00:00.000Z',
        },
      }),
    )
    expect(await screen.findByRole('heading', { level: 1, name: 'Your return was not accepted' })).toBeInTheDocument()
    const reason = screen.getByRole('region', { name: 'The shop’s reason' })
    expect(within(reason).getByText('The photos show wear <b>after</b> use.')).toBeVisible()
    expect(reason.querySelector('b')).toBeNull()
    expect(screen.getByText('You don’t need to send anything back, and nothing is refunded.')).toBeVisible()
    expect(screen.queryByText(/The shop will answer/)).not.toBeInTheDocument()
    expect(screen.queryByText(/no shipping label yet/)).not.toBeInTheDocument()
    expectNothingToSendYet()
    expect(screen.queryByRole('heading', { name: 'Your refund' })).not.toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Follow your return' })).toBeInTheDocument()
  })

  test('in the shopper’s language: the heading, and the day as the language writes it', async () => {
    renderReview(review(), { launch: { lang: 'de', testMode: false, configOverride: null } })
    expect(await screen.findByRole('heading', { level: 1, name: 'Ihre Rücksendung wird geprüft' })).toBeInTheDocument()
    expect(screen.getByText('Der Shop antwortet Ihnen', { exact: false })).toHaveTextContent(
      'Der Shop antwortet Ihnen bis zum 16. November 2026.',
    )
    expect(screen.getByText(/Es gibt noch kein Versandetikett/)).toBeVisible()
  })
})
