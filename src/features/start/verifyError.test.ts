import { buildConfig } from '../../testing/builders'
import { verifyErrorMessage } from './verifyError'

/** The catalogue's words (docs/rules.md §12), as the start screen passes them in English. */
const SOMETHING_WENT_WRONG = 'Something went wrong'

const config = buildConfig()

test.each([
  ['invalid_order', config.invalid_order_message],
  ['order_not_fulfilled', config.order_not_fulfilled_message],
  ['order_too_old', config.order_too_old_message],
  ['order_already_has_return', config.order_already_has_return_message],
  // The shop's commerce engine slow or down (docs/decisions/0076-verify-reads-the-engine.md).
  ['store_unavailable', config.default_error_message],
  ['some_new_code', config.default_error_message],
  ['toString', config.default_error_message],
  ['__proto__', config.default_error_message],
])('a 400 with error %j shows the configured message', (code, message) => {
  expect(verifyErrorMessage({ status: 400, data: { error: code } }, config, SOMETHING_WENT_WRONG)).toBe(message)
})

test.each([
  ['a 400 without a body', { status: 400, data: null }, config.default_error_message],
  ['a 500', { status: 500, data: { error: 'invalid_order' } }, SOMETHING_WENT_WRONG],
  ['a 429', { status: 429, data: { error: 'rate_limited' } }, SOMETHING_WENT_WRONG],
  ['a network failure', { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, SOMETHING_WENT_WRONG],
  ['a timeout', { status: 'TIMEOUT_ERROR', error: 'AbortError' }, SOMETHING_WENT_WRONG],
  [
    'a body that is not JSON',
    { status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError' },
    SOMETHING_WENT_WRONG,
  ],
  ['an unexpected throw', new Error('boom'), SOMETHING_WENT_WRONG],
])('%s shows %j', (_name, error, message) => {
  expect(verifyErrorMessage(error, config, SOMETHING_WENT_WRONG)).toBe(message)
})

test('a known code without its configured message falls back to default_error_message, then to the portal words', () => {
  expect(
    verifyErrorMessage(
      { status: 400, data: { error: 'order_too_old' } },
      buildConfig({ order_too_old_message: undefined }),
      SOMETHING_WENT_WRONG,
    ),
  ).toBe(config.default_error_message)
  expect(
    verifyErrorMessage(
      { status: 400, data: { error: 'x' } },
      buildConfig({ default_error_message: undefined }),
      SOMETHING_WENT_WRONG,
    ),
  ).toBe(SOMETHING_WENT_WRONG)
})
