import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { constants } from 'node:zlib'
import type { EngineDirectory } from './commerce/engine'
import { storedEngines } from './services/engines'
import { DEFAULT_LIMITS, type Limits, type PortalContext } from './context'
import type { Database } from './storage/database'
import { databaseRateLimitStore } from './storage/rateLimits'
import { startPhotoStore } from './storage/photoStore'
import type { Settings } from './settings'
import { ShopRepository } from './storage/shops'
import { catalogueRoutes } from './routes/catalogue'
import { configRoutes } from './routes/config'
import { answerError, noRoute, registerErrorHandler } from './routes/errors'
import { replies, type Api } from './routes/typed'
import { adminRoutes } from './routes/admin'
import { shopperToken } from './routes/auth'
import { instructionRoutes, labelRoutes } from './routes/instructions'
import { servedHosts } from './routes/hosts'
import { registerJsonBodies, registerStorableParameters } from './routes/jsonBody'
import { photoRoutes } from './routes/photos'
import { returnRoutes } from './routes/returns'
import { staffRoutes } from './routes/staff'
import { statusRoutes } from './routes/status'
import { supportRoutes } from './routes/support'
import { demoAssetRoutes, portalRoutes } from './routes/static'
import { orderRoutes, verifyRoutes } from './routes/verify'
import { startDelivery, type Delivery, type DeliveryOptions } from './delivery/worker'
import { photoQueue } from './domain/cleanPhoto'
import { openApi } from './openapi'
import { ORDERS_API_PREFIX } from '../../contract/ordersApi'
import { ordersApiRoutes } from './routes/ordersApi'

export interface AppOptions {
  db: Database
  /** signs verify tokens and label links */
  secret: Buffer
  /** the embedded database's directory (PGlite), where photos are kept as files; none with PostgreSQL */
  dataDir?: string
  /** serve the built portal from this directory, with a fallback to index.html */
  staticDir?: string
  /** enables POST /admin/shops (import over HTTP) for this bearer token */
  adminToken?: string
  /** the proxies in front of the API (trustProxyFrom): their addresses and ranges; none by default */
  trustProxy?: false | string[]
  limits?: Partial<Limits>
  now?: () => Date
  /** deliver the outbox's e-mails and webhooks from this process (server.ts does; tests may) */
  delivery?: DeliveryOptions
  /** webhooks may be saved for private addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS); with delivery, its own */
  allowPrivateNetworks?: boolean
  /** PORTAL_ORIGIN: each shop's portal address, and so the hosts served (routes/hosts.ts); the shipped one by default */
  portalOrigin?: string
  /** each shop's commerce engine (docs/commerce.md); by default its stored connection (services/engines.ts) */
  engines?: EngineDirectory
  /** the request log (off when not given): its level, and where it goes (standard output) */
  logger?: { level: Settings['LOG_LEVEL']; stream?: { write(line: string): void } }
  /** told of every route as it is added (the roles' test enumerates the console's routes with it) */
  onRoute?: (route: RouteOptions) => void
}

/** Request line and headers together: a preview link's 16 KB configuration with room to spare. */
export const MAX_HEADER_BYTES = 64 * 1024

/**
 * How long a client may take (docs/settings.md: time limits). Every connection ends within 30 s of
 * going quiet or of starting a request it does not finish: a body sent a byte at a time, headers
 * that never end, an idle keep-alive. Node checks its open requests every CHECK_MS.
 */
export const TIME_LIMITS = {
  headersMs: 15_000,
  requestMs: 20_000,
  idleSocketMs: 25_000,
  keepAliveMs: 20_000,
  checkMs: 2_000,
} as const

/**
 * A request as the log shows it. A query's values are left out: a label link's signature, an
 * e-mail address in a start link, would otherwise sit in every log that keeps the line.
 */
export function urlForLog(url: string): string {
  const at = url.indexOf('?')
  if (at < 0) return url
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((part) => (part.includes('=') ? `${part.slice(0, part.indexOf('='))}=…` : part))
  return `${url.slice(0, at)}?${names.join('&')}`
}

/** GET /health: the database answers, and which engine it is. */
const Health = Type.Object({
  status: Type.Literal('ok'),
  engine: Type.String(),
  /** The photo queue's load: photos being prepared and photos waiting their turn (docs/api.md). */
  photos: Type.Object({ preparing: Type.Integer(), waiting: Type.Integer() }),
})

const requestForLog = (request: FastifyRequest) => ({
  method: request.method,
  url: urlForLog(request.url),
  host: request.host,
  remoteAddress: request.ip,
})

/** The Portal API as a Fastify instance, not listening: server.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { ...options.logger, serializers: { req: requestForLog } } : false,
    bodyLimit: 64 * 1024,
    http: {
      // A preview link carries its configuration in the URL (up to 16 KB of base64, which the portal
      // reads): Node's default of 16 KB for all headers would answer such a link with a 431.
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: TIME_LIMITS.headersMs,
      connectionsCheckingInterval: TIME_LIMITS.checkMs,
    },
    // Fastify leaves the request timeout off unless told: a body trickling in a byte at a time
    // would hold its connection for ever, and a few thousand such would hold the server.
    requestTimeout: TIME_LIMITS.requestMs,
    connectionTimeout: TIME_LIMITS.idleSocketMs,
    keepAliveTimeout: TIME_LIMITS.keepAliveMs,
    // Fastify's own refusals (a path that is not valid URL encoding) answer as every error does.
    frameworkErrors: (error: FastifyError, request, reply: FastifyReply) => void answerError(error, request, reply),
    trustProxy: options.trustProxy ?? false,
    // Strict bodies: no type coercion, every problem reported, unknown fields refused. The
    // shared schemas' `errorMessage` (the shop file's words, contract/policy.ts) is an annotation here.
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true, keywords: ['errorMessage'] },
    },
  }).withTypeProvider<TypeBoxTypeProvider>()
  const context: PortalContext = {
    db: options.db,
    shops: new ShopRepository(options.db),
    secret: options.secret,
    now: options.now ?? (() => new Date()),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    // Files beside PGlite's data, the rows on PostgreSQL (see docs/decisions/0037-photo-storage.md).
    photos: await startPhotoStore(app, options.db, options.dataDir),
    // Decorated by servedHosts below, before any request or delivery asks.
    portalOrigin: (shop) => app.portalOrigin(shop),
    engines: options.engines ?? storedEngines({ db: options.db, secret: options.secret }),
    events: {
      nudge: () => delivery?.nudge(),
      allowPrivateNetworks: options.delivery?.allowPrivateNetworks ?? options.allowPrivateNetworks ?? false,
      smtp: Boolean(options.delivery?.smtpUrl),
    },
  }
  let delivery: Delivery | null = null

  if (options.onRoute) app.addHook('onRoute', options.onRoute)
  registerErrorHandler(app)
  servedHosts(app, options.portalOrigin)
  registerJsonBodies(app)
  registerStorableParameters(app)
  // A callback, not an async function: no promise and no turn of the microtask queue per answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'no-referrer')
    done(null, payload)
  })
  // Phones on weak connections: the portal's JavaScript and the API's JSON go compressed.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  })
  // On a PostgreSQL server the counters live in it, so replicas count together (docs/settings.md);
  // the embedded database has one process, which counts in memory.
  await app.register(rateLimit, {
    global: false,
    ...(options.db.exclusive ? {} : { store: databaseRateLimitStore(options.db) }),
  })

  // Before the routes: it describes each one as it is added (docs/api.md).
  await openApi(app)
  app.get('/health', { schema: { response: replies({ 200: Health }) } }, async (_request, reply) => {
    await options.db.query('SELECT 1')
    const { running, waiting } = photoQueue.load()
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ok', engine: options.db.engine, photos: { preparing: running, waiting } })
  })
  // The shopper's portal, under /portal-registration.
  await app.register(
    async (portal: Api) => {
      await portal.register(configRoutes, { context })
      await portal.register(verifyRoutes, { context })
      await portal.register(labelRoutes, { context })
      await portal.register(statusRoutes, { context })
      // The shopper's calls after verify, each with its token (routes/auth.ts).
      await portal.register(async (shopper: Api) => {
        await shopper.register(shopperToken, { context })
        await shopper.register(orderRoutes, { context })
        await shopper.register(returnRoutes, { context })
        await shopper.register(supportRoutes, { context })
        await shopper.register(catalogueRoutes, { context })
        await shopper.register(instructionRoutes, { context })
        // Its image parser stays in its plugin: it must not reach the JSON routes.
        await shopper.register(photoRoutes, { context })
      })
    },
    { prefix: '/portal-registration' },
  )
  // The platforms' calls, each with a key of the shop in its path (routes/apiKey.ts).
  await app.register(ordersApiRoutes, { context, prefix: ORDERS_API_PREFIX })
  if (options.adminToken) await app.register(adminRoutes, { context, adminToken: options.adminToken, prefix: '/admin' })
  // Its cookie parser and same-origin check reach only the console's calls.
  await app.register(staffRoutes, { context, prefix: '/admin/api' })
  if (options.delivery) {
    const running = startDelivery(context, options.delivery, app.log)
    delivery = running
    app.addHook('onClose', () => running.stop())
  }
  await demoAssetRoutes(app)
  if (options.staticDir) await portalRoutes(app, options.staticDir, context)
  else
    app.setNotFoundHandler((request) => {
      throw noRoute(request.method, request.url)
    })
  return app
}
