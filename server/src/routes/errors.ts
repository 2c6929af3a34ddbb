import type { FastifyError, FastifyInstance } from 'fastify'
import { DatabaseUnavailableError } from '../storage/database'

/** The JSON schema of every error answer: `{ error: code, message?: words naming the field }`. */
export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, message: { type: 'string' } },
} as const

export const TOO_MANY = {
  error: 'too_many_attempts',
  message: 'Too many attempts. Please wait a minute and try again.',
}

/** `/items/0/quantity` → `items[0].quantity`, the way a developer reads a body's field. */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '')
}

interface ValidationIssue {
  instancePath: string
  message?: string
  params?: { missingProperty?: string; additionalProperty?: string }
}

function describe(issue: ValidationIssue): string {
  const base = fieldPath(issue.instancePath)
  const name = issue.params?.missingProperty ?? issue.params?.additionalProperty
  const field = name ? (base ? `${base}.${name}` : name) : base || 'body'
  if (issue.params?.missingProperty) return `${field}: is required`
  if (issue.params?.additionalProperty) return `${field}: is not a known field`
  return `${field}: ${issue.message ?? 'is not valid'}`
}

/**
 * One error handler: bad input is a 400 naming the field, a lost database a quick 503, anything
 * else a 500 that is logged with the request and never leaks its message.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { validation?: ValidationIssue[] }, request, reply) => {
    if (error.validation) {
      return reply
        .code(400)
        .send({ error: 'invalid_request', message: error.validation.slice(0, 10).map(describe).join('; ') })
    }
    if (error instanceof DatabaseUnavailableError) {
      request.log.error({ err: error.cause }, 'database unavailable')
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: 'unavailable', message: 'The service is briefly unavailable. Please try again.' })
    }
    const status = error.statusCode ?? 500
    if (status === 429) return reply.code(429).send(TOO_MANY)
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .code(415)
        .send({ error: 'unsupported_media_type', message: 'content-type: must be application/json' })
    }
    if (status >= 400 && status < 500)
      return reply.code(status).send({ error: 'invalid_request', message: error.message })
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send({ error: 'internal', message: 'Something went wrong on our side.' })
  })
}

/** The 404 of the API for a path it does not know. */
export const notFound = (method: string, url: string) => ({
  error: 'not_found',
  message: `No route for ${method} ${url.split('?')[0]}`,
})
