import { screen, waitFor } from '@testing-library/react'
import { buildFlow, buildOrder } from '../testing/builders'
import { renderPortal } from '../testing/renderWithProviders'
import { FLOW_ROUTES } from '../features/returnFlow/navigation'
import { screenLoaders } from './screens'

/** Spies on every later step's preload (calling through), by screen name. */
function watchPreloads() {
  const spies = FLOW_ROUTES.map((name) => [name, jest.spyOn(screenLoaders[name], 'preload')] as const)
  return () => spies.filter(([, spy]) => spy.mock.calls.length > 0).map(([name]) => name)
}

afterEach(() => jest.restoreAllMocks())

test('once a step of the flow shows, every later step is loaded in the background, one at a time, so a dropped connection cannot strand the shopper', async () => {
  const preloaded = watchPreloads()
  renderPortal({ route: '/products', preloadedState: { returnFlow: buildFlow({ order: buildOrder() }) } })
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })).toBeInTheDocument()
  // Not all in the tasks after the first paint: one chunk, then the next once that one is in.
  expect(preloaded().length).toBeLessThan(Object.keys(screenLoaders).length)
  await waitFor(() => expect(preloaded()).toEqual(Object.keys(screenLoaders)), { timeout: 5_000 })
})

test('the start screen loads no later step before an order is verified', async () => {
  const preloaded = watchPreloads()
  renderPortal({ route: '/' })
  expect(await screen.findByRole('textbox', { name: 'Order number' })).toBeInTheDocument()
  expect(preloaded()).toEqual([])
})
