import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import type { PortalConfig, VerifyErrorCode } from '../../../contract/api'

/** The codes of verify's 400s, each with its message in the configuration (`<code>_message`). */
const CODES = /^(invalid_order|order_not_fulfilled|order_too_old|order_already_has_return)$/ satisfies {
  test: (code: VerifyErrorCode) => boolean
}

/**
 * The message of the error catalogue (docs/rules.md §12) for a failed verify. `somethingWentWrong`
 * is the catalogue's 'Something went wrong' in the shopper's language, shown for every failure that
 * is not a 400 and for a 400 when the configuration has no message for it.
 */
export function verifyErrorMessage(error: unknown, config: PortalConfig, somethingWentWrong: string): string {
  // Whatever was thrown: only a 400 of the API (FetchBaseQueryError) has a code to read.
  const failure = error as Partial<FetchBaseQueryError> | null | undefined
  if (failure?.status !== 400) return somethingWentWrong
  const code = (failure.data as { error?: unknown } | null | undefined)?.error
  const message = typeof code === 'string' && CODES.test(code) ? config[`${code as VerifyErrorCode}_message`] : null
  return message || config.default_error_message || somethingWentWrong
}
