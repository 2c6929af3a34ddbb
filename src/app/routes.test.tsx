import { screen, waitFor } from '@testing-library/react'
import { buildFlow, buildOrder } from '../testing/builders'
import { renderPortal } from '../testing/renderWithProviders'
import { FLOW_ROUTES } from '../features/returnFlow/navigation'
import { screenLoaders } from './screens'

/**
 * Spies on every later step's preload (calling through), by screen name; `events` says when each
 * was asked for and when its chunk was in.
 */
function watchPreloads() {
  const events: string[] = []
  const spies = FLOW_ROUTES.map((name) => {
    const preload = screenLoaders[name].preload
    const spy = jest.spyOn(screenLoaders[name], 'preload').mockImplementation(() => {
      events.push(`asked ${name}`)
      return preload().then(() => void events.push(`in ${name}`))
    })
    return [name, spy] as const
  })
  const preloaded = () => spies.filter(([, spy]) => spy.mock.calls.length > 0).map(([name]) => name)
  return { preloaded, events }
}

afterEach(() => jest.restoreAllMocks())

test('once a step of the flow shows, every later step is loaded in the background, one at a time, so a dropped connection cannot strand the shopper', async () => {
  const { preloaded, events } = watchPreloads()
  renderPortal({ route: '/products', preloadedState: { returnFlow: buildFlow({ order: buildOrder() }) } })
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })).toBeInTheDocument()
  await waitFor(() => expect(preloaded()).toEqual(Object.keys(screenLoaders)))
  // Not all at once after the first paint: one chunk, then the next once that one is in (the order
  // of events, not how many are in when the heading shows, which is how busy the machine is).
  await waitFor(() => expect(events).toHaveLength(2 * FLOW_ROUTES.length))
  expect(events).toEqual(FLOW_ROUTES.flatMap((name) => [`asked ${name}`, `in ${name}`]))
})

test('the start screen loads no later step before an order is verified', async () => {
  const { preloaded } = watchPreloads()
  renderPortal({ route: '/' })
  expect(await screen.findByRole('textbox', { name: 'Order number' })).toBeInTheDocument()
  expect(preloaded()).toEqual([])
})
