import { timingSafeEqual, createHash } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { onRequestHookHandler } from 'fastify'
import { RETURN_ITEM_STATES } from '../../../contract/constants'
import { ReturnIdParams, ReturnItemState } from '../../../contract/api'
import type { PortalContext } from '../context'
import { deleteShopWhole, importShopFile, moveReturnItems } from '../services/operator'
import { Refusal } from '../services/refusal'
import { replies, routes, type Api } from './typed'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** POST /admin/shops: the shop imported, its file's orders added or updated, and the stored ones it no longer lists. */
const Imported = Type.Object({
  ok: Type.Literal(true),
  shop: Type.String(),
  orders: Type.Integer({ description: 'orders in the file' }),
  added: Type.Integer({ description: 'orders the shop did not have' }),
  updated: Type.Integer({ description: 'orders updated in place, by name' }),
  removed: Type.Integer({ description: 'orders the file no longer lists, without returns: removed' }),
  kept: Type.Array(Type.String(), { description: 'orders the file no longer lists, kept because they have returns' }),
})

/** DELETE /admin/shops/{shop}: the shop's id, as its file names it. */
const ShopParams = Type.Object({ shop: Type.String({ minLength: 1, maxLength: 63 }) })

/** The states an operator may move an item to: every one after `requested`. */
const LATER_STATES = RETURN_ITEM_STATES.filter((state) => state !== 'requested')

/** POST /admin/returns/{id}/status */
const StateChange = Type.Object(
  {
    state: Type.Union(LATER_STATES.map((state) => Type.Literal(state))),
    line_item_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 1000, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
)

/** The answer to a state change: each item's state now, and the status link's token for the shopper. */
const StateChanged = Type.Object({
  return_id: Type.String(),
  status_token: Type.String(),
  items: Type.Array(Type.Object({ line_item_id: Type.String(), state: ReturnItemState })),
})

/**
 * POST /admin/shops: the operator import over HTTP, for a running server (PGlite allows one
 * process on its directory); DELETE /admin/shops/{shop}: the shop deleted whole, returns included.
 * Only when ADMIN_TOKEN is set, and only with it.
 */
export const adminRoutes = routes<{ adminToken: string }>((app, context, { adminToken }) => {
  // Checked on arrival, before the body is read: without the token, nobody gets the server to
  // take in and parse 20 MB.
  const onRequest: onRequestHookHandler = (request, _reply, done) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
    if (timingSafeEqual(digest(given), digest(adminToken))) return done()
    done(new Refusal(401, { error: 'unauthorised', message: 'A valid admin token is required.' }))
  }

  app.post(
    '/shops',
    {
      bodyLimit: 20 * 1024 * 1024,
      schema: { response: replies({ 201: Imported }) },
      onRequest,
    },
    async (request, reply) => {
      return reply.code(201).send(await importShopFile(context, request.body))
    },
  )

  app.delete(
    '/shops/:shop',
    { onRequest, schema: { params: ShopParams, response: replies({ 204: Type.Null() }) } },
    async (request, reply) => {
      await deleteShopWhole(context, request.params.shop)
      return reply.code(204).send(null)
    },
  )

  returnStateRoute(app, context, onRequest)
})

/**
 * POST /admin/returns/{id}/status `{state, line_item_ids?}`: the operator (or the carrier's and
 * warehouse's systems) moves a return's items on, forward only; without line_item_ids, every item
 * the state applies to (items the shopper keeps go from requested to refunded only: never in
 * transit or received; naming one for those is a 422).
 * The answer names each item's state and the status link's token for the shopper.
 */
function returnStateRoute(app: Api, context: PortalContext, onRequest: onRequestHookHandler) {
  app.post(
    '/returns/:id/status',
    {
      onRequest,
      schema: { params: ReturnIdParams, body: StateChange, response: replies({ 200: StateChanged }) },
    },
    async (request, reply) => {
      const { id } = request.params
      // On the answer and on a refusal alike: the error handler keeps the headers already set.
      reply.header('cache-control', 'no-store')
      return moveReturnItems(context, id, { ...request.body, actor: 'operator', note: null })
    },
  )
}
