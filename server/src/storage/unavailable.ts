/**
 * The one thing of storage the routes may know (eslint.config.mjs, docs/architecture.md): that the
 * database cannot be reached, which the error handler (routes/errors.ts) answers with a 503.
 */

/** Raised when the database cannot be reached; the API answers 503 for it. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause })
    this.name = 'DatabaseUnavailableError'
  }
}
