import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ReturnDetail, ReturnSummary, StaffStateChange } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'
import { leave } from './SupportScreen'

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }

const summary = (overrides: Partial<ReturnSummary> = {}): ReturnSummary => ({
  id: 'r-1',
  name: '#1001-R1',
  order_name: '#1001',
  email: 'jane@example.com',
  created_at: '2026-11-20T12:00:00.000Z',
  items: 1,
  outcome: 'refund',
  refund: { amount: '14.00', currency_code: 'EUR' },
  state: 'requested',
  review: null,
  ...overrides,
})

const money = (amount: string) => ({
  shop_money: { amount, currency_code: 'EUR' },
  presentment_money: { amount, currency_code: 'EUR' },
})

/** #1001-R1: the mug, damaged, with a photo and a comment; nothing moved yet. */
function detail(state: 'requested' | 'received' = 'requested'): ReturnDetail {
  return {
    summary: summary({ state }),
    status: {
      return_id: 'r-1',
      return_name: '#1001-R1',
      created_at: '2026-11-20T12:00:00.000Z',
      items: [
        {
          line_item_id: 'li-mug',
          title: 'Ceramic Mug',
          variant_title: null,
          quantity: 1,
          image_src: null,
          exchange_variant_title: null,
          keep: false,
          states: ['requested', 'in_transit', 'received', 'refunded'],
          state,
          history: [{ state: 'requested', at: '2026-11-20T12:00:00.000Z' }],
        },
      ],
      refund: {
        method: 'original_payment',
        amount: { amount: '14.00', currency_code: 'EUR' },
        timing: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
        expected: null,
      },
      label: null,
      address: { name: 'Returns', line1: 'Hafenstraße 12', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
    },
    return_order: {
      id: 'r-1',
      name: '#1001-R1',
      status: 'requested',
      items: [
        {
          line_item_id: 'li-mug',
          title: 'Ceramic Mug',
          variant_title: null,
          quantity: 1,
          reason_id: 'damaged',
          reason_label: 'Arrived damaged',
          comment: 'Handle broken off',
          exchange_variant_id: null,
          exchange_variant_title: null,
        },
      ],
      refund_method: 'original_payment',
      refund_value: money('14.00'),
      store_credit_value: null,
      breakdown: {
        items_subtotal: money('11.76'),
        tax: money('2.24'),
        return_fee: money('0.00'),
        bonus: money('0.00'),
        upsell: money('0.00'),
        total: money('14.00'),
      },
      created_at: '2026-11-20T12:00:00.000Z',
    },
    photos: [{ id: 'p-1', line_item_id: 'li-mug', url: '/admin/api/returns/r-1/photos/p-1' }],
    timeline: [
      {
        at: '2026-11-20T12:00:00.000Z',
        kind: 'created',
        state: 'requested',
        items: ['Ceramic Mug'],
        actor: 'shopper',
        note: null,
      },
      ...(state === 'received'
        ? [
            {
              at: '2026-11-21T09:00:00.000Z',
              kind: 'action' as const,
              state: 'received' as const,
              items: ['Ceramic Mug'],
              actor: 'staff@demo.example',
              note: 'Box dented',
            },
          ]
        : []),
    ],
    review: null,
    inspections: [],
    held: [],
    links: { status: null, label: null },
    ended: null,
  }
}

function renderConsole(path = '/admin') {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

const SHOP = {
  shop: 'demo',
  reasons: [
    { id: 'changed_mind', label: 'Changed my mind' },
    { id: 'wrong_item', label: 'Not as described: Wrong item sent' },
  ],
}
/** The shop's reasons, for the list's filter. */
const shop = () => http.get('*/admin/api/shop', () => HttpResponse.json(SHOP))
/** The nav's count of returns waiting for review. */
const reviews = () => http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 }))
const signedIn = () => [
  http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
  shop(),
  reviews(),
  // A return's own e-mails, on its screen.
  http.get('*/admin/api/emails', () => HttpResponse.json({ smtp: false, emails: [] })),
]

test('without a session the console asks for e-mail and password; a refusal is said and takes the focus; the right password shows the returns', async () => {
  let session = false
  server.use(
    http.get('*/admin/api/session', () =>
      session ? HttpResponse.json(SESSION) : HttpResponse.json({ error: 'not_signed_in' }, { status: 401 }),
    ),
    http.post('*/admin/api/session', async ({ request }) => {
      const body = (await request.json()) as { email: string; password: string }
      if (body.password !== 'correct horse battery')
        return HttpResponse.json(
          { error: 'invalid_credentials', message: 'The e-mail or password is not right.' },
          { status: 401 },
        )
      session = true
      return HttpResponse.json(SESSION)
    }),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [summary()], next: null })),
    shop(),
    reviews(),
  )
  renderConsole()
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('E-mail'), 'staff@demo.example')
  await user.type(screen.getByLabelText('Password'), 'wrong')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('The e-mail or password is not right.')
  await waitFor(() => expect(alert).toHaveFocus())
  expect(document.title).toBe('Sign in · Returns back office')

  await user.clear(screen.getByLabelText('Password'))
  await user.type(screen.getByLabelText('Password'), 'correct horse battery')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
  expect(await screen.findByRole('heading', { name: 'Returns', level: 1 })).toBeInTheDocument()
  const row = (await screen.findByRole('link', { name: '#1001-R1' })).closest('tr')!
  expect(within(row).getByText('jane@example.com')).toBeInTheDocument()
  expect(within(row).getByText('€14.00')).toBeInTheDocument()
  expect(within(row).getByText('Requested')).toBeInTheDocument()
  expect(screen.getByText('staff@demo.example')).toBeInTheDocument()
})

test('a search is sent as q and kept in the address; nothing found says so', async () => {
  const asked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q')
      asked.push(q ?? '')
      return HttpResponse.json({ returns: q === '#1001' ? [summary()] : [], next: null })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  expect(await screen.findByText('No returns yet. They appear here as shoppers submit them.')).toBeInTheDocument()
  await user.type(screen.getByLabelText('Search'), '#1001')
  await user.click(screen.getByRole('button', { name: 'Search' }))
  expect(await screen.findByRole('link', { name: '#1001-R1' })).toBeInTheDocument()
  expect(window.location.search).toBe('?q=%231001')
  expect(asked).toContain('#1001')

  await user.clear(screen.getByLabelText('Search'))
  await user.type(screen.getByLabelText('Search'), 'nobody@example.com')
  await user.click(screen.getByRole('button', { name: 'Search' }))
  expect(await screen.findByText('No return matches this search.')).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Clear search and filters' }))
  expect(await screen.findByText('No returns yet. They appear here as shoppers submit them.')).toBeInTheDocument()
})

test('the next page asks for the cursor the list gave; the previous page goes back', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns', ({ request }) => {
      const after = new URL(request.url).searchParams.get('after')
      return after === 'cursor-2'
        ? HttpResponse.json({ returns: [summary({ id: 'r-2', name: '#1002-R1' })], next: null })
        : HttpResponse.json({ returns: [summary()], next: 'cursor-2' })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  await screen.findByRole('link', { name: '#1001-R1' })
  expect(screen.queryByRole('button', { name: 'Previous page' })).not.toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Next page' }))
  expect(await screen.findByRole('link', { name: '#1002-R1' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Previous page' }))
  expect(await screen.findByRole('link', { name: '#1001-R1' })).toBeInTheDocument()
})

test('a return shows its reason, comment, photo and timeline; marking it received sends the items and note, and shows the move', async () => {
  let moved: StaffStateChange | null = null
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(detail(moved ? 'received' : 'requested'))),
    http.post('*/admin/api/returns/r-1/status', async ({ request }) => {
      moved = (await request.json()) as StaffStateChange
      return HttpResponse.json({ ...detail('received'), moved: ['Ceramic Mug'], skipped: [] })
    }),
  )
  renderConsole('/admin/returns/r-1')
  const user = userEvent.setup()
  const heading = await screen.findByRole('heading', { name: 'Return #1001-R1', level: 1 })
  await waitFor(() => expect(heading).toHaveFocus())
  expect(document.title).toBe('#1001-R1 · Returns back office')
  expect(screen.getByText('Arrived damaged')).toBeInTheDocument()
  expect(screen.getByText('Handle broken off')).toBeInTheDocument()
  expect(screen.getByRole('img', { name: 'Photo 1 of Ceramic Mug' })).toHaveAttribute(
    'src',
    '/admin/api/returns/r-1/photos/p-1',
  )
  expect(screen.getByText('Submitted by the shopper: Ceramic Mug')).toBeInTheDocument()
  expect(screen.getByText('The shop’s timing: 5–10 business days after the parcel arrives')).toBeInTheDocument()

  await user.type(screen.getByLabelText('Note (optional)'), 'Box dented')
  await user.click(screen.getByRole('button', { name: 'Mark received' }))
  const done = await within(screen.getByRole('region', { name: 'Move items on' })).findByRole('status')
  await waitFor(() => expect(done).toHaveTextContent('1 item marked received: Ceramic Mug.'))
  // The button pressed is gone (received is done): the focus is on what happened, not lost.
  await waitFor(() => expect(done).toHaveFocus())
  expect(moved).toEqual({ state: 'received', line_item_ids: ['li-mug'], note: 'Box dented' })
  expect(await screen.findByText('“Box dented”')).toBeInTheDocument()
  expect(screen.getByText(/by staff@demo\.example/)).toBeInTheDocument()
  // Received: only refunded is left.
  expect(screen.queryByRole('button', { name: 'Mark received' })).not.toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Mark refunded' })).toBeInTheDocument()
})

test('a refused move says why and takes the focus; an unknown return says so', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(detail())),
    http.post('*/admin/api/returns/r-1/status', () =>
      HttpResponse.json(
        { error: 'invalid_transition', message: 'line_item_ids: "li-mug" is already refunded' },
        { status: 422 },
      ),
    ),
    http.get('*/admin/api/returns/r-9', () =>
      HttpResponse.json({ error: 'not_found', message: 'No such return.' }, { status: 404 }),
    ),
  )
  const { unmount } = renderConsole('/admin/returns/r-1')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Mark in transit' }))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('is already refunded')
  await waitFor(() => expect(alert).toHaveFocus())
  unmount()

  renderConsole('/admin/returns/r-9')
  expect(await screen.findByRole('heading', { name: 'No such return' })).toBeInTheDocument()
})

test('a session that ends while the console is open brings back the sign-in', async () => {
  let session = true
  server.use(
    http.get('*/admin/api/session', () =>
      session ? HttpResponse.json(SESSION) : HttpResponse.json({ error: 'not_signed_in' }, { status: 401 }),
    ),
    shop(),
    reviews(),
    http.get('*/admin/api/returns', () => {
      session = false
      return HttpResponse.json({ error: 'not_signed_in', message: 'Please sign in.' }, { status: 401 })
    }),
  )
  renderConsole()
  expect(await screen.findByLabelText('Password')).toBeInTheDocument()
})

test('sign-out ends the session and shows the sign-in', async () => {
  let session = true
  server.use(
    http.get('*/admin/api/session', () =>
      session ? HttpResponse.json(SESSION) : HttpResponse.json({ error: 'not_signed_in' }, { status: 401 }),
    ),
    shop(),
    reviews(),
    http.delete('*/admin/api/session', () => {
      session = false
      return new HttpResponse(null, { status: 204 })
    }),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
  )
  renderConsole()
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Sign out' }))
  expect(await screen.findByLabelText('Password')).toBeInTheDocument()
})

test('a support reference typed in the field opens the shopper’s screen in the portal’s replay; an unknown one says so', async () => {
  const asked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
    http.get('*/admin/api/support/:reference', ({ params }) => {
      asked.push(String(params.reference))
      return params.reference === '7kq2 9xhd'
        ? HttpResponse.json({
            reference: '7KQ2-9XHD',
            code: 'RB1.abc',
            created_at: '2026-11-20T12:00:00.000Z',
            expires_at: '2026-11-27T12:00:00.000Z',
          })
        : HttpResponse.json(
            {
              error: 'not_found',
              message:
                'No support reference ZZZZ-ZZZZ for this shop. References last 7 days: ask the shopper for a new one.',
            },
            { status: 404 },
          )
    }),
  )
  const went = jest.spyOn(leave, 'to').mockImplementation(() => {})
  const { unmount } = renderConsole()
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Support reference'), '7kq2 9xhd')
  await user.click(screen.getByRole('button', { name: 'Open' }))
  await waitFor(() => expect(went).toHaveBeenCalledWith('/support#RB1.abc'))
  expect(asked).toEqual(['7kq2 9xhd'])

  unmount()
  renderConsole('/admin/support/ZZZZ-ZZZZ')
  const heading = await screen.findByRole('heading', { name: 'No session for ZZZZ-ZZZZ' })
  await waitFor(() => expect(heading).toHaveFocus())
  expect(screen.getByRole('alert')).toHaveTextContent('References last 7 days')
  expect(went).toHaveBeenCalledTimes(1)
})

test('the reason filter offers the shop’s reasons; the export link carries the search and filters, not the page', async () => {
  const asked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns', ({ request }) => {
      asked.push(new URL(request.url).search)
      return HttpResponse.json({ returns: [summary()], next: 'cursor-2' })
    }),
  )
  renderConsole('/admin?q=jane%40example.com')
  const user = userEvent.setup()
  await screen.findByRole('link', { name: '#1001-R1' })
  await user.selectOptions(screen.getByLabelText('Reason'), 'Not as described: Wrong item sent')
  await waitFor(() => expect(asked.at(-1)).toBe('?q=jane%40example.com&reason=wrong_item'))
  await user.selectOptions(screen.getByLabelText('State'), 'Received')
  await user.click(await screen.findByRole('button', { name: 'Next page' }))
  expect(await screen.findByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    '/admin/api/returns.csv?q=jane%40example.com&reason=wrong_item&state=received',
  )
})

test('insights show reasons, products and revenue kept, each chart with a table beside it, for the period in the address', async () => {
  const eur = (amount: string) => ({ amount, currency_code: 'EUR' })
  const asked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
    http.get('*/admin/api/insights', ({ request }) => {
      asked.push(new URL(request.url).search)
      return HttpResponse.json({
        from: '2026-10-22',
        to: '2026-11-20',
        returns: 3,
        reasons: [
          { reason_id: 'too_small', label: 'Too small', count: 2, value: eur('50.00') },
          { reason_id: 'damaged', label: 'Arrived damaged', count: 1, value: eur('14.00') },
        ],
        products: [{ title: 'Classic Tee', count: 2, value: eur('50.00') }],
        outcomes: { exchanges: eur('25.00'), upsells: eur('6.00'), store_credit: eur('0.00'), refunded: eur('33.00') },
      })
    }),
  )
  renderConsole('/admin')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('link', { name: 'Insights' }))
  const heading = await screen.findByRole('heading', { name: 'Insights', level: 1 })
  await waitFor(() => expect(heading).toHaveFocus())
  expect(screen.getByRole('link', { name: 'Insights' })).toHaveAttribute('aria-current', 'page')
  expect(
    await screen.findByText(
      '3 returns from 22 Oct 2026 to 20 Nov 2026. Settled in that time: €31.00 kept by the shop (48%), €33.00 refunded.',
    ),
  ).toHaveAttribute('role', 'status')
  const reasons = screen.getByRole('table', { name: 'Return reasons, by units returned' })
  expect(within(reasons).getByRole('row', { name: 'Too small 2 €50.00' })).toBeInTheDocument()
  const revenue = screen.getByRole('table', { name: 'Revenue kept by the shop and refunded' })
  expect(within(revenue).getByRole('row', { name: 'Kept by the shop €31.00' })).toBeInTheDocument()
  expect(within(revenue).getByRole('row', { name: 'Refunded €33.00' })).toBeInTheDocument()
  expect(screen.getByRole('region', { name: 'Most returned products' })).toHaveTextContent('Classic Tee')

  // A date field's picker is the browser's: the day arrives whole, as a change.
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } })
  await waitFor(() => expect(asked.at(-1)).toBe('?from=2026-11-01'))
  expect(window.location.search).toBe('?from=2026-11-01')
})

test('the review filter is sent and kept in the address; a row says when its return waits for review or was rejected', async () => {
  const asked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns', ({ request }) => {
      const review = new URL(request.url).searchParams.get('review')
      asked.push(review ?? '')
      return HttpResponse.json({
        returns:
          review === 'pending'
            ? [summary({ review: 'pending' })]
            : [
                summary({ review: 'pending' }),
                summary({ id: 'r-2', name: '#1002-R1', review: 'rejected' }),
                summary({ id: 'r-3', name: '#1003-R1', review: 'approved', outcome: 'store_credit' }),
              ],
        next: null,
      })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!
  expect(within(await rowOf('#1001-R1')).getByText('Waiting for review')).toBeInTheDocument()
  expect(within(await rowOf('#1002-R1')).getByText('Rejected')).toBeInTheDocument()
  // Neither was ever sent: they do not read as requested (decision 0059).
  expect(within(await rowOf('#1001-R1')).queryByText('Requested')).not.toBeInTheDocument()
  expect(within(await rowOf('#1002-R1')).queryByText('Requested')).not.toBeInTheDocument()
  // Approved goes on as any return: nothing to notice.
  expect(within(await rowOf('#1003-R1')).queryByText('Approved')).not.toBeInTheDocument()
  expect(within(await rowOf('#1003-R1')).getByText('Requested')).toBeInTheDocument()
  expect(within(await rowOf('#1003-R1')).getByText('Store credit')).toBeInTheDocument()

  await user.selectOptions(screen.getByLabelText('Review'), 'Waiting for review')
  await waitFor(() => expect(screen.queryByRole('link', { name: '#1002-R1' })).not.toBeInTheDocument())
  expect(window.location.search).toBe('?review=pending')
  expect(asked.at(-1)).toBe('pending')
  expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    '/admin/api/returns.csv?review=pending',
  )
  await user.click(screen.getByRole('button', { name: 'Clear search and filters' }))
  expect(await screen.findByRole('link', { name: '#1002-R1' })).toBeInTheDocument()
  expect(screen.getByLabelText('Review')).toHaveValue('')
})

test('the nav says how many returns wait for review, in words', async () => {
  server.use(
    // Before signedIn()'s empty queue: the first handler that matches answers.
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 3 })),
    ...signedIn(),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
  )
  renderConsole()
  const nav = await screen.findByRole('navigation', { name: 'Back office' })
  expect(await within(nav).findByRole('link', { name: 'Review (3 waiting)' })).toHaveAttribute('href', '/admin/reviews')
  expect(within(nav).getByRole('link', { name: 'Policy' })).toHaveAttribute('href', '/admin/policy')
})

test('the header’s Menu button opens and folds the pages (a disclosure), Escape gives the focus back, and the page shown is marked', async () => {
  server.use(
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 2 })),
    ...signedIn(),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
    http.get('*/admin/api/insights', () => new Promise(() => {})),
  )
  renderConsole()
  const user = userEvent.setup()
  const menu = await screen.findByRole('button', { name: /^Menu/ })
  // Folded, it still says that returns wait.
  await waitFor(() => expect(menu).toHaveAccessibleName('Menu (2 returns wait for review)'))
  expect(menu).toHaveAttribute('aria-expanded', 'false')
  const list = document.getElementById(menu.getAttribute('aria-controls')!)!
  expect(list).not.toHaveClass('console__menu--open')

  // By keyboard: Tab to it, Enter opens, the pages follow it in the tab order.
  menu.focus()
  await user.keyboard('{Enter}')
  expect(menu).toHaveAttribute('aria-expanded', 'true')
  expect(list).toHaveClass('console__menu--open')
  const nav = within(list).getByRole('navigation', { name: 'Back office' })
  expect(within(nav).getByRole('link', { name: 'Returns' })).toHaveAttribute('aria-current', 'page')
  await user.tab()
  expect(within(nav).getByRole('link', { name: 'Returns' })).toHaveFocus()
  await user.keyboard('{Escape}')
  expect(menu).toHaveAttribute('aria-expanded', 'false')
  expect(menu).toHaveFocus()

  // A page chosen folds it, and that page is the one marked.
  await user.click(menu)
  await user.click(within(nav).getByRole('link', { name: 'Insights' }))
  expect(menu).toHaveAttribute('aria-expanded', 'false')
  expect(within(nav).getByRole('link', { name: 'Insights' })).toHaveAttribute('aria-current', 'page')
  expect(within(nav).getByRole('link', { name: 'Returns' })).not.toHaveAttribute('aria-current')
  expect(within(list).getByRole('navigation', { name: 'Account' })).toHaveTextContent('staff@demo.example')
})
