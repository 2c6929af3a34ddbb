import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { OutboxEmail } from '../../contract/events'
import type { ReturnDetail, TimelineEntry } from '../../contract/staff'
import { server } from '../testing/server'
import { returnDetail } from '../testing/staffReturn'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** A return's daily work (docs/back-office.md): notes, cancelling, closing, resending, the shopper's links. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }

const detail = returnDetail

const STATUS_LINK = 'http://demo.localhost:8080/status/r-1#sig'
const LABEL_LINK = 'http://demo.localhost:8080/portal-registration/returns/r-1/label.pdf?expires=1&signature=s'

const email = (overrides: Partial<OutboxEmail> = {}): OutboxEmail => ({
  id: 'msg_1',
  kind: 'created',
  return_id: 'r-1',
  return_name: '#1001-R1',
  to: 'jane@example.com',
  language: 'en',
  subject: 'Your return #1001-R1 is registered',
  created_at: '2026-11-20T12:00:00.000Z',
  state: 'kept',
  attempts: 1,
  delivered_at: '2026-11-20T12:00:01.000Z',
  next_attempt_at: null,
  last_error: null,
  ...overrides,
})

function serve(answer: () => ReturnDetail, emails: OutboxEmail[] = []) {
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/emails', () => HttpResponse.json({ smtp: false, emails })),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(answer())),
  )
}

function renderConsole(path = '/admin/returns/r-1') {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

const noteEntry = (note: string): TimelineEntry => ({
  at: '2026-11-21T09:00:00.000Z',
  kind: 'note',
  state: null,
  items: [],
  actor: 'staff@demo.example',
  note,
})

test('a note is added and shows on the timeline with who, without a reload', async () => {
  let current = detail()
  const sent: unknown[] = []
  serve(() => current)
  server.use(
    http.post('*/admin/api/returns/r-1/notes', async ({ request }) => {
      const body = (await request.json()) as { text: string }
      sent.push(body)
      current = detail({ timeline: [...current.timeline, noteEntry(body.text)] })
      return HttpResponse.json(current)
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  const form = await screen.findByRole('region', { name: 'Add a note' })
  expect(within(form).getByRole('button', { name: 'Add note' })).toBeDisabled()
  await user.type(within(form).getByRole('textbox', { name: 'Note' }), '  Shopper called: parcel next week ')
  await user.click(within(form).getByRole('button', { name: 'Add note' }))
  expect(await within(form).findByRole('status')).toHaveTextContent('Note added to the timeline.')
  expect(sent).toEqual([{ text: 'Shopper called: parcel next week' }])
  const timeline = screen.getByRole('region', { name: 'Timeline' })
  expect(await within(timeline).findByText('“Shopper called: parcel next week”')).toBeInTheDocument()
  expect(within(timeline).getByText(/by staff@demo\.example/)).toBeInTheDocument()
  expect(within(form).getByRole('textbox', { name: 'Note' })).toHaveValue('')
})

test('cancelling asks first, then shows the return cancelled, with no moves left', async () => {
  let current = detail()
  let cancels = 0
  serve(() => current)
  server.use(
    http.post('*/admin/api/returns/r-1/cancel', () => {
      cancels += 1
      current = detail({
        summary: { ...detail().summary, state: 'cancelled' },
        ended: { state: 'cancelled', reason: null, at: '2026-11-21T10:00:00.000Z', by: 'staff@demo.example' },
      })
      return HttpResponse.json(current)
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Cancel return' }))
  const question = screen.getByRole('alertdialog', { name: 'Cancel #1001-R1?' })
  await waitFor(() => expect(question).toHaveFocus())
  expect(cancels).toBe(0)
  await user.click(within(question).getByRole('button', { name: 'Cancel the return' }))
  const ended = await screen.findByRole('region', { name: 'Cancelled' })
  expect(within(ended).getByRole('status')).toHaveTextContent(/Cancelled by staff@demo\.example/)
  await waitFor(() => expect(within(ended).getByRole('status')).toHaveFocus())
  expect(cancels).toBe(1)
  expect(screen.queryByRole('button', { name: 'Mark received' })).not.toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Receive and inspect' })).not.toBeInTheDocument()
})

test('a return with an item received offers closing only; the server’s refusal is shown', async () => {
  serve(() => detail({}, 'received'))
  const reasons: unknown[] = []
  server.use(
    http.post('*/admin/api/returns/r-1/close', async ({ request }) => {
      reasons.push(await request.json())
      return HttpResponse.json({ error: 'already_ended', message: '#1001-R1 is already closed.' }, { status: 409 })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  const section = await screen.findByRole('region', { name: 'Cancel or close' })
  expect(within(section).queryByRole('button', { name: 'Cancel return' })).not.toBeInTheDocument()
  await user.type(within(section).getByRole('textbox', { name: 'Reason to close' }), 'Parcel lost')
  await user.click(within(section).getByRole('button', { name: 'Close return' }))
  expect(await within(section).findByRole('alert')).toHaveTextContent('#1001-R1 is already closed.')
  expect(reasons).toEqual([{ reason: 'Parcel lost' }])
})

test('each e-mail has a Resend button named by its subject, which says what happened', async () => {
  serve(
    () => detail(),
    [email(), email({ id: 'msg_2', kind: 'received', subject: 'We received your items (#1001-R1)' })],
  )
  const resent: string[] = []
  server.use(
    http.post('*/admin/api/emails/:id/resend', ({ params }) => {
      resent.push(String(params.id))
      return HttpResponse.json({ id: 'msg_3', subject: 'We received your items (#1001-R1)' })
    }),
  )
  renderConsole()
  const user = userEvent.setup()
  const emails = await screen.findByRole('region', { name: 'E-mails to the shopper' })
  await user.click(within(emails).getByRole('button', { name: 'Resend “We received your items (#1001-R1)”' }))
  expect(await within(emails).findByRole('status')).toHaveTextContent(
    '“We received your items (#1001-R1)” is written again to jane@example.com',
  )
  expect(resent).toEqual(['msg_2'])
  expect(within(emails).getByRole('button', { name: 'Resend “Your return #1001-R1 is registered”' })).toBeEnabled()
})

test('the status and label links are copied, and “Copied” is said; no label link without a label', async () => {
  const user = userEvent.setup()
  // user-event's clipboard stands in for the browser's: what the page wrote is what it was given.
  const write = jest.spyOn(navigator.clipboard, 'writeText')
  serve(() => detail({ links: { status: STATUS_LINK, label: LABEL_LINK } }))
  const { unmount } = renderConsole()
  await user.click(await screen.findByRole('button', { name: 'Copy status link' }))
  const links = screen.getByRole('region', { name: 'Shopper’s links' })
  expect(await within(links).findByRole('status')).toHaveTextContent('Copied the status link.')
  await user.click(screen.getByRole('button', { name: 'Copy label link' }))
  expect(await within(links).findByRole('status')).toHaveTextContent('Copied the label link.')
  expect(write.mock.calls).toEqual([[STATUS_LINK], [LABEL_LINK]])
  unmount()

  serve(() => detail({ links: { status: STATUS_LINK, label: null } }))
  renderConsole()
  expect(await screen.findByRole('button', { name: 'Copy status link' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Copy label link' })).not.toBeInTheDocument()
})
