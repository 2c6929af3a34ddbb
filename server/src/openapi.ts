/**
 * The API described for integrators (docs/api.md): an OpenAPI 3.1 document built by
 * @fastify/swagger from the routes' own schemas (contract/), at OPENAPI_PATH, and a page to read
 * it, at DOCS_PATH. What a schema cannot say (errors, limits, idempotency) stays in docs/api.md.
 */
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { ApiOrder, ApiProduct } from './import/apiBodies'

/** The document, as JSON. */
export const OPENAPI_PATH = '/api/openapi.json'
/** The page that reads it (Swagger UI), its scripts and styles under it. */
export const DOCS_PATH = '/api/docs'

/** The security schemes of the document: who may call what (docs/api.md: authorisation). */
const SECURITY_SCHEMES = {
  shopperToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The token of `POST /portal-registration/verify` (2 hours), or the read-only token of ' +
      '`POST /portal-registration/support-token`, which cannot submit, upload or keep a support code.',
  },
  staffSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'rebound_staff',
    description:
      'The back office session of `POST /admin/api/session`, for the host’s shop. Every call but a GET ' +
      'must come from the same origin (an `Origin` of this host, or `Sec-Fetch-Site: same-origin`).',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A key of the shop in the path (`rbk_…`), made in the back office’s API keys page or with ' +
      '`npm run staff -- key-add`. A key of another shop is a 403 `wrong_shop`.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator’s `ADMIN_TOKEN` (docs/settings.md); without it set, these calls do not exist.',
  },
} as const

type Scheme = keyof typeof SECURITY_SCHEMES

/** The groups of calls, each with whom it serves. */
const TAGS = [
  { name: 'portal', description: 'The shopper’s portal: find an order, price and submit a return, follow it.' },
  { name: 'console', description: 'The back office (docs/back-office.md), for a shop’s staff.' },
  {
    name: 'orders',
    description: 'The Orders API: a shop’s commerce platform sends its orders, with a key of the shop.',
  },
  { name: 'admin', description: 'The operator’s calls, with ADMIN_TOKEN: import a shop, move a return on.' },
  { name: 'health', description: 'For load balancers and monitors.' },
] as const

/** What the bytes of an answer or a body are, where it is not JSON. */
const binary = (types: readonly string[], description?: string) =>
  Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', format: 'binary', description } }]))

const IMAGES = ['image/jpeg', 'image/png', 'image/webp'] as const

/** What only the document says of a call: its summary, and its bodies where they are not JSON. */
interface Operation {
  summary: string
  /** the answer's media types, for a 200 or 201 of bytes */
  produces?: Record<string, unknown>
  /** the request body's media types, where the route reads it without a schema */
  body?: Record<string, unknown>
  /** who may call it, where its group's scheme does not hold ([] for anyone) */
  security?: Partial<Record<Scheme, []>>[]
}

/**
 * Every call of the API by `METHOD url`, as Fastify registers it. A route missing here fails
 * server/test/openapi.test.ts, as does an entry no route has.
 */
export const OPERATIONS: Record<string, Operation> = {
  'GET /health': { summary: 'The database answers: its engine, and the photo queue’s load', security: [] },

  'GET /portal-registration/config/:id': {
    summary: 'A portal’s configuration, by shop and language (`demo`, `demo-de`)',
    security: [],
  },
  'POST /portal-registration/verify': { summary: 'Find an order by its number and e-mail: a token', security: [] },
  'GET /portal-registration/order': { summary: 'The token’s order as verify would answer it now' },
  'GET /portal-registration/catalogue': { summary: 'The products offered in upsell exploration' },
  'POST /portal-registration/returns/quote': { summary: 'Price a return without submitting it' },
  'POST /portal-registration/returns': { summary: 'Submit a return (with an Idempotency-Key)' },
  'GET /portal-registration/returns/:id/instructions': {
    summary: 'How to send the return back: address, label link, QR code',
  },
  'GET /portal-registration/returns/:id/label.pdf': {
    summary: 'The return’s shipping label, by its signed link',
    produces: binary(['application/pdf']),
    security: [],
  },
  'GET /portal-registration/returns/:id/status': {
    summary: 'The return’s status page, by its signed link',
    security: [],
  },
  'POST /portal-registration/support-token': { summary: 'A read-only token of the session, for a support code' },
  'POST /portal-registration/support-references': { summary: 'Keep a support code for the shop’s staff' },
  'POST /portal-registration/photos': {
    summary: 'Upload a photo of an item (the image as the body)',
    body: binary(IMAGES, 'A JPEG, PNG or WebP image (whatever its Content-Type says), at most 5 MB and 50 megapixels'),
  },
  'GET /portal-registration/photos/:id': {
    summary: 'A photo of the order, for the shopper’s preview',
    produces: binary(IMAGES),
  },

  'DELETE /admin/shops/:shop': {
    summary: 'Delete a shop whole, its returns included (a demo reset; an import never deletes returns)',
  },
  'POST /admin/shops': {
    summary: 'Import a shop file: add or update its orders by name, keeping every return',
    body: {
      'application/json': {
        schema: {
          type: 'object',
          description: 'A shop file (docs/shop-file.md), at most 20 MB; a problem is a 400 `invalid_shop_file`',
        },
      },
    },
  },
  'POST /admin/returns/:id/status': { summary: 'Move a return’s items on (in transit, received, refunded)' },

  'POST /admin/api/session': { summary: 'Sign in: the session cookie', security: [] },
  'GET /admin/api/session': { summary: 'The signed-in staff member' },
  'DELETE /admin/api/session': { summary: 'Sign out: the session ends', security: [{}, { staffSession: [] }] },
  'GET /admin/api/shop': { summary: 'The shop’s reasons, for the list’s filter' },
  'GET /admin/api/returns': { summary: 'The shop’s returns, newest first, a page at a time' },
  'GET /admin/api/return-counts': { summary: 'How many returns each view of the list holds, searched and filtered' },
  'GET /admin/api/returns.csv': {
    summary: 'Every return the filters match, as CSV',
    produces: { 'text/csv': { schema: { type: 'string' } } },
  },
  'GET /admin/api/insights': { summary: 'The shop’s returns in figures, over a period' },
  'GET /admin/api/returns/:id': { summary: 'A return in full: summary, status, timeline, photos, review' },
  'GET /admin/api/returns/:id/photos/:photo': { summary: 'A photo of the return', produces: binary(IMAGES) },
  'POST /admin/api/returns/:id/photos': {
    summary: 'Upload the warehouse’s photo of an item (the image as the body)',
    body: binary(IMAGES, 'A JPEG, PNG or WebP image, as the shopper’s upload'),
  },
  'POST /admin/api/returns/:id/status': { summary: 'Move a return’s items on, with a note' },
  'POST /admin/api/returns/:id/inspection/preview': { summary: 'What an inspection would deduct, restock and hold' },
  'POST /admin/api/returns/:id/inspection': { summary: 'Record the inspection of the return’s items' },
  'GET /admin/api/support/:reference': { summary: 'The support code behind a reference' },
  'GET /admin/api/receive': { summary: 'The return of a scanned drop-off code or a typed number' },
  'GET /admin/api/reviews': { summary: 'The returns waiting for review, oldest first' },
  'POST /admin/api/reviews': { summary: 'Approve or reject returns waiting for review' },
  'GET /admin/api/emails': { summary: 'The shoppers’ e-mails, newest first' },
  'GET /admin/api/emails/:id': { summary: 'An e-mail: from, reply-to, plain text' },
  'GET /admin/api/emails/:id/html': {
    summary: 'An e-mail’s HTML, as sent',
    produces: { 'text/html': { schema: { type: 'string' } } },
  },
  'GET /admin/api/webhooks': { summary: 'The shop’s webhook endpoints' },
  'POST /admin/api/webhooks': { summary: 'Add a webhook endpoint: its secret, shown this once' },
  'PUT /admin/api/webhooks/:id/enabled': { summary: 'Enable or disable a webhook endpoint' },
  'DELETE /admin/api/webhooks/:id': { summary: 'Remove a webhook endpoint' },
  'GET /admin/api/webhooks/:id/deliveries': { summary: 'An endpoint’s last deliveries, each with its attempts' },
  'POST /admin/api/deliveries/:id/redeliver': { summary: 'Send a delivery again now' },
  'GET /admin/api/engine-actions': {
    summary: 'The actions in the shop’s commerce engine, newest first: of a return, a kind, a state',
  },
  'POST /admin/api/engine-actions/:id/retry': {
    summary: 'Carry an engine action out again now, under the same key (never one done)',
  },
  'GET /admin/api/policy': { summary: 'The shop’s return policy' },
  'GET /admin/api/api-keys': { summary: 'The shop’s Orders API keys, revoked ones too' },
  'POST /admin/api/api-keys': { summary: 'Make an Orders API key: its token, shown this once' },
  'DELETE /admin/api/api-keys/:id': { summary: 'Revoke an Orders API key, at once' },
  'GET /admin/api/store-connection': { summary: 'The shop’s store connection (its commerce engine), never its key' },
  'PUT /admin/api/store-connection': {
    summary: 'Connect the shop’s commerce engine, or change it (no key: the key stays)',
  },
  'POST /admin/api/store-connection/test': {
    summary: 'Test the store connection: address, key, sales channel, stock location',
  },
  'DELETE /admin/api/store-connection': { summary: 'Remove the store connection' },
  'GET /admin/api/audit': { summary: 'The audit log: who changed what, newest first, 50 a page, filtered' },
  'GET /admin/api/audit/people': { summary: 'Everyone the audit log names, for its filter' },
  'GET /admin/api/audit.csv': { summary: 'The audit log as CSV, with the same filters (itself an entry)' },
  'POST /admin/api/returns/:id/notes': { summary: 'Write a note on the return’s timeline; nothing moves' },
  'POST /admin/api/returns/:id/cancel': {
    summary: 'Cancel a return nothing of which was received: the shopper is told, its items returnable again',
  },
  'POST /admin/api/returns/:id/close': { summary: 'Close a return with a reason; nothing is refunded by it' },
  'POST /admin/api/emails/:id/resend': { summary: 'Write an e-mail to the shopper again, as a new e-mail' },

  'GET /api/v1/shops/:shop': { summary: 'The key’s shop and the key’s label: check an integration’s set-up' },
  'PUT /api/v1/shops/:shop/orders/:name': {
    summary:
      'Create or update an order by name (`#1001` as `%231001`); one with returns keeps what they were priced from',
    body: {
      'application/json': {
        schema: {
          ...ApiOrder,
          description:
            'An order as in the shop file’s `orders[]` (docs/shop-file.md), without `returns` or `tracked_returns`, ' +
            'dates in ISO 8601; `name` is the path’s when absent. At most 1 MB.',
        },
      },
    },
  },
  'DELETE /api/v1/shops/:shop/orders/:name': { summary: 'Remove an order without returns (one with returns is a 409)' },
  'PUT /api/v1/shops/:shop/catalogue/products/:id': {
    summary: 'Create or replace a catalogue product with its variants; a variant an order or a return names stays',
    body: {
      'application/json': {
        schema: {
          ...ApiProduct,
          description:
            'A product as in the shop file’s `catalogue[]` (docs/shop-file.md); `id` is the path’s when absent. At most 1 MB.',
        },
      },
    },
  },
  'PUT /api/v1/shops/:shop/stock': { summary: 'Set variants on sale or not (`available`), up to 1,000 a call' },
  'PUT /admin/api/policy': { summary: 'Replace the shop’s return policy' },
  'GET /admin/api/staff': { summary: 'The shop’s staff with their roles, pending invites, the agents’ review limit' },
  'POST /admin/api/staff/invites': {
    summary: 'Invite an e-mail with a role: a single-use link by e-mail, for 72 hours',
  },
  'POST /admin/api/staff/invites/withdraw': { summary: 'Withdraw a pending invite: its link stops working' },
  'PUT /admin/api/staff/review-limit': { summary: 'Set the refund agents may decide reviews up to (null: any)' },
  'PUT /admin/api/staff/:id/role': { summary: 'Change a staff member’s role (never the last owner’s)' },
  'POST /admin/api/staff/:id/reset': { summary: 'Reset a staff member: sessions end, a set-password link by e-mail' },
  'DELETE /admin/api/staff/:id': { summary: 'Remove a staff member from the shop (never the last owner)' },
  'POST /admin/api/invite': { summary: 'Set a password with an invite’s link, and sign in', security: [] },
}

/** A call's group, and the scheme the group's calls ask for, by its path; none for a page or a file. */
function groupOf(url: string): { tag: (typeof TAGS)[number]['name']; scheme: Scheme | null } | null {
  if (url === '/health') return { tag: 'health', scheme: null }
  if (url.startsWith('/portal-registration/')) return { tag: 'portal', scheme: 'shopperToken' }
  if (url.startsWith('/api/v1/')) return { tag: 'orders', scheme: 'apiKey' }
  if (url.startsWith('/admin/api/')) return { tag: 'console', scheme: 'staffSession' }
  if (url.startsWith('/admin/')) return { tag: 'admin', scheme: 'adminToken' }
  return null
}

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown> }

/** The operation of a route: `METHOD url`, HEAD left out (Fastify adds one to each GET). */
const operationOf = (method: string | readonly string[], url: string) =>
  `${[method].flat().find((one) => one !== 'HEAD')} ${url}`

/**
 * A route as the document shows it: its group, summary and who may call it; its answers of bytes
 * and bodies read without a schema by their media types. Pages and files (the portal's build, the
 * demo images, this page) are not calls: hidden. The route itself, its validation and its
 * serialisation, are left as they are: only the document reads this.
 */
const transform: NonNullable<FastifyDynamicSwaggerOptions['transform']> = ({ schema, url, route }) => {
  const group = groupOf(url)
  if (!group) return { schema: { ...schema, hide: true }, url }
  const operation = OPERATIONS[operationOf(route.method, url)]
  const own = (schema ?? {}) as RouteSchema
  const produces = operation?.produces
  const response = produces
    ? {
        ...own.response,
        ...Object.fromEntries(
          Object.keys(own.response ?? { 200: null })
            .filter((status) => status.startsWith('2'))
            .map((status) => [status, { description: 'The bytes, as they are', content: produces }]),
        ),
      }
    : own.response
  return {
    schema: {
      ...own,
      tags: [group.tag],
      ...(operation ? { summary: operation.summary } : {}),
      security: operation?.security ?? (group.scheme ? [{ [group.scheme]: [] }] : []),
      ...(response ? { response } : {}),
      ...(operation?.body ? { body: { content: operation.body } } : {}),
    },
    url,
  }
}

/**
 * Registers the document and its page: on the root instance, before any route, so that every
 * route registered after is described.
 */
export async function openApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Rebound API',
        version: '1',
        description:
          'The returns portal’s API: the shopper’s portal, the back office and the operator’s calls. ' +
          'Errors, limits, idempotency and sessions are described in docs/api.md of the repository.',
      },
      tags: [...TAGS],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform,
  })
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    // The page's own policy (its routes only): its scripts and styles are files of this origin,
    // but Swagger UI writes <style> elements as it draws, and its icons are data: images.
    staticCSP: {
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    },
  })
  app.get(OPENAPI_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  )
}
