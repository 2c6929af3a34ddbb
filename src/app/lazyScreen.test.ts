import type { ComponentType } from 'react'
import { lazyScreen } from './lazyScreen'

// The once-only reload marks itself here before it reloads (jsdom cannot reload, so the tests
// below stay on the paths that do not).
const RELOADED_KEY = 'rebound:chunk-reload'
const chunkFailed = () => Promise.reject<{ default: ComponentType }>(new Error('Loading chunk 7 failed'))
const online = (value: boolean) => jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(value)

afterEach(() => jest.restoreAllMocks())

test('a chunk that fails while the browser is offline does not reload the page: the failure goes to the error boundary', async () => {
  online(false)
  // A reload would leave this pending for good, with the marker set.
  await expect(lazyScreen(chunkFailed)()).rejects.toThrow('Loading chunk 7 failed')
  expect(sessionStorage.getItem(RELOADED_KEY)).toBeNull()
})

test('online, a chunk that fails again after its one reload goes to the error boundary', async () => {
  online(true)
  sessionStorage.setItem(RELOADED_KEY, '1')
  await expect(lazyScreen(chunkFailed)()).rejects.toThrow('Loading chunk 7 failed')
})

test('a chunk that loads clears the marker, so a later deploy gets its own reload', async () => {
  sessionStorage.setItem(RELOADED_KEY, '1')
  const Screen = () => null
  await expect(lazyScreen(() => Promise.resolve({ default: Screen }))()).resolves.toEqual({ default: Screen })
  expect(sessionStorage.getItem(RELOADED_KEY)).toBeNull()
})
