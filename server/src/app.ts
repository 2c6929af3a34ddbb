import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import { constants } from 'node:zlib'
import { DEFAULT_LIMITS, type Limits, type PortalContext } from './context'
import type { Database } from './storage/database'
import { ShopRepository } from './storage/shops'
import { catalogueRoutes } from './routes/catalogue'
import { configRoutes } from './routes/config'
import { notFound, registerErrorHandler } from './routes/errors'
import { adminRoutes } from './routes/admin'
import { instructionRoutes } from './routes/instructions'
import { registerJsonBodies } from './routes/jsonBody'
import { photoRoutes } from './routes/photos'
import { returnRoutes } from './routes/returns'
import { statusRoutes } from './routes/status'
import { supportRoutes } from './routes/support'
import { demoAssetRoutes, portalRoutes } from './routes/static'
import { verifyRoutes } from './routes/verify'

export interface AppOptions {
  db: Database
  /** signs verify tokens and label links */
  secret: Buffer
  /** serve the built portal from this directory, with a fallback to index.html */
  staticDir?: string
  /** enables POST /admin/shops (import over HTTP) for this bearer token */
  adminToken?: string
  /** the proxies in front of the API (trustProxyFrom): their addresses and ranges; none by default */
  trustProxy?: false | string[]
  limits?: Partial<Limits>
  now?: () => Date
  logger?: FastifyServerOptions['logger']
}

/** Request line and headers together: a preview link's 16 KB configuration with room to spare. */
export const MAX_HEADER_BYTES = 64 * 1024

/** The Portal API as a Fastify instance, not listening: server.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 64 * 1024,
    // A preview link carries its configuration in the URL (up to 16 KB of base64, which the portal
    // reads): Node's default of 16 KB for all headers would answer such a link with a 431.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    trustProxy: options.trustProxy ?? false,
    // Strict bodies: no type coercion, every problem reported, unknown fields refused.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
  })
  const context: PortalContext = {
    db: options.db,
    shops: new ShopRepository(options.db),
    secret: options.secret,
    now: options.now ?? (() => new Date()),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  }

  registerErrorHandler(app)
  registerJsonBodies(app)
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'no-referrer')
  })
  // Phones on weak connections: the portal's JavaScript and the API's JSON go compressed.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } } })
  await app.register(rateLimit, { global: false })

  app.get('/health', async (_request, reply) => {
    await options.db.query('SELECT 1')
    return reply.header('cache-control', 'no-store').send({ status: 'ok', engine: options.db.engine })
  })
  await app.register(async (api) => {
    await configRoutes(api, context)
    await verifyRoutes(api, context)
    await returnRoutes(api, context)
    await supportRoutes(api, context)
    await catalogueRoutes(api, context)
    await instructionRoutes(api, context)
    // A plugin of its own: its image parser must not reach the JSON routes.
    await api.register(async (photos) => photoRoutes(photos, context))
    await statusRoutes(api, context)
    if (options.adminToken) await adminRoutes(api, context, options.adminToken)
  })
  await demoAssetRoutes(app)
  if (options.staticDir) await portalRoutes(app, options.staticDir, context)
  else app.setNotFoundHandler((request, reply) => reply.code(404).send(notFound(request.method, request.url)))
  return app
}
