import { I18nProvider } from '@lingui/react'
import { cleanup, render, screen } from '@testing-library/react'
import fc from 'fast-check'
import { http, HttpResponse } from 'msw'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router-dom'
import { persistStore } from 'redux-persist'
import { buildCatalogue, buildInstructions, buildQuote } from '../testing/builders'
import { completeFlow, persistedText, spoiledPersistedText } from '../testing/persisted'
import { server } from '../testing/server'
import { settled } from '../testing/settled'
import { TEST_MS } from '../testing/timing'
import { i18n } from '../i18n/i18n'
import { PortalRoutes } from './routes'
import { makeStore, persistedFlowKey } from './store'

/**
 * A reload with whatever sessionStorage holds: the store restores a valid flow, and the portal
 * shows a screen, the step asked for or the start screen, never a blank page or the error card.
 */

const KEY = persistedFlowKey('demo')
const BROKEN_SCREEN = 'This page could not be shown'
const ROUTES = [
  '/',
  '/products',
  '/return-item/tee/return-reason',
  '/return-item/mug/exchange',
  '/return-item/tee/exchange',
  '/upsell-offer',
  '/upsell-explore',
  '/refund-method',
  '/confirm',
  '/return-instruction',
]

// A hundred reloads of a screen, and its requests: a multiple of one test's limit.
jest.setTimeout(10 * TEST_MS)

beforeEach(() => {
  server.use(
    http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('14.00'))),
    http.get('*/portal-registration/catalogue', () => HttpResponse.json(buildCatalogue())),
    http.get('*/portal-registration/returns/:id/instructions', () => HttpResponse.json(buildInstructions())),
  )
  // What a screen that threw would log; the assertion below is on what the shopper sees.
  jest.spyOn(console, 'error').mockImplementation(() => {})
  jest.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => jest.restoreAllMocks())

/** Reloads the portal at `route` over `stored`, as boot does: restore first, then render. */
async function reloadWith(stored: string, route: string) {
  sessionStorage.setItem(KEY, stored)
  const store = makeStore()
  await new Promise<void>((resolve) => persistStore(store, null, resolve))
  // As restored, before the start screen (if that is the route) begins a new session.
  const { _persist: _meta, ...restored } = store.getState().returnFlow
  render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[route]}>
          <PortalRoutes />
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  )
  const heading = await screen.findByRole('heading', { level: 1 })
  // The screen's own requests (quote, catalogue, instructions) answered and rendered.
  await settled(store)
  return { restored, heading }
}

test('the complete flow restores unchanged and every step renders its screen (the ground for the property)', async () => {
  for (const route of ROUTES) {
    const { restored, heading } = await reloadWith(persistedText(completeFlow()), route)
    expect(restored).toEqual(completeFlow())
    expect(heading).not.toHaveTextContent(BROKEN_SCREEN)
    expect(screen.queryByText(BROKEN_SCREEN)).not.toBeInTheDocument()
    cleanup()
    sessionStorage.clear()
  }
})

test('any spoiled session, reloaded on any step: a screen with its heading, never a blank page or the error card', async () => {
  await fc.assert(
    fc.asyncProperty(spoiledPersistedText, fc.constantFrom(...ROUTES), async (stored, route) => {
      try {
        const { heading } = await reloadWith(stored, route)
        expect(heading.textContent?.trim()).not.toBe('')
        expect({ route, stored, broken: screen.queryByText(BROKEN_SCREEN) !== null }).toEqual({
          route,
          stored,
          broken: false,
        })
      } finally {
        cleanup()
        sessionStorage.clear()
      }
    }),
    { numRuns: 100 },
  )
})
