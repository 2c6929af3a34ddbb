import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ReturnSummary, StaffStateChange } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** The returns list's views, sort, saved searches and selection (docs/back-office.md) against the API's answers. */

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

const ROWS = [
  summary(),
  summary({ id: 'r-2', name: '#1002-R1', order_name: '#1002', state: 'refunded' }),
  summary({ id: 'r-3', name: '#1003-R1', order_name: '#1003' }),
]

/** The list, recording the queries it was asked with; r-2 refuses to move as the server would. */
function listServer() {
  const asked: URLSearchParams[] = []
  const moves: [string, StaffStateChange][] = []
  const counted: string[] = []
  server.use(
    http.get('*/admin/api/return-counts', ({ request }) => {
      counted.push(new URL(request.url).search)
      const moved = moves.length > 0 ? 1 : 0
      return HttpResponse.json({ all: 3, needs_review: 0, to_receive: 2 - moved, to_refund: moved, done: 1 })
    }),
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/shop', () => HttpResponse.json({ shop: 'demo', reasons: [] })),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/returns', ({ request }) => {
      asked.push(new URL(request.url).searchParams)
      return HttpResponse.json({ returns: ROWS, next: null })
    }),
    http.post('*/admin/api/returns/:id/status', async ({ params, request }) => {
      const id = String(params.id)
      moves.push([id, (await request.json()) as StaffStateChange])
      if (id === 'r-2')
        return HttpResponse.json(
          { error: 'invalid_transition', message: 'Nothing moved: Classic Tee · M is already refunded.' },
          { status: 422 },
        )
      return HttpResponse.json({ moved: ['Classic Tee · M'], skipped: [] })
    }),
  )
  return { asked, moves, counted }
}

function renderConsole(path = '/admin/') {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

beforeEach(() => window.localStorage.clear())

test('a view is a tab sent as view and kept in the address; the sort is sent as sort; Back returns to the view before', async () => {
  const { asked } = listServer()
  renderConsole()
  const user = userEvent.setup()
  const views = await screen.findByRole('navigation', { name: 'Views' })
  expect(within(views).getByRole('link', { name: /^All/ })).toHaveAttribute('aria-current', 'page')
  await user.click(within(views).getByRole('link', { name: /^To refund/ }))
  await waitFor(() => expect(window.location.search).toBe('?view=to_refund'))
  expect(within(views).getByRole('link', { name: /^To refund/ })).toHaveAttribute('aria-current', 'page')
  await waitFor(() => expect(asked.at(-1)?.get('view')).toBe('to_refund'))

  await user.selectOptions(screen.getByLabelText('Sort'), 'Amount, highest first')
  await waitFor(() => expect(window.location.search).toBe('?view=to_refund&sort=amount_desc'))
  await waitFor(() => expect(asked.at(-1)?.toString()).toBe('view=to_refund&sort=amount_desc'))
  expect(screen.getByRole('table', { name: 'Returns, amount, highest first' })).toBeInTheDocument()

  window.history.back()
  await waitFor(() => expect(window.location.search).toBe('?view=to_refund'))
  window.history.back()
  await waitFor(() => expect(within(views).getByRole('link', { name: /^All/ })).toHaveAttribute('aria-current', 'page'))
})

test('each view’s tab says how many returns it holds, under the search; a change counts again', async () => {
  const { counted } = listServer()
  renderConsole('/admin/?view=to_receive&q=jane')
  const user = userEvent.setup()
  const views = await screen.findByRole('navigation', { name: 'Views' })
  expect(await within(views).findByRole('link', { name: 'To receive (2)', current: 'page' })).toBeInTheDocument()
  expect(
    within(views)
      .getAllByRole('link')
      .map((link) => link.textContent),
  ).toEqual(['All (3)', 'Needs review (0)', 'To receive (2)', 'To refund (0)', 'Done (1)'])
  // Every view counted under the search, whichever view is shown.
  expect(counted).toEqual(['?q=jane'])
  await user.click(await screen.findByRole('checkbox', { name: 'Select #1001-R1' }))
  await user.click(
    within(screen.getByRole('group', { name: 'Selected returns' })).getByRole('button', { name: 'Mark received' }),
  )
  expect(await within(views).findByRole('link', { name: 'To refund (1)' })).toBeInTheDocument()
  expect(within(views).getByRole('link', { name: 'To receive (1)' })).toBeInTheDocument()
  expect(counted).toEqual(['?q=jane', '?q=jane'])
})

test('selected returns are marked received one by one; the result names what each did, without a reload', async () => {
  const { moves } = listServer()
  renderConsole()
  const user = userEvent.setup()
  await user.click(await screen.findByRole('checkbox', { name: 'Select #1001-R1' }))
  await user.click(screen.getByRole('checkbox', { name: 'Select #1002-R1' }))
  const actions = screen.getByRole('group', { name: 'Selected returns' })
  expect(within(actions).getByText('2 selected')).toBeInTheDocument()
  expect(within(actions).getByRole('link', { name: 'Export selected' })).toHaveAttribute(
    'href',
    '/admin/api/returns.csv?ids=r-1,r-2',
  )
  await user.click(within(actions).getByRole('button', { name: 'Mark received' }))
  expect(
    await screen.findByText('1 received, 1 refused: #1002-R1: Classic Tee · M is already refunded.'),
  ).toHaveAttribute('role', 'status')
  expect(moves).toEqual([
    ['r-1', { state: 'received' }],
    ['r-2', { state: 'received' }],
  ])
  // Done: the selection is cleared.
  expect(screen.queryByRole('group', { name: 'Selected returns' })).not.toBeInTheDocument()

  await user.click(screen.getByRole('checkbox', { name: 'Select every return of this page' }))
  expect(screen.getByText('3 selected')).toBeInTheDocument()
  // A phone's select-all (the header it is in hides there, console.css): the same page, the same box.
  const phone = screen.getByRole('checkbox', { name: 'Select all on this page' })
  expect(phone).toBeChecked()
  await user.click(phone)
  expect(screen.queryByRole('group', { name: 'Selected returns' })).not.toBeInTheDocument()
  expect(screen.getByRole('checkbox', { name: 'Select every return of this page' })).not.toBeChecked()
  await user.click(phone)
  expect(screen.getByText('3 selected')).toBeInTheDocument()
})

test('a search saved under a name is opened again from the saved searches of this shop and staff member', async () => {
  listServer()
  renderConsole('/admin/?view=to_receive&q=jane&sort=oldest')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Save this search' }))
  await user.type(screen.getByLabelText('Name'), 'Jane, oldest')
  await user.click(screen.getByRole('button', { name: 'Save' }))
  expect(JSON.parse(window.localStorage.getItem('rebound.savedFilters.demo.staff@demo.example')!)).toEqual([
    { name: 'Jane, oldest', query: 'q=jane&view=to_receive&sort=oldest' },
  ])
  await user.click(within(screen.getByRole('navigation', { name: 'Views' })).getByRole('link', { name: /^All/ }))
  await waitFor(() => expect(window.location.search).toBe('?q=jane&sort=oldest'))
  await user.selectOptions(screen.getByLabelText('Saved searches'), 'Jane, oldest')
  await waitFor(() => expect(window.location.search).toBe('?q=jane&view=to_receive&sort=oldest'))
})
