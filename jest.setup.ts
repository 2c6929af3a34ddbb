import '@testing-library/jest-dom'
import { CompressionStream, DecompressionStream } from 'node:stream/web'
import { server } from './src/testing/server'

// jsdom has no compression streams; Node's are the real WHATWG implementation (zlib underneath),
// so the support code is deflated and inflated in tests exactly as a browser does it.
if (!('CompressionStream' in globalThis)) Object.assign(globalThis, { CompressionStream, DecompressionStream })

// Every request a test makes must be one it expects: an unhandled call fails the test.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  sessionStorage.clear()
  document.title = ''
})
afterAll(() => server.close())
