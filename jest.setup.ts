import '@testing-library/jest-dom'
import { configure } from '@testing-library/react'
import { CompressionStream, DecompressionStream } from 'node:stream/web'
import { messages as englishFlow } from './src/i18n/catalogs/flow/en'
import { i18n } from './src/i18n/i18n'
import { server } from './src/testing/server'
import { TEST_MS, WAIT_MS } from './src/testing/timing'

// Waits on the page, and tests, are limited by what a busy machine needs, not an idle one's pace
// (src/testing/timing.ts; TEST_WAIT_MS and TEST_TIMEOUT_MS raise them further).
configure({ asyncUtilTimeout: WAIT_MS })
jest.setTimeout(TEST_MS)

// jsdom has no compression streams; Node's are the real WHATWG implementation (zlib underneath),
// so the support code is deflated and inflated in tests exactly as a browser does it.
if (!('CompressionStream' in globalThis)) Object.assign(globalThis, { CompressionStream, DecompressionStream })

// Every request a test makes must be one it expects: an unhandled call fails the test.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
// Each test starts with the portal's words in English, whatever language the last one showed; the
// later steps' English words are there for components rendered outside their screen's loader.
i18n.load('en', englishFlow)
beforeEach(() => i18n.activate('en'))
afterEach(() => {
  server.resetHandlers()
  sessionStorage.clear()
  document.title = ''
})
afterAll(() => server.close())
