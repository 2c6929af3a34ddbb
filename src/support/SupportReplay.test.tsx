import { cleanup, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnOrder } from '../../contract/api'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { buildConfig } from '../testing/builders'
import { anything } from '../testing/matchers'
import { buildFlow1001AtConfirm } from '../testing/order1001'
import { renderPortal } from '../testing/renderWithProviders'
import { keptSupportCodes } from '../testing/handlers'
import { server } from '../testing/server'
import { decodeSupportCode, encodeSupportCode } from './supportCode'

const english = { lang: null, testMode: false, configOverride: null }
const shopperFlow = () => buildFlow1001AtConfirm({ launch: english })

/** The API as the confirm step needs it; every submit is counted (a replay must make none). */
function api(quote: ReturnFlowState['quote']) {
  const seen = { submits: 0 }
  server.use(
    http.get('*/portal-registration/config/:id', () => HttpResponse.json(buildConfig({ shop: 'demo' }))),
    http.post('*/portal-registration/returns/quote', () => HttpResponse.json(quote)),
    http.post('*/portal-registration/returns', () => {
      seen.submits++
      return HttpResponse.json({ error: 'read_only_session' }, { status: 403 })
    }),
  )
  return seen
}

/**
 * The shopper's side: the need-help area of the step, and the code it makes, as the API keeps it
 * behind the reference the shopper reads out (the back office opens it by that reference).
 */
async function shopperCode(flow: ReturnFlowState, route = '/confirm') {
  const { user } = renderPortal({ route, preloadedState: { returnFlow: flow } })
  // In the shopper's language: English or German here.
  await user.click(await screen.findByText(/^(Help with your return|Hilfe zu Ihrer Rücksendung)$/))
  await user.click(screen.getByRole('button', { name: /^(Show my support reference|Meine Support-Referenz zeigen)$/ }))
  const field = await screen.findByRole('textbox', { name: /^(Your support reference|Ihre Support-Referenz)$/ })
  const code = keptSupportCodes.get((field as HTMLInputElement).value)!
  cleanup()
  sessionStorage.clear()
  return code
}

test('the need-help area keeps a support code of the step with the API and shows its short reference, copyable', async () => {
  api(shopperFlow().quote)
  const { user } = renderPortal({ route: '/confirm', preloadedState: { returnFlow: shopperFlow() } })
  await user.click(await screen.findByText('Help with your return'))
  expect(screen.getByText(/give them your support reference/)).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Show my support reference' }))
  const field = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Your support reference' })
  expect(field.value).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/)
  expect(field).toHaveAccessibleDescription('It works for 7 days. You can read it out on the phone.')
  // What the API was given to keep: a support code, without the order's token or the e-mail.
  const code = keptSupportCodes.get(field.value)!
  expect(code).toMatch(/^RB1\.[A-Za-z0-9_-]+$/)
  const decoded = await decodeSupportCode(code, 'demo')
  expect(decoded.ok && decoded.flow.order?.token).toBe(`read-only.${shopperFlow().order!.token}`)
  expect(JSON.stringify(decoded)).not.toContain('jane@example.com')
  // The button pressed is gone: the focus is on the reference, selected for copying, not on <body>.
  await waitFor(() => expect(field).toHaveFocus())
  expect([field.selectionStart, field.selectionEnd]).toEqual([0, field.value.length])
  const writeText = jest.spyOn(navigator.clipboard, 'writeText')
  await user.click(screen.getByRole('button', { name: 'Copy reference' }))
  expect(await screen.findByText('Reference copied.')).toBeInTheDocument()
  expect(writeText).toHaveBeenCalledWith(field.value)
})

test('a reference the API cannot keep says so, and the button stays to try again', async () => {
  api(shopperFlow().quote)
  server.use(
    http.post('*/portal-registration/support-references', () =>
      HttpResponse.json({ error: 'internal' }, { status: 500 }),
    ),
  )
  const { user } = renderPortal({ route: '/confirm', preloadedState: { returnFlow: shopperFlow() } })
  await user.click(await screen.findByText('Help with your return'))
  await user.click(screen.getByRole('button', { name: 'Show my support reference' }))
  expect(await screen.findByRole('alert')).toHaveTextContent('We could not make a support reference. Please try again.')
  expect(screen.getByRole('button', { name: 'Show my support reference' })).toBeInTheDocument()
})

test('a support code opens on /support at the same screen with the same choices, read-only, in the shopper’s language', async () => {
  const seen = api(shopperFlow().quote)
  const shopper = buildFlow1001AtConfirm()
  const code = await shopperCode(shopper)

  const { user, store, router } = renderPortal({ route: '/support' })
  await user.click(await screen.findByRole('textbox', { name: 'Support code' }))
  await user.paste(code)
  await user.click(screen.getByRole('button', { name: 'Open the session' }))

  await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  const replay = store.getState().returnFlow
  const { _persist, ...state } = replay
  void _persist
  expect(state).toEqual({
    ...shopper,
    order: { ...shopper.order, token: `read-only.${shopper.order!.token}` },
    items: [
      shopper.items[0],
      { ...shopper.items[1], reason: { id: 'damaged', comment: 'Handle chipped, photos sent from j***@example.com' } },
    ],
    quote: anything<ReturnOrder>(),
    idempotencyKey: null,
    readOnly: true,
  })
  // The shopper's language, the read-only banner, and a submit that cannot be pressed.
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Rücksendung prüfen und bestätigen' }),
  ).toBeInTheDocument()
  expect(document.documentElement).toHaveAttribute('lang', 'de')
  expect(screen.getByRole('note', { name: '' })).toHaveTextContent(/Support-Ansicht, nur lesen/)
  const submit = await screen.findByRole('button', { name: 'Rücksendung absenden' })
  expect(submit).toBeDisabled()
  await user.click(submit)
  expect(seen.submits).toBe(0)
  // No code of a replay: the need-help area is the shopper's.
  expect(screen.queryByText('Hilfe zu Ihrer Rücksendung')).not.toBeInTheDocument()
})

test('a link with the code in its fragment opens the session at once', async () => {
  api(shopperFlow().quote)
  const code = await shopperCode(shopperFlow())
  const { router, store } = renderPortal({ route: `/support#${code}` })
  await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  expect(store.getState().returnFlow.readOnly).toBe(true)
  expect(await screen.findByRole('button', { name: 'Submit return' })).toBeDisabled()
})

test('the start screen ends a replay: the next session is a shopper’s again', async () => {
  api(shopperFlow().quote)
  const code = await shopperCode(shopperFlow())
  const { store, router } = renderPortal({ route: `/support#${code}` })
  await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  expect(store.getState().returnFlow.readOnly).toBe(true)
  cleanup()
  const next = renderPortal({ route: '/', preloadedState: { returnFlow: store.getState().returnFlow } })
  await screen.findByRole('textbox', { name: 'Order number' })
  await waitFor(() => expect(next.store.getState().returnFlow.readOnly).toBe(false))
  expect(next.store.getState().returnFlow.order).toBeNull()
})

test.each([
  ['nothing', '', 'Paste a support code to continue.'],
  ['garbage', 'hello support', 'This is not a support code of this portal. Check that it was copied whole.'],
  [
    'a code of a newer portal',
    'RB2.AAAA',
    'This support code comes from another version of the portal and cannot be opened here.',
  ],
])('%s is refused with a clear error, the field marked and focused', async (_name, code, message) => {
  api(null)
  const { user, router, store } = renderPortal({ route: '/support' })
  const field = await screen.findByRole('textbox', { name: 'Support code' })
  if (code) await user.type(field, code)
  await user.click(screen.getByRole('button', { name: 'Open the session' }))
  expect(await screen.findByRole('alert')).toHaveTextContent(message)
  expect(field).toHaveAttribute('aria-invalid', 'true')
  expect(field).toHaveFocus()
  expect(router.state.location.pathname).toBe('/support')
  expect(store.getState().returnFlow.order).toBeNull()
})

test('a code from another shop’s portal is refused', async () => {
  api(null)
  const flow = shopperFlow()
  const code = await encodeSupportCode({ shop: 'acme', path: '/confirm', flow, token: 'read-only' })
  const { user } = renderPortal({ route: '/support' })
  await user.click(await screen.findByRole('textbox', { name: 'Support code' }))
  await user.paste(code)
  await user.click(screen.getByRole('button', { name: 'Open the session' }))
  expect(await screen.findByRole('alert')).toHaveTextContent('This support code belongs to another shop’s portal.')
  expect(within(screen.getByRole('main')).queryByRole('button', { name: 'Submit return' })).not.toBeInTheDocument()
})
