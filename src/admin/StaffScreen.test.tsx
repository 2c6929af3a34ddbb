import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { STAFF_ACTIONS } from '../../contract/constants'
import type { StaffList, StaffSession } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** Roles in the console (docs/back-office.md, "Roles"): what a role sees, and the owners' Staff page. */

const OWNER: StaffSession = {
  email: 'owner@demo.example',
  shop: 'demo',
  shops: ['demo'],
  role: 'owner',
  actions: [...STAFF_ACTIONS],
}
const AGENT: StaffSession = {
  ...OWNER,
  email: 'agent@demo.example',
  role: 'agent',
  actions: ['console.use', 'returns.read', 'returns.receive', 'reviews.decide', 'policy.read'],
}
const WAREHOUSE: StaffSession = {
  ...OWNER,
  email: 'desk@demo.example',
  role: 'warehouse',
  actions: ['console.use', 'returns.read', 'returns.receive'],
}

const STAFF: StaffList = {
  members: [
    { id: 's1', email: 'agent@demo.example', role: 'agent', last_sign_in_at: null },
    { id: 's2', email: 'owner@demo.example', role: 'owner', last_sign_in_at: '2026-11-20T12:00:00.000Z' },
  ],
  invites: [
    {
      email: 'new@demo.example',
      role: 'warehouse',
      invited_by: 'owner@demo.example',
      created_at: '2026-11-20T12:00:00.000Z',
      expires_at: '2026-11-23T12:00:00.000Z',
    },
  ],
  review_limit: null,
}

function serve(session: StaffSession) {
  const asked: string[] = []
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(session)),
    http.get('*/admin/api/reviews', () => {
      asked.push('reviews')
      return HttpResponse.json({ returns: [], total: 0 })
    }),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
    http.get('*/admin/api/shop', () => HttpResponse.json({ shop: 'demo', reasons: [] })),
    http.get('*/admin/api/staff', () => HttpResponse.json(STAFF)),
  )
  return asked
}

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

test('the navigation shows a role only what it may open, and a page reached by its address says why not', async () => {
  const asked = serve(WAREHOUSE)
  renderConsole('/admin/staff')
  expect(
    await screen.findByText('Your role (warehouse) cannot manage the staff. Ask an owner of the shop.'),
  ).toBeVisible()
  const nav = screen.getByRole('navigation', { name: 'Back office' })
  expect(
    within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent),
  ).toEqual(['Returns', 'Receive'])
  // The review queue is not the warehouse's: not even its count is asked.
  expect(asked).toEqual([])
})

test('an agent sees Review and Policy but not Staff, nor the export', async () => {
  serve(AGENT)
  renderConsole('/admin/')
  const nav = await screen.findByRole('navigation', { name: 'Back office' })
  await waitFor(() =>
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Returns', 'Review', 'Receive', 'Policy']),
  )
  // Nor a button it may not use: the export is not the agent's here.
  expect(screen.queryByRole('link', { name: 'Export CSV' })).toBeNull()
})

test('an owner lists the staff and invites, invites by e-mail with a role, changes a role and resets', async () => {
  serve(OWNER)
  const posted: unknown[] = []
  server.use(
    http.post('*/admin/api/staff/invites', async ({ request }) => {
      posted.push(await request.json())
      return HttpResponse.json({ ...STAFF, link: null }, { status: 201 })
    }),
    http.put('*/admin/api/staff/:id/role', async ({ request, params }) => {
      posted.push({ id: params.id, ...((await request.json()) as object) })
      return HttpResponse.json({ error: 'last_owner', message: 'The shop must keep an owner.' }, { status: 409 })
    }),
    http.post('*/admin/api/staff/:id/reset', ({ params }) => {
      posted.push({ reset: params.id })
      return HttpResponse.json({ ...STAFF, link: null })
    }),
  )
  const user = userEvent.setup()
  renderConsole('/admin/staff')
  expect(await screen.findByRole('heading', { name: 'Staff', level: 1 })).toBeVisible()
  const nav = screen.getByRole('navigation', { name: 'Back office' })
  expect(within(nav).getByRole('link', { name: 'Staff' })).toHaveAttribute('aria-current', 'page')
  const table = await screen.findByRole('table', { name: 'The shop’s staff' })
  expect(within(table).getAllByRole('row')).toHaveLength(3)
  expect(screen.getByText(/new@demo\.example as warehouse, by owner@demo\.example/)).toBeVisible()

  await user.type(screen.getByLabelText('E-mail'), 'helper@demo.example')
  await user.selectOptions(screen.getByLabelText('Role'), 'admin')
  await user.click(screen.getByRole('button', { name: 'Send invite' }))
  expect(await screen.findByText('Invite sent to helper@demo.example.')).toBeVisible()
  expect(posted[0]).toEqual({ email: 'helper@demo.example', role: 'admin' })

  await user.selectOptions(screen.getByLabelText('Role of owner@demo.example'), 'agent')
  expect(await screen.findByText('The shop must keep an owner.')).toBeVisible()
  expect(posted[1]).toEqual({ id: 's2', role: 'agent' })

  await user.click(screen.getByRole('button', { name: 'Reset agent@demo.example' }))
  await user.click(await screen.findByRole('button', { name: 'Reset' }))
  expect(await screen.findByText('agent@demo.example was reset.')).toBeVisible()
  expect(posted[2]).toEqual({ reset: 's1' })
})

test('where the server sends no e-mail, the owner is handed the link to give, and can copy it', async () => {
  serve(OWNER)
  const link = 'http://demo.localhost/admin/invite#token=abc'
  server.use(http.post('*/admin/api/staff/invites', () => HttpResponse.json({ ...STAFF, link }, { status: 201 })))
  const user = userEvent.setup()
  renderConsole('/admin/staff')
  await user.type(await screen.findByLabelText('E-mail'), 'helper@demo.example')
  await user.click(screen.getByRole('button', { name: 'Send invite' }))
  expect(await screen.findByText('Invite made for helper@demo.example: give them the link below.')).toBeVisible()
  const handOver = screen.getByRole('region', { name: 'Give helper@demo.example this link' })
  expect(within(handOver).getByRole('textbox', { name: 'Link for helper@demo.example' })).toHaveValue(link)
  // user-event's stand-in for the clipboard, watched.
  const write = jest.spyOn(navigator.clipboard, 'writeText')
  await user.click(within(handOver).getByRole('button', { name: 'Copy link' }))
  expect(await within(handOver).findByText('Copied the link.')).toBeVisible()
  expect(write).toHaveBeenCalledWith(link)
})

test('an invite’s link sets the password and signs in', async () => {
  let body: unknown = null
  server.use(
    http.get('*/admin/api/session', () =>
      body ? HttpResponse.json(AGENT) : HttpResponse.json({ error: 'not_signed_in' }, { status: 401 }),
    ),
    http.post('*/admin/api/invite', async ({ request }) => {
      body = await request.json()
      return HttpResponse.json(AGENT)
    }),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/returns', () => HttpResponse.json({ returns: [], next: null })),
    http.get('*/admin/api/shop', () => HttpResponse.json({ shop: 'demo', reasons: [] })),
  )
  const user = userEvent.setup()
  renderConsole('/admin/invite#token=abc_DEF-123')
  await user.type(await screen.findByLabelText('New password'), 'a long passphrase')
  await user.click(screen.getByRole('button', { name: 'Set password and sign in' }))
  expect(await screen.findByText('agent@demo.example')).toBeVisible()
  expect(body).toEqual({ token: 'abc_DEF-123', password: 'a long passphrase' })
})

test('an owner withdraws a pending invite after confirming; the list no longer shows it', async () => {
  serve(OWNER)
  const withdrawn: unknown[] = []
  server.use(
    http.post('*/admin/api/staff/invites/withdraw', async ({ request }) => {
      withdrawn.push(await request.json())
      const left = { ...STAFF, invites: [] }
      server.use(http.get('*/admin/api/staff', () => HttpResponse.json(left)))
      return HttpResponse.json(left)
    }),
  )
  const user = userEvent.setup()
  renderConsole('/admin/staff')
  await user.click(await screen.findByRole('button', { name: 'Withdraw invite for new@demo.example' }))
  // Cancelled first: nothing is sent.
  const question = screen.getByRole('alertdialog', { name: 'Withdraw the invite for new@demo.example?' })
  expect(question).toHaveFocus()
  await user.click(within(question).getByRole('button', { name: 'Cancel' }))
  expect(withdrawn).toEqual([])
  await user.click(screen.getByRole('button', { name: 'Withdraw invite for new@demo.example' }))
  await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Withdraw invite' }))
  expect(await screen.findByText('The invite for new@demo.example was withdrawn.')).toHaveAttribute('role', 'status')
  expect(withdrawn).toEqual([{ email: 'new@demo.example' }])
  expect(await screen.findByText('No pending invites.')).toBeVisible()
  expect(screen.queryByRole('alertdialog')).toBeNull()
})

test('a withdrawn (or used, or expired) link says so instead of asking for a password', async () => {
  const message =
    'This link does not work: it was used already, it expired, it was withdrawn, or it is not for this shop. Ask an owner for a new one.'
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json({ error: 'not_signed_in' }, { status: 401 })),
    http.post('*/admin/api/invite', () => HttpResponse.json({ error: 'invalid_invite', message }, { status: 400 })),
  )
  const user = userEvent.setup()
  renderConsole('/admin/invite#token=withdrawn')
  await user.type(await screen.findByLabelText('New password'), 'a long passphrase')
  await user.click(screen.getByRole('button', { name: 'Set password and sign in' }))
  expect(await screen.findByRole('alert')).toHaveTextContent(message)
  expect(screen.getByRole('alert')).toHaveFocus()
  expect(screen.queryByLabelText('New password')).toBeNull()
  await user.click(screen.getByRole('link', { name: 'Go to sign-in' }))
  expect(await screen.findByRole('heading', { name: 'Sign in to the back office' })).toBeVisible()
})
