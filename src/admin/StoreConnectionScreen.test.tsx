import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ConnectionTest, StoreConnectionView } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** The console's Store connection page (docs/back-office.md: Store connection), against the API's answers. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }
const NONE =
  'No store is connected: refunds, store credit, exchanges and restocks are recorded here, not carried out in your store.'

const connected = (overrides: Partial<StoreConnectionView> = {}): StoreConnectionView => ({
  engine: 'medusa',
  url: 'http://10.0.0.5:9000',
  api_key_readable: true,
  sales_channel_id: 'sc_01',
  stock_location_id: 'sloc_01',
  region_id: null,
  updated_at: '2026-11-20T12:00:00.000Z',
  updated_by: 'owner@demo.example',
  last_test: null,
  ...overrides,
})

/** The API's connection, as the handlers keep it. */
function serveConnection(initial: StoreConnectionView | null, test?: ConnectionTest) {
  let connection = initial
  const saved: Record<string, unknown>[] = []
  let removed = 0
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/store-connection', () => HttpResponse.json({ connection })),
    http.put('*/admin/api/store-connection', async ({ request }) => {
      const body = (await request.json()) as Record<string, string>
      saved.push(body)
      connection = connected({
        url: body.url!,
        sales_channel_id: body.sales_channel_id!,
        stock_location_id: body.stock_location_id!,
        updated_at: '2026-11-21T09:00:00.000Z',
        updated_by: 'staff@demo.example',
      })
      return HttpResponse.json(connection)
    }),
    http.post('*/admin/api/store-connection/test', () => {
      connection = { ...connection!, last_test: test! }
      return HttpResponse.json(test)
    }),
    http.delete('*/admin/api/store-connection', () => {
      removed++
      connection = null
      return new HttpResponse(null, { status: 204 })
    }),
  )
  return { saved, removed: () => removed }
}

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

test('without a store it says so plainly, and connecting one sends the key once', async () => {
  const api = serveConnection(null)
  renderConsole('/admin/store-connection')
  const nav = await screen.findByRole('navigation', { name: 'Back office' })
  expect(within(nav).getByRole('link', { name: 'Store connection' })).toHaveAttribute('href', '/admin/store-connection')
  expect(await screen.findByText(NONE)).toBeInTheDocument()
  const form = screen.getByRole('form', { name: 'Connect a store' })
  expect(within(form).getByLabelText('Secret API key')).toHaveAccessibleDescription(/^Not set\./)

  await userEvent.type(within(form).getByLabelText('Address'), 'http://10.0.0.5:9000')
  await userEvent.type(within(form).getByLabelText('Secret API key'), 'sk_secret')
  await userEvent.type(within(form).getByLabelText('Sales channel ID'), 'sc_01')
  await userEvent.type(within(form).getByLabelText('Stock location ID'), 'sloc_01')
  await userEvent.click(within(form).getByRole('button', { name: 'Save connection' }))

  await waitFor(() => expect(api.saved).toHaveLength(1))
  expect(api.saved[0]).toEqual({
    engine: 'medusa',
    url: 'http://10.0.0.5:9000',
    api_key: 'sk_secret',
    sales_channel_id: 'sc_01',
    stock_location_id: 'sloc_01',
    region_id: null,
  })
  expect(await screen.findByText('Connection saved. Test it to check that it works.')).toHaveAttribute('role', 'status')
  expect(await screen.findByRole('heading', { name: 'Medusa', level: 2 })).toBeInTheDocument()
  expect(screen.getByText('by staff@demo.example', { exact: false })).toBeInTheDocument()
  // Written once, never shown: the changed form's key field is empty and says it is set.
  const change = screen.getByRole('form', { name: 'Change the connection' })
  expect(within(change).getByLabelText('Secret API key')).toHaveValue('')
  expect(within(change).getByLabelText('Secret API key')).toHaveAccessibleDescription(/^Set\. Leave it empty/)
  expect(screen.queryByText(NONE)).not.toBeInTheDocument()
})

test('a change with the key left empty keeps it: no key is sent', async () => {
  const api = serveConnection(connected())
  renderConsole('/admin/store-connection')
  const form = await screen.findByRole('form', { name: 'Change the connection' })
  const address = within(form).getByLabelText('Address')
  await userEvent.clear(address)
  await userEvent.type(address, 'https://shop.example')
  await userEvent.click(within(form).getByRole('button', { name: 'Save connection' }))
  await waitFor(() => expect(api.saved).toHaveLength(1))
  expect(api.saved[0]).not.toHaveProperty('api_key')
  expect(api.saved[0]).toMatchObject({ url: 'https://shop.example' })
})

test('Test connection says what works and what does not, one line each, in a status region', async () => {
  serveConnection(connected(), {
    ok: false,
    at: '2026-11-21T09:30:00.000Z',
    checks: [
      { check: 'address', outcome: 'ok' },
      { check: 'key', outcome: 'ok' },
      { check: 'sales_channel', outcome: 'not_found' },
      { check: 'stock_location', outcome: 'ok' },
    ],
  })
  renderConsole('/admin/store-connection')
  expect(await screen.findByText('Not tested since it was set.')).toBeInTheDocument()
  await userEvent.click(screen.getByRole('button', { name: 'Test connection' }))
  const status = await screen.findByText('Something does not work.')
  const region = status.closest('[role="status"]') as HTMLElement
  const lines = within(region)
    .getAllByRole('listitem')
    .map((item) => item.textContent)
  expect(lines).toEqual([
    '✓ Address: http://10.0.0.5:9000 answers.',
    '✓ Secret key: accepted.',
    '✗ Sales channel not found: the store has no sales channel sc_01.',
    '✓ Stock location sloc_01: found.',
  ])
})

test.each([
  ['unreachable', 'Address unreachable: nothing answers at http://10.0.0.5:9000.'],
  ['timeout', 'Address timed out: http://10.0.0.5:9000 did not answer in time.'],
] as const)('an address %s is said plainly', async (outcome, words) => {
  serveConnection(
    connected({
      last_test: {
        ok: false,
        at: '2026-11-21T09:30:00.000Z',
        checks: [
          { check: 'address', outcome },
          { check: 'key', outcome: 'not_checked' },
          { check: 'sales_channel', outcome: 'not_checked' },
          { check: 'stock_location', outcome: 'not_checked' },
        ],
      },
    }),
  )
  renderConsole('/admin/store-connection')
  expect(await screen.findByText(words)).toBeInTheDocument()
  expect(screen.getByText('Secret key: not checked, as an earlier check failed.')).toBeInTheDocument()
})

test('Remove connection asks first; Cancel keeps it, Remove removes it', async () => {
  const api = serveConnection(connected())
  renderConsole('/admin/store-connection')
  await userEvent.click(await screen.findByRole('button', { name: 'Remove connection' }))
  let question = screen.getByRole('alertdialog', { name: 'Remove the store connection?' })
  expect(question).toHaveFocus()
  await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  expect(api.removed()).toBe(0)

  await userEvent.click(screen.getByRole('button', { name: 'Remove connection' }))
  question = screen.getByRole('alertdialog', { name: 'Remove the store connection?' })
  await userEvent.click(within(question).getByRole('button', { name: 'Remove connection' }))
  expect(await screen.findByText(NONE)).toBeInTheDocument()
  expect(api.removed()).toBe(1)
  expect(screen.getByText('The store connection is removed.')).toHaveAttribute('role', 'status')
})
