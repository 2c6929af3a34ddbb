import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../../../contract/api'
import { DatabaseUnavailableError } from '../storage/unavailable'
import { invalidRequest, Refusal, TOO_MANY } from '../services/refusal'

/**
 * The answers of every route to a request it refuses or cannot serve: `{ error: code, message? }`
 * (the contract's ApiError), for each 4xx and 5xx status.
 */
export const errorResponses = { '4xx': ApiError, '5xx': ApiError } as const

/** `/items/0/quantity` → `items[0].quantity`, the way a developer reads a body's field. */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '')
}

interface ValidationIssue {
  keyword?: string
  instancePath: string
  schemaPath?: string
  message?: string
  params?: { missingProperty?: string; additionalProperty?: string; allowedValue?: unknown; type?: string }
}

/**
 * One issue for each `anyOf` (a nullable field, one of a list of words) instead of one for each of
 * its branches and one more for the anyOf: `must be string or null`, `must be one of "a", "b" or null`.
 */
function mergeAnyOf(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const anyOfs = issues
    .filter((issue) => issue.keyword === 'anyOf')
    .sort((a, b) => (a.schemaPath ?? '').length - (b.schemaPath ?? '').length)
  // The outermost anyOf a failed branch is in: a nullable list of words is an anyOf in an anyOf.
  const branchOf = (issue: ValidationIssue) =>
    anyOfs.find(
      (anyOf) =>
        anyOf.instancePath === issue.instancePath && issue.schemaPath?.startsWith(`${anyOf.schemaPath}/`) === true,
    )
  return issues.flatMap((issue) => {
    if (branchOf(issue)) return []
    if (issue.keyword !== 'anyOf') return [issue]
    const branches = issues.filter((other) => branchOf(other) === issue)
    const allowed = branches.flatMap((branch) =>
      branch.keyword === 'const' ? [JSON.stringify(branch.params?.allowedValue)] : [],
    )
    // A literal is a const and a type: a value of another type fails both, and the const says it.
    const parent = (branch: ValidationIssue) => branch.schemaPath?.replace(/\/[^/]*$/, '')
    const literals = new Set(branches.filter((branch) => branch.keyword === 'const').map(parent))
    const types = [
      ...new Set(
        branches.flatMap((branch) =>
          branch.keyword === 'type' && !literals.has(parent(branch)) ? [String(branch.params?.type)] : [],
        ),
      ),
    ]
    const kinds = [...(allowed.length > 1 ? [`one of ${allowed.join(', ')}`] : allowed), ...types]
    const words = [
      ...branches.flatMap((branch) =>
        branch.keyword === 'const' || branch.keyword === 'type' || branch.keyword === 'anyOf' || !branch.message
          ? []
          : [branch.message],
      ),
      ...(kinds.length > 0 ? [`must be ${kinds.join(' or ')}`] : []),
    ]
    return [{ ...issue, message: words.length > 0 ? words.join(' or ') : (issue.message ?? 'is not valid') }]
  })
}

function describe(issue: ValidationIssue): string {
  const base = fieldPath(issue.instancePath)
  const name = issue.params?.missingProperty ?? issue.params?.additionalProperty
  const field = name ? (base ? `${base}.${name}` : name) : base || 'body'
  if (issue.params?.missingProperty) return `${field}: is required`
  if (issue.params?.additionalProperty) return `${field}: is not a known field`
  return `${field}: ${issue.message ?? 'is not valid'}`
}

/** Fastify's own refusals of an address before any route: not valid URL encoding, a parameter too long. */
const BAD_ADDRESS = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH'])

/** The refusal of an error that is not one already: Fastify's, a plugin's, or a failure of ours. */
function refusalOf(error: FastifyError & { validation?: ValidationIssue[] }, request: FastifyRequest): Refusal {
  if (error instanceof Refusal) return error
  if (BAD_ADDRESS.has(error.code)) return invalidRequest('The address is not valid.')
  if (error.validation) return invalidRequest(mergeAnyOf(error.validation).slice(0, 10).map(describe).join('; '))
  if (error instanceof DatabaseUnavailableError) {
    request.log.error({ err: error.cause }, 'database unavailable')
    return new Refusal(
      503,
      { error: 'unavailable', message: 'The service is briefly unavailable. Please try again.' },
      { 'retry-after': '5' },
    )
  }
  const status = error.statusCode ?? 500
  // The rate limit's own retry-after is already on the reply.
  if (status === 429) return new Refusal(429, TOO_MANY)
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new Refusal(415, { error: 'unsupported_media_type', message: 'content-type: must be application/json' })
  if (status >= 400 && status < 500) return new Refusal(status, { error: 'invalid_request', message: error.message })
  request.log.error({ err: error }, 'request failed')
  return new Refusal(500, { error: 'internal', message: 'Something went wrong on our side.' })
}

/**
 * The only place a refusal becomes an answer: a Refusal thrown anywhere as it says, bad input a
 * 400 naming the field, a lost database a quick 503, anything else a 500 that is logged with the
 * request and never leaks its message. The error handler's, and that of Fastify's own refusals before
 * any route (the `frameworkErrors` option, app.ts).
 */
export function answerError(
  error: FastifyError & { validation?: ValidationIssue[] },
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const refusal = refusalOf(error, request)
  return reply.code(refusal.statusCode).headers(refusal.headers).send(refusal.body)
}

/** One error handler for every route (answerError). */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(answerError)
}

/** The 404 of the API for a path it does not know. */
export const noRoute = (method: string, url: string) =>
  new Refusal(404, { error: 'not_found', message: `No route for ${method} ${url.split('?')[0]}` })
