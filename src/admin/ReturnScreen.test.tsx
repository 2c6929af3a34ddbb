import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { Inspection, ReturnDetail, ReviewDecision, StaffReview, StaffStateChange } from '../../contract/staff'
import { server } from '../testing/server'
import { eur, returnDetail } from '../testing/staffReturn'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** A return's screen: its review (docs/lifecycle.md) and what the warehouse found on receipt. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }

const money = (amount: string) => ({ shop_money: eur(amount), presentment_money: eur(amount) })

const pendingReview = (overrides: Partial<StaffReview> = {}): StaffReview => ({
  state: 'pending',
  flags: [{ rule: 'over_amount', message: 'Worth €250.00, over €200.00' }],
  answer_by: '2020-01-02',
  reason: null,
  decided_at: null,
  decided_by: null,
  ...overrides,
})

const detail = returnDetail

const inspection = (overrides: Partial<Inspection> = {}): Inspection => ({
  line_item_id: 'li-mug',
  condition: 'opened',
  disposition: 'restock',
  note: 'Box opened, mug fine',
  photos: [{ id: 'p-9', line_item_id: 'li-mug', url: '/admin/api/returns/r-1/photos/p-9' }],
  deduction: { line_item_id: 'li-mug', title: 'Ceramic Mug', condition: 'opened', percent: 10, amount: eur('1.40') },
  restocked_variant: 'Ceramic Mug · White',
  inspected_at: '2026-11-22T09:30:00.000Z',
  inspected_by: 'warehouse@demo.example',
  ...overrides,
})

function serve(answer: () => ReturnDetail) {
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/emails', () => HttpResponse.json({ smtp: false, emails: [] })),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(answer())),
  )
}

function renderConsole(path = '/admin/returns/r-1') {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

test('a return waiting for review shows why and by when, offers no moves or receiving, and approving it shows who decided', async () => {
  let review = pendingReview()
  const decisions: ReviewDecision[] = []
  serve(() => detail({ review }))
  server.use(
    http.post('*/admin/api/reviews', async ({ request }) => {
      decisions.push((await request.json()) as ReviewDecision)
      review = pendingReview({
        state: 'approved',
        decided_at: '2026-11-21T10:00:00.000Z',
        decided_by: 'staff@demo.example',
      })
      return HttpResponse.json({ decided: ['r-1'], skipped: [] })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  const panel = await screen.findByRole('region', { name: 'Waiting for review' })
  expect(within(panel).getByText('Worth €250.00, over €200.00')).toBeInTheDocument()
  expect(within(panel).getByText('2 Jan 2020 (overdue)')).toBeInTheDocument()
  expect(
    within(panel).getByText('No label is made and the items cannot move on until the return is approved.'),
  ).toBeInTheDocument()
  expect(screen.getAllByText('Waiting for review').length).toBeGreaterThan(0)
  expect(screen.queryByRole('region', { name: 'Move items on' })).not.toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Mark received' })).not.toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Receive and inspect' })).not.toBeInTheDocument()

  await user.click(within(panel).getByRole('button', { name: 'Approve' }))
  expect(await within(panel).findByRole('status')).toHaveTextContent('Approved #1001-R1.')
  expect(decisions).toEqual([{ return_ids: ['r-1'], decision: 'approve' }])
  const approved = await screen.findByRole('region', { name: 'Approved after review' })
  expect(within(approved).getByText(/by staff@demo\.example/)).toBeInTheDocument()
  expect(within(approved).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()
  // Approved: the return goes on as any other.
  expect(screen.getByRole('button', { name: 'Mark received' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Receive and inspect' })).toHaveAttribute('href', '/admin/receive/r-1')
})

test('rejecting from a return’s screen needs a reason; the rejected return shows it, and no moves', async () => {
  let review = pendingReview()
  const decisions: ReviewDecision[] = []
  serve(() => detail({ review }))
  server.use(
    http.post('*/admin/api/reviews', async ({ request }) => {
      const decision = (await request.json()) as ReviewDecision
      decisions.push(decision)
      review = pendingReview({
        state: 'rejected',
        reason: decision.reason ?? null,
        decided_at: '2026-11-21T10:00:00.000Z',
        decided_by: 'staff@demo.example',
      })
      return HttpResponse.json({ decided: ['r-1'], skipped: [] })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  const panel = await screen.findByRole('region', { name: 'Waiting for review' })
  await user.click(within(panel).getByRole('button', { name: 'Reject…' }))
  await user.click(within(panel).getByRole('button', { name: 'Reject the return' }))
  expect(within(panel).getByRole('textbox', { name: 'Reason for rejecting the return' })).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  expect(decisions).toEqual([])
  await user.type(within(panel).getByRole('textbox', { name: 'Reason for rejecting the return' }), 'Worn and washed')
  await user.click(within(panel).getByRole('button', { name: 'Reject the return' }))
  const rejected = await screen.findByRole('region', { name: 'Rejected after review' })
  expect(within(rejected).getByRole('status')).toHaveTextContent('Rejected #1001-R1.')
  await waitFor(() => expect(within(rejected).getByRole('status')).toHaveFocus())
  expect(within(rejected).getByText('Worn and washed')).toBeInTheDocument()
  expect(within(rejected).getByText('Reason given to the shopper:')).toBeInTheDocument()
  expect(decisions).toEqual([{ return_ids: ['r-1'], decision: 'reject', reason: 'Worn and washed' }])
  expect(screen.queryByRole('button', { name: 'Mark received' })).not.toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Receive and inspect' })).not.toBeInTheDocument()
})

test('inspections show each item’s condition, disposition, note, photos, deduction and restock, with who and when', async () => {
  serve(() =>
    detail(
      {
        inspections: [
          inspection(),
          inspection({
            line_item_id: 'li-tee',
            condition: 'as_new',
            disposition: 'refurbish',
            note: null,
            photos: [],
            deduction: null,
            restocked_variant: null,
          }),
        ],
      },
      'received',
    ),
  )
  renderConsole()
  const section = await screen.findByRole('region', { name: 'Inspection' })
  const mug = within(section).getByRole('heading', { name: 'Ceramic Mug' }).closest('li')!
  const tee = within(section).getByRole('heading', { name: 'Classic Tee · M' }).closest('li')!
  expect(within(mug).getByText('Opened')).toBeInTheDocument()
  expect(within(mug).getByText('Restock')).toBeInTheDocument()
  expect(within(mug).getByText('€1.40 (10%)')).toBeInTheDocument()
  expect(within(mug).getByText('Ceramic Mug · White')).toBeInTheDocument()
  expect(within(mug).getByText('Box opened, mug fine')).toBeInTheDocument()
  expect(within(mug).getByRole('img', { name: 'Inspection photo 1 of Ceramic Mug' }).closest('a')).toHaveAttribute(
    'href',
    '/admin/api/returns/r-1/photos/p-9',
  )
  expect(within(mug).getByText(/Inspected by warehouse@demo\.example/)).toBeInTheDocument()
  expect(within(tee).getByText('As new')).toBeInTheDocument()
  expect(within(tee).getByText('Refurbish')).toBeInTheDocument()
  expect(within(tee).getByText('Nothing')).toBeInTheDocument()
  expect(within(tee).queryByText('Back on sale')).not.toBeInTheDocument()
  // Both items inspected: nothing is left to receive.
  expect(screen.queryByRole('link', { name: 'Receive and inspect' })).not.toBeInTheDocument()
  expect(screen.queryByRole('region', { name: 'Waiting for review' })).not.toBeInTheDocument()
})

test('a line inspected unit by unit shows each unit as its own inspection, named "unit 1 of 2"', async () => {
  const unit = (number: number, condition: Inspection['condition']) =>
    inspection({ unit: { number, of: 2 }, condition, photos: [], note: null })
  serve(() => detail({ inspections: [unit(1, 'opened'), unit(2, 'damaged')] }, 'received'))
  renderConsole()
  const section = await screen.findByRole('region', { name: 'Inspection' })
  const first = within(section).getByRole('heading', { name: 'Ceramic Mug, unit 1 of 2' }).closest('li')!
  const second = within(section).getByRole('heading', { name: 'Ceramic Mug, unit 2 of 2' }).closest('li')!
  expect(within(first).getByText('Opened')).toBeInTheDocument()
  expect(within(second).getByText('Damaged')).toBeInTheDocument()
})

test('a return with items still to come offers receiving them', async () => {
  serve(() => detail({ inspections: [inspection()] }, 'received'))
  renderConsole()
  expect(await screen.findByRole('link', { name: 'Receive and inspect' })).toHaveAttribute('href', '/admin/receive/r-1')
})

test('the refund shows what inspections deducted, and what is left', async () => {
  const base = detail({ inspections: [inspection()] }, 'received')
  serve(() => ({
    ...base,
    status: {
      ...base.status,
      refund: {
        method: 'original_payment',
        amount: eur('12.60'),
        before_deductions: eur('14.00'),
        deductions: [inspection().deduction!],
        timing: null,
        expected: null,
      },
    },
    return_order: {
      id: 'r-1',
      name: '#1001-R1',
      status: 'requested',
      items: [],
      refund_method: 'original_payment',
      refund_value: money('14.00'),
      store_credit_value: null,
      breakdown: {
        items_subtotal: money('14.00'),
        tax: money('0.00'),
        return_fee: money('0.00'),
        bonus: money('0.00'),
        upsell: money('0.00'),
        total: money('14.00'),
      },
      created_at: '2026-11-20T12:00:00.000Z',
    },
  }))
  renderConsole()
  const refund = await screen.findByRole('region', { name: 'Refund' })
  expect(within(refund).getByRole('row', { name: 'Total €14.00' })).toBeInTheDocument()
  expect(within(refund).getByRole('row', { name: 'Inspection: Ceramic Mug, opened (10%) −€1.40' })).toBeInTheDocument()
  expect(within(refund).getByRole('row', { name: 'After the inspection €12.60' })).toBeInTheDocument()
})

test('Mark refunded on items never received asks first, naming the amount; Cancel sends nothing, confirming sends it', async () => {
  const sent: StaffStateChange[] = []
  serve(() => detail())
  server.use(
    http.post('*/admin/api/returns/r-1/status', async ({ request }) => {
      sent.push((await request.json()) as StaffStateChange)
      return HttpResponse.json({ ...detail(), moved: ['Ceramic Mug', 'Classic Tee · M'], skipped: [] })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Mark refunded' }))
  const question = await screen.findByRole('alertdialog', { name: 'Refund without receipt?' })
  expect(question).toHaveAccessibleDescription(
    'Ceramic Mug and Classic Tee · M have not been received. Marking them refunded counts them in the return’s refund of €39.00, e-mails the shopper and cannot be undone.',
  )
  await waitFor(() => expect(question).toHaveFocus())
  await user.click(within(question).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  expect(sent).toEqual([])

  await user.click(screen.getByRole('button', { name: 'Mark refunded' }))
  await user.click(await screen.findByRole('button', { name: 'Refund €39.00 without receipt' }))
  await waitFor(() =>
    expect(sent).toEqual([{ state: 'refunded', line_item_ids: ['li-mug', 'li-tee'], confirm_amount: '39.00' }]),
  )
  const moves = screen.getByRole('region', { name: 'Move items on' })
  expect(await within(moves).findByRole('status')).toHaveTextContent(
    '2 items marked refunded: Ceramic Mug and Classic Tee · M.',
  )
})

test('received items are marked refunded without a question', async () => {
  const sent: StaffStateChange[] = []
  serve(() => detail({}, 'received'))
  server.use(
    http.post('*/admin/api/returns/r-1/status', async ({ request }) => {
      sent.push((await request.json()) as StaffStateChange)
      return HttpResponse.json({ ...detail({}, 'received'), moved: ['Ceramic Mug', 'Classic Tee · M'], skipped: [] })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Mark refunded' }))
  await waitFor(() => expect(sent).toEqual([{ state: 'refunded', line_item_ids: ['li-mug', 'li-tee'] }]))
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
})

test('a second staff member is told by title which item moved first, and what did move', async () => {
  serve(() => detail())
  server.use(
    http.post('*/admin/api/returns/r-1/status', () =>
      HttpResponse.json({
        ...detail(),
        moved: ['Ceramic Mug'],
        skipped: ['Classic Tee · M is already received'],
      }),
    ),
  )
  renderConsole()
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Mark received' }))
  const done = await within(screen.getByRole('region', { name: 'Move items on' })).findByRole('status')
  await waitFor(() =>
    expect(done).toHaveTextContent(
      '1 item marked received: Ceramic Mug. Not moved, someone else was first: Classic Tee · M is already received.',
    ),
  )
  expect(done).not.toHaveTextContent('li-')
  await waitFor(() => expect(done).toHaveFocus())
})

test('an exchange held after inspection says it waits for a decision, and how to send its new item', async () => {
  serve(() =>
    detail(
      {
        held: [
          { line_item_id: 'li-tee', title: 'Classic Tee · M', condition: 'wrong_item', exchange_variant_title: 'L' },
        ],
      },
      'received',
    ),
  )
  renderConsole()
  const held = await screen.findByRole('region', { name: 'Waiting for your decision' })
  expect(held).toHaveTextContent('Classic Tee · M came back as “wrong item”: its new item (L) is not sent.')
  expect(held).toHaveTextContent('send the new item by marking Classic Tee · M refunded below')
  expect(screen.getByRole('button', { name: 'Mark refunded' })).toBeInTheDocument()
})

test('the refund says plainly when no store is connected, and says nothing once one is', async () => {
  const none =
    'No store is connected: refunds, store credit, exchanges and restocks are recorded here, not carried out in your store.'
  const withOrder: ReturnDetail = {
    ...detail(),
    return_order: {
      id: 'r-1',
      name: '#1001-R1',
      status: 'requested',
      items: [],
      refund_method: 'original_payment',
      refund_value: money('14.00'),
      store_credit_value: null,
      breakdown: {
        items_subtotal: money('14.00'),
        tax: money('0.00'),
        return_fee: money('0.00'),
        bonus: money('0.00'),
        upsell: money('0.00'),
        total: money('14.00'),
      },
      created_at: '2026-11-20T12:00:00.000Z',
    },
  }
  serve(() => withOrder)
  const { unmount } = renderConsole()
  const refund = await screen.findByRole('region', { name: 'Refund' })
  expect(await within(refund).findByText(none, { exact: false })).toBeInTheDocument()
  expect(within(refund).getByRole('link', { name: 'Store connection' })).toHaveAttribute(
    'href',
    '/admin/store-connection',
  )
  unmount()

  server.use(
    http.get('*/admin/api/store-connection', () =>
      HttpResponse.json({
        connection: {
          engine: 'medusa',
          url: 'http://10.0.0.5:9000',
          api_key_readable: true,
          sales_channel_id: 'sc_01',
          stock_location_id: 'sloc_01',
          region_id: null,
          updated_at: '2026-11-20T12:00:00.000Z',
          updated_by: 'owner@demo.example',
          last_test: null,
        },
      }),
    ),
  )
  renderConsole()
  const connected = await screen.findByRole('region', { name: 'Refund' })
  await waitFor(() => expect(within(connected).queryByText(none, { exact: false })).not.toBeInTheDocument())
})
