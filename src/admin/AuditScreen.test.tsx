import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { AuditEntry, AuditPage } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** The audit log's page: entries as sentences, filters in the address, pages by cursor, the CSV link. */

const OWNER = 'owner@demo.example'
const policyChanged: AuditEntry = {
  id: '12',
  at: '2026-11-20T12:00:00.000Z',
  actor: { kind: 'staff', id: 'stf_1', label: OWNER },
  address: '203.0.113.7',
  kind: 'policy.changed',
  subject: null,
  detail: {
    before: { review: { over_amount: '40.00' } },
    after: { review: { over_amount: '45.00' } },
  },
}
const orderDeleted: AuditEntry = {
  id: '11',
  at: '2026-11-20T11:00:00.000Z',
  actor: { kind: 'api_key', id: 'key_1', label: 'ERP sync' },
  address: '192.0.2.50',
  kind: 'orders_api.order_deleted',
  subject: '#1003',
  detail: {},
}
const signedIn: AuditEntry = {
  id: '3',
  at: '2026-11-19T08:00:00.000Z',
  actor: { kind: 'staff', id: 'stf_1', label: OWNER },
  address: '203.0.113.7',
  kind: 'session.signed_in',
  subject: null,
  detail: {},
}

function renderAudit(path = '/admin/audit') {
  const asked: URLSearchParams[] = []
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json({ email: OWNER, shop: 'demo', shops: ['demo'] })),
    http.get('*/admin/api/shop', () => HttpResponse.json({ shop: 'demo', reasons: [] })),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/audit/people', () => HttpResponse.json({ people: ['ERP sync', OWNER] })),
    http.get('*/admin/api/audit', ({ request }) => {
      const query = new URL(request.url).searchParams
      asked.push(query)
      const page: AuditPage = query.get('before')
        ? { entries: [signedIn], next: null }
        : query.get('kind') === 'sign_ins'
          ? { entries: [signedIn], next: null }
          : { entries: [policyChanged, orderDeleted], next: '1763636400000-11' }
      return HttpResponse.json(page)
    }),
  )
  window.history.pushState({}, '', path)
  render(<Console store={makeConsoleStore()} />)
  return asked
}

test('each entry reads as a sentence, with its time, its address and what changed, folded', async () => {
  renderAudit()
  const entries = await screen.findByRole('list', { name: 'Entries, newest first' })
  const [first, second] = within(entries).getAllByRole('listitem')
  expect(first).toHaveTextContent(
    `${OWNER} changed the policy: review {"over_amount":"40.00"} → {"over_amount":"45.00"}`,
  )
  expect(first).toHaveTextContent('from 203.0.113.7')
  expect(within(first!).getByText('Before and after')).toBeInTheDocument()
  expect(within(first!).getByText(/"over_amount": "45.00"/)).not.toBeVisible()
  await userEvent.click(within(first!).getByText('Before and after'))
  expect(within(first!).getByText(/"over_amount": "45.00"/)).toBeVisible()
  expect(second).toHaveTextContent('API key “ERP sync” deleted the order #1003')
  expect(screen.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page')
  expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/admin/api/audit.csv?')
})

test('the filters go to the address, the API and the CSV link; a page further asks with the cursor', async () => {
  const asked = renderAudit()
  await screen.findByRole('list', { name: 'Entries, newest first' })
  const person = screen.getByRole('combobox', { name: 'Person' })
  expect(
    within(person)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['Everyone', 'ERP sync', OWNER])
  await userEvent.selectOptions(person, OWNER)
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Sign-ins')
  await screen.findByText(`${OWNER} signed in`)
  expect(asked.at(-1)?.toString()).toBe(`person=${encodeURIComponent(OWNER)}&kind=sign_ins`)
  expect(window.location.search).toBe(`?person=${encodeURIComponent(OWNER)}&kind=sign_ins`)
  expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
    'href',
    `/admin/api/audit.csv?person=${encodeURIComponent(OWNER)}&kind=sign_ins`,
  )
})

test('Older entries asks for the page before the cursor; Newest entries comes back', async () => {
  const asked = renderAudit('/admin/audit?from=2026-11-01')
  await userEvent.click(await screen.findByRole('link', { name: 'Older entries' }))
  await screen.findByText(`${OWNER} signed in`)
  expect(asked.at(-1)?.get('before')).toBe('1763636400000-11')
  expect(asked.at(-1)?.get('from')).toBe('2026-11-01')
  expect(screen.queryByRole('link', { name: 'Older entries' })).not.toBeInTheDocument()
  await userEvent.click(screen.getByRole('link', { name: 'Newest entries' }))
  await screen.findByText(/changed the policy/)
})
