import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import type { PortalConfig, VerifyErrorCode } from '../../../contract/api'

const MESSAGE_OF: Record<VerifyErrorCode, keyof PortalConfig> = {
  invalid_order: 'invalid_order_message',
  order_not_fulfilled: 'order_not_fulfilled_message',
  order_too_old: 'order_too_old_message',
  order_already_has_return: 'order_already_has_return_message',
}

const isFetchError = (error: unknown): error is FetchBaseQueryError =>
  typeof error === 'object' && error !== null && 'status' in error

/**
 * The message of the error catalogue (docs/rules.md §12) for a failed verify. `somethingWentWrong`
 * is the catalogue's 'Something went wrong' in the shopper's language, shown for every failure that
 * is not a 400 and for a 400 when the configuration has no message for it.
 */
export function verifyErrorMessage(error: unknown, config: PortalConfig, somethingWentWrong: string): string {
  if (!isFetchError(error) || error.status !== 400) return somethingWentWrong
  const body = error.data
  const code = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined
  const key =
    typeof code === 'string' && Object.hasOwn(MESSAGE_OF, code) ? MESSAGE_OF[code as VerifyErrorCode] : undefined
  const message = key ? config[key] : undefined
  if (typeof message === 'string' && message !== '') return message
  return config.default_error_message || somethingWentWrong
}
