import '@testing-library/jest-dom'
import { server } from './src/testing/server'

// Every request a test makes must be one it expects: an unhandled call fails the test.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  sessionStorage.clear()
  document.title = ''
})
afterAll(() => server.close())
