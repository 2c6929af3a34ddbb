import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnStatus } from '../../../contract/api'
import { buildReturnStatus, buildStatusItem, money } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const statusRoute = '*/portal-registration/returns/:id/status'
const SIGNATURE = 'aSignatureOfReturn1_xyzXYZ0123456789-abcde'
const route = (hash = `#${SIGNATURE}`, search = '') => `/status/return-1${search}${hash}`

interface Seen {
  calls: { id: string; signature: string | null; auth: string | null }[]
}

function answer(status: ReturnStatus | (() => Response)): Seen {
  const seen: Seen = { calls: [] }
  server.use(
    http.get(statusRoute, ({ params, request }) => {
      seen.calls.push({
        id: String(params.id),
        signature: new URL(request.url).searchParams.get('signature'),
        auth: request.headers.get('authorization'),
      })
      return typeof status === 'function' ? status() : HttpResponse.json(status)
    }),
  )
  return seen
}

const tee = buildStatusItem({
  line_item_id: 'tee',
  title: 'Classic Tee',
  variant_title: 'M',
  exchange_variant_title: 'L',
  state: 'in_transit',
  history: [
    { state: 'requested', at: '2026-11-12T10:00:00.000Z' },
    { state: 'in_transit', at: '2026-11-13T10:00:00.000Z' },
  ],
})
const mug = buildStatusItem({
  line_item_id: 'mug',
  title: 'Ceramic Mug',
  variant_title: null,
  state: 'in_transit',
  history: tee.history,
})

describe('return status page', () => {
  test('opens without a session: each item’s progress as an ordered list with the current step named, the refund with its timing, label and QR', async () => {
    const seen = answer(
      buildReturnStatus({
        items: [tee, mug],
        refund: {
          method: 'original_payment',
          amount: { amount: '10.05', currency_code: 'EUR' },
          timing: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
          expected: null,
        },
      }),
    )
    renderPortal({ route: route() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Return #1001-R1' })).toBeInTheDocument()
    // The signature goes to the API as the link's proof, and no session token with it.
    expect(seen.calls).toEqual([{ id: 'return-1', signature: SIGNATURE, auth: null }])
    expect(screen.getByText('Submitted on November 12, 2026')).toBeInTheDocument()

    const [teeCard, mugCard] = within(screen.getByRole('region', { name: 'Your items' })).getAllByRole('listitem', {
      name: /Classic Tee|Ceramic Mug/,
    })
    expect(teeCard).toHaveTextContent(/Classic Tee.*M.*Quantity: 1.*Exchange for L/)
    expect(within(teeCard!).getByText('Now:', { exact: false })).toHaveTextContent('Now: On its way to us')
    const track = within(teeCard!).getByRole('list', { name: 'Progress of Classic Tee' })
    expect(track.tagName).toBe('OL')
    const steps = within(track).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual([
      'Return requested (done)November 12, 2026',
      'On its way to us (current step)November 13, 2026',
      'Received by us (not yet)',
      'New item sent (not yet)',
    ])
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, 'step', null, null])
    // A refunded item's last step is money, not a new item.
    expect(within(mugCard!).getAllByRole('listitem').at(-1)).toHaveTextContent('Refunded (not yet)')

    const refund = screen.getByRole('region', { name: 'Your refund' })
    expect(refund).toHaveTextContent('€10.05 to your original payment method')
    expect(refund).toHaveTextContent('Arrives 5–10 business days after we receive your items')

    const label = screen.getByRole('region', { name: 'Your label and drop-off code' })
    expect(within(label).getByRole('link', { name: 'Download shipping label (PDF)' })).toHaveAttribute(
      'href',
      'http://localhost/portal-registration/returns/return-1/label.pdf?signature=abc',
    )
    expect(within(label).getByRole('img', { name: 'QR code for drop-off: RB-1001-R1' })).toBeInTheDocument()
    expect(label).toHaveTextContent(/Hafenstraße 12.*20457 Hamburg/)
    expect(screen.getByRole('textbox', { name: 'Link to your return’s status' })).toHaveValue(
      `http://localhost${route()}`,
    )
    expect(screen.getByRole('link', { name: 'Go to the start' })).toHaveAttribute('href', '/')
  })

  test.each([
    ['to_be_sent', 'To be sent once your return is done'],
    ['sent', 'Sent'],
  ] as const)('the new item taken with the return shows with its own state (%s)', async (state, words) => {
    answer(
      buildReturnStatus({
        new_item: {
          variant_id: 'socks-blue',
          product_title: 'Cotton Socks',
          title: 'Blue',
          price: money('6.00'),
          image_src: 'https://cdn.example.com/socks.png',
          state,
        },
      }),
    )
    renderPortal({ route: route() })
    const section = await screen.findByRole('region', { name: 'Your new item' })
    expect(section).toHaveTextContent(`Cotton SocksBlue€6.00${words}`)
    expect(section.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/socks.png')
  })

  test('once the dates are known they are shown; once everything is received the label is gone', async () => {
    answer(
      buildReturnStatus({
        items: [
          buildStatusItem({
            state: 'received',
            history: [...tee.history, { state: 'received', at: '2026-11-20T10:00:00.000Z' }],
          }),
        ],
        refund: {
          method: 'original_payment',
          amount: { amount: '25.00', currency_code: 'EUR' },
          timing: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
          expected: { from: '2026-11-27', to: '2026-12-04' },
        },
        label: null,
      }),
    )
    renderPortal({ route: route() })
    expect(await screen.findByText('Expected between November 27, 2026 and December 4, 2026')).toBeInTheDocument()
    expect(screen.queryByText(/Arrives/)).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Your label and drop-off code' })).not.toBeInTheDocument()
    // Arrived: no parcel is on its way any more, and the item's progress says where it is.
    expect(
      screen.queryByText('Your parcel is on its way to us, so you no longer need the label.'),
    ).not.toBeInTheDocument()
    expect(screen.getByText('Now:', { exact: false })).toHaveTextContent('Now: Received by us')
  })

  test('store credit at once: expected on one day; a shop without timing shows the amount only', async () => {
    answer(
      buildReturnStatus({
        refund: {
          method: 'store_credit',
          amount: { amount: '11.06', currency_code: 'EUR' },
          timing: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
          expected: { from: '2026-11-12', to: '2026-11-12' },
        },
      }),
    )
    const { unmount } = renderPortal({ route: route() })
    expect(await screen.findByText('Expected on November 12, 2026')).toBeInTheDocument()
    expect(screen.getByText('€11.06 as store credit (a gift card)')).toBeInTheDocument()
    unmount()

    answer(buildReturnStatus())
    renderPortal({ route: route() })
    const refund = await screen.findByRole('region', { name: 'Your refund' })
    expect(refund).toHaveTextContent(/^Your refund€25.00 to your original payment method$/)
  })

  test('in the shop’s language from ?lang=de', async () => {
    answer(
      buildReturnStatus({
        items: [tee],
        refund: {
          method: 'original_payment',
          amount: { amount: '10.05', currency_code: 'EUR' },
          timing: { from_days: 1, to_days: 1, business_days: true, after: 'receipt' },
          expected: null,
        },
      }),
    )
    renderPortal({ route: route(`#${SIGNATURE}`, '?lang=de') })
    expect(await screen.findByRole('heading', { level: 1, name: 'Rücksendung #1001-R1' })).toBeInTheDocument()
    expect(screen.getByText('Aktuell:', { exact: false })).toHaveTextContent('Aktuell: Auf dem Weg zu uns')
    expect(screen.getByText('Auszahlung: 1 Werktag nach Eingang Ihrer Artikel')).toBeInTheDocument()
  })

  test.each([
    ['no signature in the link', '', null],
    ['a signature that is no signature of ours', '#not%20a%20signature', null],
    ['a forged or unknown link (404)', `#${SIGNATURE}`, 404],
    ['a malformed request (400)', `#${SIGNATURE}`, 400],
  ])('%s says the link is not valid, and no more', async (_name, hash, code) => {
    const seen = answer(() =>
      HttpResponse.json({ error: 'not_found', message: 'This status link is not valid.' }, { status: code ?? 404 }),
    )
    renderPortal({ route: route(hash) })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link is not valid. Check that you copied all of it, or ask the shop for a new one.',
    )
    expect(seen.calls).toHaveLength(code === null ? 0 : 1)
    expect(screen.getByRole('heading', { level: 1, name: 'Your return' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
  })

  test('an expired link says so', async () => {
    answer(() =>
      HttpResponse.json({ error: 'link_expired', message: 'This status link has expired.' }, { status: 410 }),
    )
    renderPortal({ route: route() })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link has expired. Please contact the shop about your return.',
    )
  })

  test('a failed load offers Try again, which loads the return', async () => {
    let calls = 0
    server.use(
      http.get(statusRoute, () =>
        ++calls === 1
          ? HttpResponse.json({ error: 'internal' }, { status: 500 })
          : HttpResponse.json(buildReturnStatus()),
      ),
    )
    const { user } = renderPortal({ route: route() })
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load your return. Please try again.')
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Return #1001-R1' })).toBeInTheDocument()
  })

  test('a kept item says the shopper keeps it and has two steps only; the label is for the items sent', async () => {
    const socks = buildStatusItem({ line_item_id: 'socks', title: 'Cotton Socks', variant_title: null, keep: true })
    const beanie = buildStatusItem({
      line_item_id: 'beanie',
      title: 'Wool Beanie',
      variant_title: null,
      state: 'in_transit',
      history: tee.history,
    })
    answer(buildReturnStatus({ items: [socks, beanie] }))
    renderPortal({ route: route() })
    const items = within(await screen.findByRole('region', { name: 'Your items' }))
    const socksCard = items.getByRole('listitem', { name: 'Cotton Socks' })
    expect(within(socksCard).getByText('You keep this item: no need to send it back')).toBeInTheDocument()
    expect(within(socksCard).getByText('Now:', { exact: false })).toHaveTextContent('Now: Return requested')
    const track = within(socksCard).getByRole('list', { name: 'Progress of Cotton Socks' })
    expect(track.tagName).toBe('OL')
    const steps = within(track).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual([
      'Return requested (current step)November 12, 2026',
      'Refunded (not yet)',
    ])
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual(['step', null])
    // The beanie travels: four steps, and no word of keeping it.
    const beanieCard = items.getByRole('listitem', { name: 'Wool Beanie' })
    expect(within(beanieCard).getAllByRole('listitem')).toHaveLength(4)
    expect(within(beanieCard).queryByText(/You keep this item/)).not.toBeInTheDocument()
    const label = screen.getByRole('region', { name: 'Your label and drop-off code' })
    expect(label).toHaveTextContent('Only for the items you send back: the items you keep stay with you.')
    expect(within(label).getByRole('link', { name: 'Download shipping label (PDF)' })).toBeInTheDocument()
  })

  test('every item kept and refunded: its two steps done and current, no label or QR, the dates from the submission', async () => {
    const socks = buildStatusItem({
      title: 'Cotton Socks',
      quantity: 2,
      keep: true,
      state: 'refunded',
      history: [
        { state: 'requested', at: '2026-11-12T10:00:00.000Z' },
        { state: 'refunded', at: '2026-11-13T10:00:00.000Z' },
      ],
    })
    answer(
      buildReturnStatus({
        items: [socks],
        refund: {
          method: 'original_payment',
          amount: { amount: '19.80', currency_code: 'EUR' },
          timing: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
          expected: { from: '2026-11-19', to: '2026-11-26' },
        },
        label: null,
      }),
    )
    renderPortal({ route: route() })
    const card = await screen.findByRole('listitem', { name: 'Cotton Socks' })
    expect(card).toHaveTextContent('Quantity: 2')
    expect(within(card).getByText('You keep this item: no need to send it back')).toBeInTheDocument()
    expect(within(card).getByText('Now:', { exact: false })).toHaveTextContent('Now: Refunded')
    const steps = within(within(card).getByRole('list', { name: 'Progress of Cotton Socks' })).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual([
      'Return requested (done)November 12, 2026',
      'Refunded (current step)November 13, 2026',
    ])
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, 'step'])
    expect(screen.getByRole('region', { name: 'Your refund' })).toHaveTextContent(
      'Expected between November 19, 2026 and November 26, 2026',
    )
    expect(screen.queryByRole('region', { name: 'Your label and drop-off code' })).not.toBeInTheDocument()
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /shipping label/ })).not.toBeInTheDocument()
  })

  test('a kept item in German', async () => {
    answer(buildReturnStatus({ items: [buildStatusItem({ title: 'Baumwollsocken', keep: true })], label: null }))
    renderPortal({ route: route(`#${SIGNATURE}`, '?lang=de') })
    const card = await screen.findByRole('listitem', { name: 'Baumwollsocken' })
    expect(within(card).getByText('Sie behalten diesen Artikel: Sie müssen ihn nicht zurücksenden')).toBeInTheDocument()
    expect(within(card).getAllByRole('listitem')).toHaveLength(2)
  })

  test('an image that is no http(s) URL is not shown', async () => {
    answer(buildReturnStatus({ items: [buildStatusItem({ image_src: 'javascript:alert(1)' })] }))
    const { container } = renderPortal({ route: route() })
    await screen.findByRole('heading', { level: 1, name: 'Return #1001-R1' })
    expect(container.querySelector('img[src^="javascript"]')).toBeNull()
  })

  test('an exchange only shows no refund block', async () => {
    answer(buildReturnStatus({ items: [tee], refund: null }))
    renderPortal({ route: route() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Return #1001-R1' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Your refund' })).not.toBeInTheDocument()
    expect(screen.queryByText(/nothing to refund/)).not.toBeInTheDocument()
  })

  test('store credit issued at once on submission reads as done: issued on the day, not expected', async () => {
    const sent = buildStatusItem({
      line_item_id: 'mug',
      title: 'Ceramic Mug',
      variant_title: null,
      states: ['requested', 'in_transit', 'received'],
    })
    answer(
      buildReturnStatus({
        items: [sent],
        refund: {
          method: 'store_credit',
          amount: { amount: '11.06', currency_code: 'EUR' },
          timing: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
          expected: { from: '2026-11-12', to: '2026-11-12' },
          issued_at: '2026-11-12T10:00:00.000Z',
        },
      }),
    )
    renderPortal({ route: route() })
    const refund = await screen.findByRole('region', { name: 'Your refund' })
    expect(refund).toHaveTextContent('Issued on November 12, 2026, when you submitted your return')
    expect(refund).not.toHaveTextContent(/Expected|at once/)
    expect(
      within(screen.getByRole('list', { name: 'Progress of Ceramic Mug' })).queryByText('Refunded'),
    ).not.toBeInTheDocument()
  })
  test('a sent item refunded at submission and then received reads as received, in its "Now" as on its track', async () => {
    const sent = buildStatusItem({
      line_item_id: 'mug',
      title: 'Ceramic Mug',
      variant_title: null,
      state: 'refunded',
      states: ['requested', 'in_transit', 'received'],
      history: [
        { state: 'requested', at: '2026-11-12T10:00:00.000Z' },
        { state: 'received', at: '2026-11-14T10:00:00.000Z' },
        { state: 'refunded', at: '2026-11-14T10:00:00.000Z' },
      ],
    })
    answer(
      buildReturnStatus({
        items: [sent],
        refund: {
          method: 'store_credit',
          amount: { amount: '11.06', currency_code: 'EUR' },
          timing: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
          expected: { from: '2026-11-12', to: '2026-11-12' },
          issued_at: '2026-11-12T10:00:00.000Z',
        },
      }),
    )
    renderPortal({ route: route() })
    const card = await screen.findByRole('listitem', { name: 'Ceramic Mug' })
    expect(within(card).getByText('Now:', { exact: false })).toHaveTextContent('Now: Received by us')
    const track = within(card).getByRole('list', { name: 'Progress of Ceramic Mug' })
    expect(track.querySelector('[aria-current="step"]')).toHaveTextContent('Received by us')
  })
})

describe('return status page: review', () => {
  /** What a return that waits or was refused must never offer: a label to send a parcel with. */
  function expectNoLabel() {
    expect(screen.queryByRole('region', { name: 'Your label and drop-off code' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /shipping label/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument()
    expect(screen.queryByText(/Hafenstraße/)).not.toBeInTheDocument()
    // Nor says the parcel is on its way: none was sent.
    expect(screen.queryByText(/Your parcel is on its way/)).not.toBeInTheDocument()
  }

  test('waiting for review: a notice with the day the shop answers by, and no label', async () => {
    answer(buildReturnStatus({ items: [mug], review: { state: 'pending', answer_by: '2026-11-16' }, label: null }))
    renderPortal({ route: route() })
    const notice = await screen.findByRole('region', { name: 'Your return is being reviewed' })
    expect(within(notice).getByRole('heading', { level: 2 })).toBeInTheDocument()
    expect(notice).toHaveTextContent('The shop will answer by November 16, 2026.')
    expect(within(notice).getByText('November 16, 2026')).toHaveAttribute('datetime', '2026-11-16')
    expect(notice).toHaveTextContent(
      'There is no shipping label yet. Once your return is approved, we e-mail you the label and it appears on this page. Please don’t send anything before then.',
    )
    expectNoLabel()
    expect(screen.getByRole('region', { name: 'Your items' })).toBeInTheDocument()
  })

  test('waiting for review: a label the server sent all the same is not offered', async () => {
    answer(buildReturnStatus({ review: { state: 'pending', answer_by: '2026-11-16' } }))
    renderPortal({ route: route() })
    expect(await screen.findByRole('region', { name: 'Your return is being reviewed' })).toBeInTheDocument()
    expectNoLabel()
  })

  test('approved: a short note with the day, and the label as for any return', async () => {
    answer(buildReturnStatus({ review: { state: 'approved', decided_at: '2026-11-13T10:00:00.000Z' } }))
    renderPortal({ route: route() })
    expect(await screen.findByText('Approved on November 13, 2026')).toBeVisible()
    expect(screen.queryByRole('region', { name: /being reviewed|not accepted/ })).not.toBeInTheDocument()
    const label = screen.getByRole('region', { name: 'Your label and drop-off code' })
    expect(within(label).getByRole('link', { name: 'Download shipping label (PDF)' })).toBeInTheDocument()
  })

  test('rejected: the reason, nothing to send, no refund, and each item’s way ends at “Not accepted”', async () => {
    answer(
      buildReturnStatus({
        items: [
          buildStatusItem({ line_item_id: 'mug', title: 'Ceramic Mug', variant_title: null }),
          buildStatusItem({ line_item_id: 'socks', title: 'Cotton Socks', keep: true }),
        ],
        review: {
          state: 'rejected',
          reason: 'Worn items\ncannot be returned.',
          decided_at: '2026-11-13T10:00:00.000Z',
        },
        refund: { method: 'original_payment', amount: money('25.00').presentment_money, timing: null, expected: null },
        new_item: {
          variant_id: 'socks-blue',
          product_title: 'Cotton Socks',
          title: 'Blue',
          price: money('6.00'),
          image_src: null,
          state: 'to_be_sent',
        },
        label: null,
      }),
    )
    renderPortal({ route: route() })
    const notice = await screen.findByRole('region', { name: 'Your return was not accepted' })
    expect(within(notice).getByRole('heading', { level: 3, name: 'The shop’s reason' })).toBeInTheDocument()
    expect(within(notice).getByText(/Worn items\s+cannot be returned\./)).toBeVisible()
    expect(notice).toHaveTextContent('You don’t need to send anything back, and nothing is refunded.')

    const mugCard = screen.getByRole('listitem', { name: 'Ceramic Mug' })
    expect(within(mugCard).getByText('Now:', { exact: false })).toHaveTextContent('Now: Not accepted')
    const steps = within(within(mugCard).getByRole('list', { name: 'Progress of Ceramic Mug' })).getAllByRole(
      'listitem',
    )
    expect(steps.map((step) => step.textContent)).toEqual([
      'Return requested (done)November 12, 2026',
      'Not accepted (current step)November 13, 2026',
    ])
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, 'step'])
    // Nothing further is shown, so no parcel is expected.
    expect(screen.queryByText(/On its way to us|Received by us/)).not.toBeInTheDocument()
    expect(screen.queryByText(/\(not yet\)/)).not.toBeInTheDocument()
    const socksSteps = within(screen.getByRole('list', { name: 'Progress of Cotton Socks' })).getAllByRole('listitem')
    expect(socksSteps.map((step) => step.textContent)).toEqual([
      'Return requested (done)November 12, 2026',
      'Not accepted (current step)November 13, 2026',
    ])

    expect(screen.queryByRole('region', { name: 'Your refund' })).not.toBeInTheDocument()
    expect(screen.queryByText(/to your original payment method/)).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Your new item' })).not.toBeInTheDocument()
    expectNoLabel()
    expect(screen.getByRole('textbox', { name: 'Link to your return’s status' })).toBeInTheDocument()
  })

  test('the headings go in order: the review’s notice under the page’s heading, its reason under the notice', async () => {
    answer(buildReturnStatus({ review: { state: 'rejected', reason: 'Worn.' }, label: null }))
    renderPortal({ route: route() })
    await screen.findByRole('region', { name: 'Your return was not accepted' })
    expect(screen.getAllByRole('heading').map((heading) => [heading.tagName, heading.textContent])).toEqual(
      expect.arrayContaining([
        ['H1', 'Return #1001-R1'],
        ['H2', 'Your return was not accepted'],
        ['H3', 'The shop’s reason'],
        ['H2', 'Your items'],
      ]),
    )
    const levels = screen.getAllByRole('heading').map((heading) => Number(heading.tagName[1]))
    expect(levels.every((level, index) => index === 0 || level <= levels[index - 1]! + 1)).toBe(true)
  })

  test('in German: waiting, with the day as German writes it', async () => {
    answer(buildReturnStatus({ review: { state: 'pending', answer_by: '2026-11-16' }, label: null }))
    renderPortal({ route: route(`#${SIGNATURE}`, '?lang=de') })
    const notice = await screen.findByRole('region', { name: 'Ihre Rücksendung wird geprüft' })
    expect(notice).toHaveTextContent('Der Shop antwortet Ihnen bis zum 16. November 2026.')
  })
})

describe('return status page: what the inspection took off the refund', () => {
  const deducted: ReturnStatus['refund'] = {
    method: 'original_payment',
    amount: { amount: '30.00', currency_code: 'EUR' },
    before_deductions: { amount: '40.00', currency_code: 'EUR' },
    deductions: [
      {
        line_item_id: 'tee',
        title: 'Classic Tee',
        condition: 'opened',
        percent: 10,
        amount: { amount: '2.50', currency_code: 'EUR' },
      },
      {
        line_item_id: 'mug',
        title: 'Ceramic Mug',
        condition: 'damaged',
        percent: 50,
        amount: { amount: '7.50', currency_code: 'EUR' },
      },
    ],
    timing: null,
    expected: null,
  }

  test('each deduction with its item, condition in words, percent and amount; the refund before and after', async () => {
    answer(buildReturnStatus({ refund: deducted, label: null }))
    renderPortal({ route: route() })
    const refund = await screen.findByRole('region', { name: 'Your refund' })
    expect(refund).toHaveTextContent('€30.00 to your original payment method')
    expect(within(refund).getByRole('heading', { level: 3, name: 'Taken off after inspection' })).toBeInTheDocument()
    const lines = within(within(refund).getByRole('list', { name: 'Taken off after inspection' })).getAllByRole(
      'listitem',
    )
    expect(lines.map((line) => line.textContent)).toEqual([
      'Classic Tee: opened, 10% taken off (−€2.50)',
      'Ceramic Mug: damaged, 50% taken off (−€7.50)',
    ])
    const totals = within(refund)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextSibling?.textContent])
    expect(totals).toEqual([
      ['Refund before deductions', '€40.00'],
      ['Refund after deductions', '€30.00'],
    ])
  })

  test.each([
    ['as_new', 'as new'],
    ['wrong_item', 'wrong item'],
  ] as const)('the condition %s reads “%s”', async (condition, words) => {
    answer(
      buildReturnStatus({
        refund: { ...deducted, deductions: [{ ...deducted.deductions![0]!, condition, percent: 0 }] },
        label: null,
      }),
    )
    renderPortal({ route: route() })
    const list = await screen.findByRole('list', { name: 'Taken off after inspection' })
    expect(within(list).getByRole('listitem')).toHaveTextContent(`Classic Tee: ${words}, 0% taken off (−€2.50)`)
  })

  test('in German: the words, the percent and the money as German writes them', async () => {
    answer(buildReturnStatus({ refund: deducted, label: null }))
    renderPortal({ route: route(`#${SIGNATURE}`, '?lang=de') })
    const list = await screen.findByRole('list', { name: 'Abzüge nach der Prüfung' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((line) => line.textContent?.replace(/\s/g, ' ')),
    ).toEqual(['Classic Tee: geöffnet, 10 % abgezogen (−2,50 €)', 'Ceramic Mug: beschädigt, 50 % abgezogen (−7,50 €)'])
    expect(screen.getByText('Erstattung vor Abzügen')).toBeInTheDocument()
  })

  test('nothing deducted: no deductions and no before and after', async () => {
    answer(buildReturnStatus())
    renderPortal({ route: route() })
    const refund = await screen.findByRole('region', { name: 'Your refund' })
    expect(within(refund).queryByRole('list')).not.toBeInTheDocument()
    expect(refund).not.toHaveTextContent(/deductions|Taken off/)
  })
})

describe('return status page: cancelled or closed by the shop', () => {
  test('cancelled: says so with the day, offers no label and no refund', async () => {
    answer(
      buildReturnStatus({
        items: [mug],
        label: null,
        ended: { state: 'cancelled', at: '2026-11-14T10:00:00.000Z' },
      }),
    )
    renderPortal({ route: route() })
    const notice = await screen.findByRole('region', { name: 'Your return was cancelled' })
    expect(notice).toHaveTextContent(
      'The shop cancelled this return on November 14, 2026. Please don’t send anything: its label no longer works.',
    )
    expect(screen.queryByRole('region', { name: 'Your label and drop-off code' })).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Your refund' })).not.toBeInTheDocument()
  })

  test('closed: says it is closed, in the shopper’s language', async () => {
    answer(buildReturnStatus({ items: [mug], label: null, ended: { state: 'closed', at: '2026-11-14T10:00:00.000Z' } }))
    renderPortal({ route: route(`#${SIGNATURE}`, '?lang=de') })
    expect(await screen.findByRole('region', { name: 'Ihre Rücksendung ist abgeschlossen' })).toHaveTextContent(
      'Der Shop hat diese Rücksendung am 14. November 2026 abgeschlossen.',
    )
  })
})
