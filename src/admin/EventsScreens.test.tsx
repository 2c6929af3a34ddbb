import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { CreatedWebhook, DeliveryList, EmailDetail, OutboxEmail, WebhookEndpointView } from '../../contract/events'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** The console's E-mails and Webhooks pages (docs/events.md), against the API's answers. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }
/** Signed in, with nothing waiting for review (the nav's count asks). */
const signedIn = () => [
  http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
  http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
]

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

const email = (overrides: Partial<OutboxEmail> = {}): OutboxEmail => ({
  id: 'msg_00000000000000000000000000000001',
  return_id: 'r-1',
  return_name: '#1001-R1',
  kind: 'created',
  to: 'jane@example.com',
  subject: 'Ihre Rücksendung #1001-R1 ist angemeldet',
  language: 'de',
  state: 'kept',
  attempts: 1,
  created_at: '2026-11-20T12:00:00.000Z',
  delivered_at: '2026-11-20T12:00:01.000Z',
  next_attempt_at: null,
  last_error: null,
  ...overrides,
})

const endpoint = (overrides: Partial<WebhookEndpointView> = {}): WebhookEndpointView => ({
  id: 'ep_00000000000000000001',
  url: 'https://oms.example.com/hooks/rebound',
  events: ['return.created', 'return.updated'],
  secret_hint: 'whsec_…AbCd',
  created_at: '2026-11-20T12:00:00.000Z',
  failing_since: null,
  disabled_at: null,
  ...overrides,
})

test('E-mails lists what shoppers were told, says when no mail server is set, and why one waits', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/emails', () =>
      HttpResponse.json({
        smtp: false,
        emails: [
          email(),
          email({
            id: 'msg_00000000000000000000000000000002',
            kind: 'received',
            subject: null,
            state: 'pending',
            delivered_at: null,
            next_attempt_at: '2026-11-20T12:05:00.000Z',
            last_error: 'The mail server answered 451.',
          }),
        ],
      }),
    ),
  )
  renderConsole('/admin/emails')
  expect(await screen.findByRole('heading', { name: 'E-mails to shoppers', level: 1 })).toBeInTheDocument()
  expect(await screen.findByText(/No mail server is set \(SMTP_URL\)/)).toBeInTheDocument()
  const kept = screen.getByRole('link', { name: 'Ihre Rücksendung #1001-R1 ist angemeldet' }).closest('tr')!
  expect(within(kept).getByText('Kept (no mail server)')).toBeInTheDocument()
  expect(within(kept).getByRole('link', { name: '#1001-R1' })).toHaveAttribute('href', '/admin/returns/r-1')
  // Not written yet: named by its kind, with why it waits and when it is tried next.
  const waiting = screen.getByRole('link', { name: 'Items received' }).closest('tr')!
  expect(within(waiting).getByText('To be sent')).toBeInTheDocument()
  expect(within(waiting).getByText(/The mail server answered 451\. Next try/)).toBeInTheDocument()
  expect(document.title).toBe('E-mails · Returns back office')
})

test('an e-mail opens as the shopper sees it, in a sandboxed frame, with its facts and plain text', async () => {
  const detail: EmailDetail = {
    ...email(),
    from: 'Demo Store <returns@demo-store.example>',
    reply_to: 'help@demo-store.example',
    text: 'IHRE RÜCKSENDUNG IST BEI UNS',
    html_url: '/admin/api/emails/msg_00000000000000000000000000000001/html',
  }
  server.use(
    ...signedIn(),
    http.get('*/admin/api/emails/:id', () => HttpResponse.json(detail)),
  )
  renderConsole('/admin/emails/msg_00000000000000000000000000000001')
  const heading = await screen.findByRole('heading', { name: detail.subject!, level: 1 })
  await waitFor(() => expect(heading).toHaveFocus())
  expect(screen.getByText('Demo Store <returns@demo-store.example>')).toBeInTheDocument()
  expect(screen.getByText('help@demo-store.example')).toBeInTheDocument()
  expect(screen.getByText('German')).toBeInTheDocument()
  const frame = screen.getByTitle(`The e-mail “${detail.subject}”`)
  expect(frame).toHaveAttribute('src', detail.html_url)
  expect(frame).toHaveAttribute('sandbox', '')
  expect(screen.getByText('IHRE RÜCKSENDUNG IST BEI UNS')).toBeInTheDocument()
})

test('Webhooks adds an endpoint and shows its secret once; a refused address is said by the field', async () => {
  const endpoints: WebhookEndpointView[] = []
  const posted: unknown[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/webhooks', () => HttpResponse.json({ endpoints })),
    http.get('*/admin/api/webhooks/:id/deliveries', () => HttpResponse.json({ deliveries: [] })),
    http.post('*/admin/api/webhooks', async ({ request }) => {
      const body = (await request.json()) as { url: string; events: string[] }
      posted.push(body)
      if (body.url.includes('169.254'))
        return HttpResponse.json(
          { error: 'invalid_request', message: 'url: points to a private, loopback or link-local address' },
          { status: 400 },
        )
      const created: CreatedWebhook = {
        ...endpoint({ url: body.url, events: body.events as WebhookEndpointView['events'] }),
        secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0',
      }
      endpoints.push(endpoint({ url: body.url }))
      return HttpResponse.json(created, { status: 201 })
    }),
  )
  renderConsole('/admin/webhooks')
  const user = userEvent.setup()
  expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument()
  const url = screen.getByLabelText('Endpoint URL')
  await user.type(url, 'http://169.254.169.254/latest')
  await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
  const refusal = await screen.findByRole('alert')
  expect(refusal).toHaveTextContent('url: points to a private, loopback or link-local address')
  expect(url).toHaveAttribute('aria-describedby', refusal.id)

  await user.clear(url)
  await user.type(url, 'https://oms.example.com/hooks/rebound')
  await user.click(screen.getByRole('checkbox', { name: /return\.refunded/ }))
  await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
  const secret = await screen.findByText('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0')
  // The focus goes to the secret's notice, shown this once, not to the page.
  await waitFor(() => expect(secret.closest('[role="status"]')).toHaveFocus())
  expect(posted.at(-1)).toEqual({
    url: 'https://oms.example.com/hooks/rebound',
    events: ['return.created', 'return.updated', 'return.cancelled', 'return.closed'],
  })
  expect(await screen.findByRole('heading', { name: 'https://oms.example.com/hooks/rebound' })).toBeInTheDocument()
})

test('an endpoint shows that it fails or is disabled, its deliveries with each attempt, and redelivers one', async () => {
  const redelivered: string[] = []
  let enabledWith: unknown = null
  const log: DeliveryList = {
    deliveries: [
      {
        id: 'msg_00000000000000000000000000000009',
        event: 'return.created',
        return_id: 'r-1',
        state: 'pending',
        created_at: '2026-11-20T12:00:00.000Z',
        next_attempt_at: '2026-11-20T12:05:05.000Z',
        attempts: [
          {
            attempt: 1,
            at: '2026-11-20T12:00:00.000Z',
            duration_ms: 12,
            ok: false,
            status_code: 503,
            error: 'Answered 503.',
          },
          {
            attempt: 2,
            at: '2026-11-20T12:00:05.000Z',
            duration_ms: 9,
            ok: false,
            status_code: 503,
            error: 'Answered 503.',
          },
        ],
      },
    ],
  }
  server.use(
    ...signedIn(),
    http.get('*/admin/api/webhooks', () =>
      HttpResponse.json({
        endpoints: [endpoint({ disabled_at: '2026-11-25T08:00:00.000Z', failing_since: '2026-11-20T12:00:00.000Z' })],
      }),
    ),
    http.get('*/admin/api/webhooks/:id/deliveries', () => HttpResponse.json(log)),
    http.post('*/admin/api/deliveries/:id/redeliver', ({ params }) => {
      redelivered.push(String(params.id))
      return new HttpResponse(null, { status: 202 })
    }),
    http.put('*/admin/api/webhooks/:id/enabled', async ({ request }) => {
      enabledWith = await request.json()
      return HttpResponse.json({ endpoints: [endpoint()] })
    }),
  )
  renderConsole('/admin/webhooks')
  const user = userEvent.setup()
  const card = (await screen.findByRole('heading', { name: 'https://oms.example.com/hooks/rebound' })).closest(
    'article',
  )!
  expect(within(card).getByText(/^Disabled since .*: nothing is sent to it/)).toHaveAttribute('role', 'status')
  expect(within(card).getByText('whsec_…AbCd')).toBeInTheDocument()
  // Each Redeliver names its delivery.
  const redeliver = await within(card).findByRole('button', { name: 'Redeliver msg_00000000000000000000000000000009' })
  const row = redeliver.closest('tr')!
  expect(within(row).getAllByRole('listitem')).toHaveLength(2)
  expect(within(row).getByText(/^Retrying/)).toBeInTheDocument()
  await user.click(redeliver)
  await waitFor(() => expect(redelivered).toEqual(['msg_00000000000000000000000000000009']))
  // Said where it happened, without a reload.
  expect(await within(card).findByText('Delivery msg_00000000000000000000000000000009 is sent again.')).toHaveAttribute(
    'role',
    'status',
  )
  await user.click(within(card).getByRole('button', { name: 'Enable https://oms.example.com/hooks/rebound' }))
  await waitFor(() => expect(enabledWith).toEqual({ enabled: true }))
  expect(await screen.findByText('https://oms.example.com/hooks/rebound is enabled.')).toHaveAttribute('role', 'status')
})
