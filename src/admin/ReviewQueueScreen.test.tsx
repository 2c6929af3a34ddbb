import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ReviewDecision, ReviewQueue } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { answerByText } from './format'
import { decidedText } from './ReviewDecide'
import { makeConsoleStore } from './store'

/** The review queue (docs/lifecycle.md, Review) against the API's answers. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }

type Waiting = ReviewQueue['returns'][number]

const waiting = (overrides: Partial<Waiting> = {}): Waiting => ({
  id: 'r-1',
  name: '#1001-R1',
  order_name: '#1001',
  email: 'jane@example.com',
  created_at: '2026-11-20T12:00:00.000Z',
  items: 1,
  outcome: 'refund',
  refund: { amount: '250.00', currency_code: 'EUR' },
  state: 'requested',
  review: 'pending',
  flags: [{ rule: 'over_amount', message: 'Worth €250.00, over €200.00' }],
  // Long past: overdue whatever day the test runs.
  answer_by: '2020-01-02',
  ...overrides,
})

/**
 * A queue that answers as the server does: decided returns leave it; one already decided by
 * someone else is skipped. `decisions` records what was posted.
 */
function queueServer(returns: Waiting[], gone: Record<string, string> = {}) {
  let queue = [...returns]
  const decisions: ReviewDecision[] = []
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: queue, total: queue.length })),
    http.post('*/admin/api/reviews', async ({ request }) => {
      const decision = (await request.json()) as ReviewDecision
      decisions.push(decision)
      if (decision.decision === 'reject' && !decision.reason)
        return HttpResponse.json({ error: 'invalid_request', message: 'reason: required to reject' }, { status: 400 })
      const skipped = decision.return_ids.filter((id) => gone[id]).map((id) => ({ id, message: gone[id] }))
      const decided = decision.return_ids.filter((id) => !gone[id])
      queue = queue.filter((entry) => !decision.return_ids.includes(entry.id))
      return HttpResponse.json({ decided, skipped })
    }),
  )
  return decisions
}

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

test('the queue lists each waiting return with its flags and answer-by day, overdue said in words', async () => {
  queueServer([
    waiting(),
    waiting({
      id: 'r-2',
      name: '#1002-R1',
      order_name: '#1002',
      email: 'max@example.com',
      flags: [
        { rule: 'photos', message: 'Photos for “Arrived damaged”' },
        { rule: 'frequent', message: '4 returns in 30 days, over 3' },
      ],
      answer_by: '2999-01-04',
    }),
  ])
  renderConsole('/admin/reviews')
  const heading = await screen.findByRole('heading', { name: 'Review', level: 1 })
  await waitFor(() => expect(heading).toHaveFocus())
  expect(document.title).toBe('Review · Returns back office')
  expect(await screen.findByRole('link', { name: 'Review (2 waiting)' })).toHaveAttribute('aria-current', 'page')

  const first = (await screen.findByRole('link', { name: '#1001-R1' })).closest('tr')!
  expect(within(first).getByRole('link', { name: '#1001-R1' })).toHaveAttribute('href', '/admin/returns/r-1')
  expect(within(first).getByText('jane@example.com')).toBeInTheDocument()
  expect(within(first).getByText('€250.00')).toBeInTheDocument()
  expect(within(first).getByText('Worth €250.00, over €200.00')).toBeInTheDocument()
  expect(within(first).getByText('2 Jan 2020 (overdue)')).toBeInTheDocument()
  const second = screen.getByRole('link', { name: '#1002-R1' }).closest('tr')!
  expect(within(second).getByText('4 returns in 30 days, over 3')).toBeInTheDocument()
  expect(within(second).getByText('4 Jan 2999')).toBeInTheDocument()
  expect(within(second).queryByText(/overdue/)).not.toBeInTheDocument()
  // Nothing chosen yet: nothing to decide.
  expect(screen.getByText('Select returns to approve or reject them.')).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Approve' })).toBeDisabled()
})

test('select all, approve: the status says what was approved and names the one skipped with why; the list refreshes', async () => {
  const decisions = queueServer(
    [waiting(), waiting({ id: 'r-2', name: '#1002-R1' }), waiting({ id: 'r-3', name: '#1003-R1' })],
    { 'r-3': 'It is no longer waiting for review' },
  )
  renderConsole('/admin/reviews')
  const user = userEvent.setup()
  await screen.findByRole('link', { name: '#1001-R1' })
  await user.click(screen.getByRole('checkbox', { name: 'Select all 3 on this page' }))
  expect(screen.getByRole('checkbox', { name: 'Select #1002-R1' })).toBeChecked()
  expect(screen.getByText('3 of 3 selected')).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Approve' }))

  const status = await screen.findByText(/^Approved/)
  expect(status).toHaveAttribute('role', 'status')
  expect(status).toHaveTextContent(
    'Approved #1001-R1 and #1002-R1. Skipped #1003-R1: It is no longer waiting for review.',
  )
  await waitFor(() => expect(status).toHaveFocus())
  expect(decisions).toEqual([{ return_ids: ['r-1', 'r-2', 'r-3'], decision: 'approve' }])
  expect(
    await screen.findByText('Nothing waits for review. Returns the shop’s rules flag appear here.'),
  ).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: '#1001-R1' })).not.toBeInTheDocument()
  // The nav's count follows the same answer: nothing waits.
  expect(await screen.findByRole('link', { name: 'Review' })).toBeInTheDocument()
})

test('reject asks for a reason the shopper reads; without one it says so and sends nothing; with one it rejects the chosen return', async () => {
  const decisions = queueServer([waiting(), waiting({ id: 'r-2', name: '#1002-R1' })])
  renderConsole('/admin/reviews')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('checkbox', { name: 'Select #1002-R1' }))
  const opener = screen.getByRole('button', { name: 'Reject…' })
  await user.click(opener)
  expect(opener).toHaveAttribute('aria-expanded', 'true')
  const reason = screen.getByRole('textbox', { name: 'Reason for rejecting the return' })
  await waitFor(() => expect(reason).toHaveFocus())
  expect(reason).toBeRequired()
  expect(reason).toHaveAccessibleDescription('Required. The shopper reads it on the status page and in the e-mail.')

  await user.click(screen.getByRole('button', { name: 'Reject the return' }))
  expect(reason).toHaveAttribute('aria-invalid', 'true')
  expect(reason).toHaveAccessibleDescription(/Write a reason before rejecting: the shopper is told it\./)
  expect(reason).toHaveFocus()
  expect(decisions).toEqual([])

  // Escape closes the form, and focus goes back to the button that opened it.
  await user.keyboard('{Escape}')
  expect(screen.queryByRole('textbox', { name: /Reason for rejecting/ })).not.toBeInTheDocument()
  expect(opener).toHaveFocus()

  await user.click(opener)
  await user.type(screen.getByRole('textbox', { name: 'Reason for rejecting the return' }), '  Worn, tags removed  ')
  await user.click(screen.getByRole('button', { name: 'Reject the return' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Rejected #1002-R1.')
  expect(decisions).toEqual([{ return_ids: ['r-2'], decision: 'reject', reason: 'Worn, tags removed' }])
  await waitFor(() => expect(screen.queryByRole('link', { name: '#1002-R1' })).not.toBeInTheDocument())
  expect(screen.getByRole('link', { name: '#1001-R1' })).toBeInTheDocument()
  expect(screen.queryByRole('textbox', { name: /Reason for rejecting/ })).not.toBeInTheDocument()
})

test('a refused decision says why, takes the focus, and keeps the reason typed', async () => {
  queueServer([waiting()])
  server.use(
    http.post('*/admin/api/reviews', () =>
      HttpResponse.json(
        { error: 'invalid_request', message: 'reason: must be at most 1000 characters' },
        { status: 400 },
      ),
    ),
  )
  renderConsole('/admin/reviews')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('checkbox', { name: 'Select all 1 on this page' }))
  await user.click(screen.getByRole('button', { name: 'Reject…' }))
  await user.type(screen.getByRole('textbox', { name: 'Reason for rejecting the return' }), 'Too long')
  await user.click(screen.getByRole('button', { name: 'Reject the return' }))
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('reason: must be at most 1000 characters')
  await waitFor(() => expect(alert).toHaveFocus())
  expect(screen.getByRole('textbox', { name: 'Reason for rejecting the return' })).toHaveValue('Too long')
})

test('an empty queue says nothing waits', async () => {
  queueServer([])
  renderConsole('/admin/reviews')
  expect(
    await screen.findByText('Nothing waits for review. Returns the shop’s rules flag appear here.'),
  ).toBeInTheDocument()
  expect(screen.queryByRole('table')).not.toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Review' })).toBeInTheDocument()
})

test.each([
  ['one approved', 'approve' as const, { decided: ['r-1'], skipped: [] }, 'Approved #1001-R1.'],
  ['two rejected', 'reject' as const, { decided: ['r-1', 'r-2'], skipped: [] }, 'Rejected #1001-R1 and #1002-R1.'],
  [
    'many approved',
    'approve' as const,
    { decided: ['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6'], skipped: [] },
    '6 returns approved.',
  ],
  [
    'none decided, two skipped',
    'reject' as const,
    {
      decided: [],
      skipped: [
        { id: 'r-1', message: 'It was approved already.' },
        { id: 'r-9', message: 'No such return' },
      ],
    },
    'Nothing was rejected. Skipped #1001-R1: It was approved already. Skipped #1009-R1: No such return.',
  ],
])('decidedText, %s', (_name, decision, result, words) => {
  expect(decidedText(decision, result, (id) => `#100${id.slice(2)}-R1`)).toBe(words)
})

test.each([
  ['a day before', '2026-11-22', { text: '22 Nov 2026 (overdue)', overdue: true }],
  ['the day itself', '2026-11-23', { text: '23 Nov 2026 (today)', overdue: false }],
  ['a day after', '2026-11-24', { text: '24 Nov 2026', overdue: false }],
])('answerByText on 23 Nov 2026, %s', (_name, day, expected) => {
  expect(answerByText(day, new Date('2026-11-23T23:30:00Z'))).toEqual(expected)
})
