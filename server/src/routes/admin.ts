import { timingSafeEqual, createHash } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { RETURN_ITEM_STATES } from '../../../contract/constants'
import { ReturnIdParams, ReturnItemState } from '../../../contract/api'
import type { PortalContext } from '../context'
import { keptItemCanReach, keptLineIds, lineState, transitionProblems } from '../domain/returnStatus'
import { signStatus } from '../domain/token'
import { importShop } from '../import/importShop'
import { findReturnedLines, recordAction, recordLineState } from '../storage/returnStates'
import { findOrderById } from '../storage/orders'
import { writeReturnEvents } from '../storage/outbox'
import { lockReturn } from '../storage/returns'
import { waitsOrRejected } from '../domain/review'
import { returnStatus } from './status'
import { notFound, Refusal } from '../services/refusal'
import { replies, type Api } from './typed'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** POST /admin/shops: the shop imported, and how many orders it has. */
const Imported = Type.Object({ ok: Type.Literal(true), shop: Type.String(), orders: Type.Integer() })

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
 * process on its directory). Only when ADMIN_TOKEN is set, and only with it.
 */
export function adminRoutes(app: Api, context: PortalContext, adminToken: string) {
  // Checked on arrival, before the body is read: without the token, nobody gets the server to
  // take in and parse 20 MB.
  const onRequest = async (request: FastifyRequest) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
    if (!timingSafeEqual(digest(given), digest(adminToken)))
      throw new Refusal(401, { error: 'unauthorised', message: 'A valid admin token is required.' })
  }

  app.post(
    '/admin/shops',
    {
      bodyLimit: 20 * 1024 * 1024,
      schema: { response: replies({ 201: Imported }) },
      onRequest,
    },
    async (request, reply) => {
      const result = await importShop(context.db, request.body, context.now(), context.photos, {
        allowPrivateNetworks: context.events.allowPrivateNetworks,
      })
      if (!result.ok) throw new Refusal(400, { error: 'invalid_shop_file', message: result.errors.join('\n') })
      context.shops.forget()
      return reply.code(201).send(result)
    },
  )

  returnStateRoute(app, context, onRequest)
}

/**
 * POST /admin/returns/{id}/status `{state, line_item_ids?}`: the operator (or the carrier's and
 * warehouse's systems) moves a return's items on, forward only; without line_item_ids, every item
 * the state applies to (items the shopper keeps go from requested to refunded only: never in
 * transit or received; naming one for those is a 422).
 * The answer names each item's state and the status link's token for the shopper.
 */
function returnStateRoute(app: Api, context: PortalContext, onRequest: (request: FastifyRequest) => Promise<unknown>) {
  app.post(
    '/admin/returns/:id/status',
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

/** A move of a return's items: to which state, which items (all it applies to when absent), by whom, why. */
export interface ItemMove {
  state: (typeof LATER_STATES)[number]
  line_item_ids?: string[] | undefined
  /** "operator" (the token API) or a staff member's e-mail */
  actor: string
  note: string | null
  /** only a return of this shop (the console's); another shop's is not found */
  shopId?: string
}

/**
 * Moves a return's items on under its lock (the rules of the status API: forward only, kept items
 * never in transit or received) and records who did it, for the return's timeline.
 */
export async function moveReturnItems(context: PortalContext, id: string, move: ItemMove) {
  const { state, line_item_ids: wanted } = move
  // The shop is read before the transaction: its cache reads through the database's own handle,
  // which on PGlite (one connection) would wait for the open transaction.
  const [owner] = await context.db.query<{ shop_id: string }>('SELECT shop_id FROM returns WHERE id = $1', [id])
  const shop = owner ? await context.shops.find(owner.shop_id) : null
  if (!owner || !shop || (move.shopId !== undefined && owner.shop_id !== move.shopId)) throw notFound('No such return.')
  const outcome = await context.db.transaction(async (tx) => {
    // One change of a return at a time: two scans at once cannot both move an item.
    const locked = await lockReturn(tx, id)
    if (!locked || locked.shop_id !== shop.id) throw notFound('No such return.')
    // Nothing travels before the shop approves, and nothing after it rejects (docs/lifecycle.md).
    if (waitsOrRejected(locked))
      throw new Refusal(409, {
        error: 'not_approved',
        message:
          locked.review === 'pending'
            ? 'This return is waiting for review: approve it before its items move on.'
            : 'This return was rejected: its items do not move on.',
      })
    const kept = keptLineIds(locked.return_order)
    const lines = await findReturnedLines(tx, id)
    const order = await findOrderById(tx, locked.order_id)
    if (!order) throw notFound('No such return.')
    const unknown = (wanted ?? []).filter((lineId) => !lines.some((line) => line.line_item_id === lineId))
    if (unknown.length > 0)
      throw new Refusal(422, {
        error: 'invalid_transition',
        message: unknown.map((lineId) => `line_item_ids: "${lineId}" is not an item of this return`).join('; '),
      })
    // "Every item" means every item the state applies to: kept items are never in transit or
    // received, so a scan of the parcel passes them by; named explicitly, they are an error.
    const moving = wanted
      ? lines.filter((line) => wanted.includes(line.line_item_id))
      : lines.filter((line) => !kept.has(line.line_item_id) || keptItemCanReach(state))
    if (moving.length === 0)
      throw new Refusal(422, {
        error: 'invalid_transition',
        message: `state: every item of this return is kept by the shopper (nothing is sent back), so none is ever ${state.replace('_', ' ')}`,
      })
    const problems = transitionProblems(moving, state, kept)
    if (problems.length > 0) throw new Refusal(422, { error: 'invalid_transition', message: problems.join('; ') })
    const at = context.now()
    const ids = moving.map((line) => line.line_item_id)
    await recordLineState(tx, id, ids, state, at)
    await recordAction(tx, id, { at, actor: move.actor, state, lineItemIds: ids, note: move.note })
    const after = await findReturnedLines(tx, id)
    // What the world hears of (docs/events.md), written with the change.
    await writeReturnEvents(
      tx,
      id,
      await returnStatus(context, locked, order, shop, lines, tx),
      await returnStatus(context, locked, order, shop, after, tx),
      at,
    )
    return {
      return_id: id,
      status_token: signStatus(context.secret, id),
      items: after.map((line) => ({ line_item_id: line.line_item_id, state: lineState(line) })),
    }
  })
  context.events.nudge()
  return outcome
}
