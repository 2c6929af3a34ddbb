import type { ApiError } from '../../../contract/api'

/** The body a refusal answers: contract/api.ts ApiError, and whatever its route's schema adds (a 422's problems). */
export type RefusalBody = ApiError & Record<string, unknown>

/**
 * A request the API refuses: thrown by a route, a hook or a service, and answered by the one error
 * handler (routes/errors.ts) with its status, its body and its headers (a `retry-after`).
 *
 * Not @fastify/sensible's httpErrors: the API's answer is a code of its own for each refusal
 * (`{ error: 'not_approved', message }`, five different 409s), sometimes with no message at all
 * (verify's, docs/rules.md §12) or with more fields (a refund to confirm, a return's problems),
 * none of which a status and a message say.
 */
export class Refusal extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: RefusalBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(body.message ?? body.error)
    this.name = 'Refusal'
  }
}

/** 400 `invalid_request`: what is wrong with the request, naming the field. */
export const invalidRequest = (message: string) => new Refusal(400, { error: 'invalid_request', message })

/** 404 `not_found`: the thing asked for, or another shop's or order's, which looks the same. */
export const notFound = (message: string) => new Refusal(404, { error: 'not_found', message })

/** 401 `session_expired`: the shopper's order is no longer there for the token (the portal starts again). */
export const orderGone = (headers?: Record<string, string>) =>
  new Refusal(401, { error: 'session_expired', message: 'This order is no longer available.' }, headers)

/** 429 `too_many_attempts`, the answer of every rate limit. */
export const TOO_MANY = {
  error: 'too_many_attempts',
  message: 'Too many attempts. Please wait a minute and try again.',
}
