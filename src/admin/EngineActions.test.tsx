import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { EngineActionList, EngineActionView } from '../../contract/events'
import type { ReturnDetail } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/**
 * The actions in the shop's commerce engine in the console (docs/commerce.md): on a return's page
 * in words staff read, with a retry that says what it did; across returns on Store actions.
 */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }
const eur = (amount: string) => ({ amount, currency_code: 'EUR' })

const DETAIL: ReturnDetail = {
  summary: {
    id: 'r-1',
    name: '#1001-R1',
    order_name: '#1001',
    email: 'jane@example.com',
    created_at: '2026-11-20T12:00:00.000Z',
    items: 1,
    outcome: 'refund',
    refund: eur('31.54'),
    state: 'refunded',
    review: null,
  },
  status: {
    return_id: 'r-1',
    return_name: '#1001-R1',
    created_at: '2026-11-20T12:00:00.000Z',
    items: [
      {
        line_item_id: 'li-tee',
        title: 'Classic Tee',
        variant_title: 'M',
        quantity: 1,
        image_src: null,
        exchange_variant_title: null,
        keep: false,
        states: ['requested', 'in_transit', 'received', 'refunded'],
        state: 'refunded',
        history: [{ state: 'requested', at: '2026-11-20T12:00:00.000Z' }],
      },
    ],
    refund: { method: 'original_payment', amount: eur('31.54'), timing: null, expected: null },
    label: null,
    address: { name: 'Returns', line1: 'Hafenstraße 12', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
  },
  return_order: null,
  photos: [],
  timeline: [],
  review: null,
  inspections: [],
  held: [],
  links: { status: null, label: null },
  ended: null,
}

const action = (overrides: Partial<EngineActionView> = {}): EngineActionView => ({
  id: 'act_00000000000000000000000000000001',
  return_id: 'r-1',
  return_name: '#1001-R1',
  kind: 'request_return',
  amount: null,
  state: 'delivered',
  attempts: 1,
  created_at: '2026-11-20T12:00:00.000Z',
  done_at: '2026-11-20T12:00:01.000Z',
  next_attempt_at: null,
  last_error: null,
  reference: 'return_01JD',
  ...overrides,
})

const failedRefund = action({
  id: 'act_00000000000000000000000000000002',
  kind: 'refund',
  amount: eur('31.54'),
  state: 'pending',
  attempts: 2,
  done_at: null,
  next_attempt_at: '2026-11-20T12:35:00.000Z',
  last_error: 'Medusa answered 409: the payment is being captured.',
  reference: null,
})

function serve(actions: () => EngineActionView[], seen: URL[] = []) {
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/emails', () => HttpResponse.json({ smtp: false, emails: [] })),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(DETAIL)),
    http.get('*/admin/api/engine-actions', ({ request }) => {
      seen.push(new URL(request.url))
      return HttpResponse.json({ engine: 'medusa', actions: actions() } satisfies EngineActionList)
    }),
  )
}

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

test('a return’s page says each action in Medusa in words, with its state, attempts, error and reference', async () => {
  serve(() => [failedRefund, action()])
  renderConsole('/admin/returns/r-1')
  const section = await screen.findByRole('region', { name: 'In Medusa' })
  const [refund, opened] = within(section).getAllByRole('listitem')
  expect(refund).toHaveTextContent(
    /^Refund of €31\.54 in Medusa: failed, will retry at .+Attempts2Last errorMedusa answered 409/,
  )
  expect(within(refund!).getByText('Medusa answered 409: the payment is being captured.')).toBeInTheDocument()
  expect(within(refund!).getByRole('button', { name: 'Retry the refund of €31.54 in Medusa' })).toBeEnabled()
  expect(opened).toHaveTextContent(/^Return opened in Medusa: done/)
  expect(within(opened!).getByText('return_01JD')).toBeInTheDocument()
  // Done: nothing to retry.
  expect(within(opened!).queryByRole('button')).not.toBeInTheDocument()
})

test('Retry says what it did without a reload, and the action’s new state follows', async () => {
  let current = failedRefund
  const retried: string[] = []
  serve(() => [current])
  server.use(
    http.post('*/admin/api/engine-actions/:id/retry', ({ params }) => {
      retried.push(String(params.id))
      current = { ...failedRefund, state: 'delivered', attempts: 3, last_error: null, reference: 're_01JD' }
      return new HttpResponse(null, { status: 202 })
    }),
  )
  renderConsole('/admin/returns/r-1')
  const section = await screen.findByRole('region', { name: 'In Medusa' })
  await userEvent.click(await within(section).findByRole('button', { name: 'Retry the refund of €31.54 in Medusa' }))
  expect(await within(section).findByRole('status')).toHaveTextContent('Retrying the refund of €31.54 in Medusa now.')
  expect(retried).toEqual([failedRefund.id])
  await waitFor(() => expect(within(section).getByRole('listitem')).toHaveTextContent(/Medusa: done/))
  expect(within(section).getByText('re_01JD')).toBeInTheDocument()
  expect(within(section).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument()
})

test('a refused retry says why, in the server’s words', async () => {
  serve(() => [action({ ...failedRefund, state: 'failed', next_attempt_at: null })])
  server.use(
    http.post('*/admin/api/engine-actions/:id/retry', () =>
      HttpResponse.json(
        { error: 'in_flight', message: 'It is being carried out right now; try again shortly.' },
        { status: 409 },
      ),
    ),
  )
  renderConsole('/admin/returns/r-1')
  const section = await screen.findByRole('region', { name: 'In Medusa' })
  expect(within(section).getByRole('listitem')).toHaveTextContent(/Medusa: failed, not retried any more/)
  await userEvent.click(within(section).getByRole('button', { name: 'Retry the refund of €31.54 in Medusa' }))
  expect(await within(section).findByRole('alert')).toHaveTextContent(
    'Not retried: It is being carried out right now; try again shortly.',
  )
})

test('an opening whose return was cancelled offers no Retry, and says why', async () => {
  serve(() => [
    action({
      state: 'failed',
      attempts: 8,
      done_at: null,
      last_error: 'Medusa answered 503.',
      reference: null,
      return_cancelled: true,
    }),
  ])
  renderConsole('/admin/returns/r-1')
  const section = await screen.findByRole('region', { name: 'In Medusa' })
  expect(within(section).getByRole('listitem')).toHaveTextContent(
    /Return opened in Medusa: failed, not retried any more: the return was cancelled/,
  )
  expect(within(section).queryByRole('button', { name: /Retry/ })).toBeNull()
})

test('Store actions lists every refund Medusa has not confirmed, across returns, by its filters', async () => {
  const seen: URL[] = []
  serve(
    () => [
      failedRefund,
      { ...failedRefund, id: 'act_00000000000000000000000000000003', return_id: 'r-2', return_name: '#1002-R1' },
    ],
    seen,
  )
  renderConsole('/admin/engine-actions')
  expect(await screen.findByRole('heading', { name: 'Store actions', level: 1 })).toBeInTheDocument()
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'Refund')
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Not confirmed yet')
  await waitFor(() => expect(seen.at(-1)?.searchParams.toString()).toBe('kind=refund&state=unconfirmed'))
  expect(window.location.search).toBe('?kind=refund&state=unconfirmed')
  const table = screen.getByRole('table', { name: 'Actions in Medusa, newest first' })
  const second = within(table).getByRole('link', { name: '#1002-R1' }).closest('tr')!
  expect(within(second).getByRole('rowheader')).toHaveTextContent('Refund of €31.54 in Medusa')
  expect(within(second).getByRole('button', { name: 'Retry the refund of €31.54 in Medusa' })).toBeInTheDocument()
  expect(document.title).toBe('Store actions · Returns back office')
})
