/**
 * Quote and submit a return (docs/rules.md §11.3–11.4): price the shopper's choices, and make one
 * return per Idempotency-Key under the order's lock. Refusals are thrown; the route answers.
 */
import { createHash, randomUUID } from 'node:crypto'
import { configure } from 'safe-stable-stringify'
import type {
  EarlierReturn,
  InvalidReturn,
  QuoteRequest,
  ReturnOrder,
  ReturnProblem,
  ReturnRequest,
} from '../../../contract/api'
import type { PortalContext } from '../context'
import { photoProblems } from '../domain/photos'
import { answerBy, reviewFlags } from '../domain/policy'
import { priceReturn, problemsInWords, type PricedReturn, type RequestProblems } from '../domain/priceReturn'
import { signStatus, type TokenClaims } from '../domain/token'
import type { Queryable } from '../storage/database'
import { findOrderById, returnedQuantities, type OrderRecord } from '../storage/orders'
import { writeReturnEvents } from '../storage/outbox'
import { attachPhotos, findOrderPhotos } from '../storage/photos'
import { findReturn, findReturnByKey, findReturnIdsOfOrder, insertReturn, type NewReturn } from '../storage/returns'
import { countShopperReturns, lockShopperReturns } from '../storage/shopperReturns'
import type { ShopRecord } from '../storage/shops'
import { orderGone, Refusal } from './refusal'
import { returnStatus } from './returnStatus'
import { NOT_AVAILABLE, refused } from './verify'

/** The request priced (or its problems), with the order as read for it (`stored`). */
type Priced =
  { shopMissing: true } | { orderMissing: true } | ((PricedReturn | RequestProblems) & { stored: OrderRecord })

/**
 * `shop` is read by the caller before any transaction: the shop cache reads through the database's
 * own handle, and on PGlite (one connection) that read would wait for the open transaction forever.
 */
async function price(
  shop: ShopRecord | null,
  db: Queryable,
  claims: TokenClaims,
  request: ReturnRequest,
  lock: boolean,
  now: Date,
  previewMultiplier?: number,
): Promise<Priced> {
  if (!shop) return { shopMissing: true }
  const order = await findOrderById(db, claims.orderId, lock)
  if (!order || order.shop_id !== shop.id) return { orderMissing: true }
  const priced = priceReturn(shop, order, await returnedQuantities(db, order.id), request, previewMultiplier, now)
  // The photos are checked against the database: this order's, not taken by an earlier return.
  const stored = await findOrderPhotos(
    db,
    order.id,
    request.items.flatMap((item) => item.photo_ids ?? []),
  )
  const photos = photoProblems(shop.return_reasons, request, stored)
  if (photos.length === 0) return { ...priced, stored: order }
  return { problems: [...('problems' in priced ? priced.problems : []), ...photos], stored: order }
}

const DAY_MS = 86_400_000

/**
 * Whether the shop's review rules flag this return (docs/lifecycle.md): what its items are worth
 * at the prices paid (`paid`, as the return was priced with), photos for the reasons that ask review, and the shopper's recent returns.
 */
async function reviewOf(
  tx: Queryable,
  shop: ShopRecord,
  order: OrderRecord,
  request: ReturnRequest,
  paid: PricedReturn['unitPaid'],
  now: Date,
): Promise<NewReturn['review']> {
  const rules = shop.policy.review
  if (!rules) return undefined
  const frequent = rules.frequent
  const flags = reviewFlags(shop, {
    currency: shop.currency_code,
    itemsValueMinor: request.items.reduce((sum, item) => sum + (paid.get(item.line_item_id) ?? 0) * item.quantity, 0),
    items: request.items.map((item) => ({ reason_id: item.reason_id, photos: item.photo_ids?.length ?? 0 })),
    reasons: shop.return_reasons,
    shopperReturns: frequent
      ? (await countShopperReturns(tx, shop.id, order.email_key, new Date(now.getTime() - frequent.days * DAY_MS))) + 1
      : 0,
  })
  return flags.length > 0 ? { flags, answerBy: answerBy(shop.policy, now) } : undefined
}

/** The 422 of a request that cannot be priced: each problem by field, for the portal, and all in words. */
const invalidReturn = (problems: ReturnProblem[], returns: EarlierReturn[], headers?: Record<string, string>) =>
  new Refusal(
    422,
    {
      error: 'invalid_return',
      message: problemsInWords(problems),
      problems,
      ...(returns.length > 0 ? { returns } : {}),
    } satisfies InvalidReturn,
    headers,
  )

/** A submit's refusals are never kept, as its answers are not. */
const NO_STORE = { 'cache-control': 'no-store' }

const ITEM_FIELD = /^items\[(\d+)\]\./

/**
 * The returns already made of this order that took units of the items refused as no longer (or
 * not so many times) returnable: a stale tab then links to the return made in the other one,
 * instead of leaving the shopper to try again. A rejected return holds no units, so it is left out.
 */
async function earlierReturns(
  db: Queryable,
  secret: Buffer,
  claims: TokenClaims,
  request: ReturnRequest,
  problems: ReturnProblem[],
): Promise<EarlierReturn[]> {
  const refused = new Set(
    problems.flatMap((found) => {
      const index = ITEM_FIELD.exec(found.field)?.[1]
      const item = index === undefined ? undefined : request.items[Number(index)]
      return item && (found.problem === 'not_returnable' || found.problem === 'too_many') ? [item.line_item_id] : []
    }),
  )
  if (refused.size === 0) return []
  const order = await findOrderById(db, claims.orderId)
  if (!order) return []
  const found: EarlierReturn[] = []
  for (const id of await findReturnIdsOfOrder(db, claims.shopId, order.name)) {
    const earlier = await findReturn(db, id)
    if (!earlier || earlier.review === 'rejected' || earlier.ended === 'cancelled') continue
    const lines = (earlier.return_order?.items ?? [])
      .map((item) => item.line_item_id)
      .filter((lineId) => refused.has(lineId))
    if (lines.length > 0)
      found.push({ id, name: earlier.name, status_token: signStatus(secret, id), line_item_ids: [...new Set(lines)] })
  }
  return found
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url')
/** JSON with every object's keys sorted: one text for a body, whatever order its keys came in. */
const canonicalJson = configure({ deterministic: true })

/**
 * What an Idempotency-Key's return is matched by: the body with its keys sorted, so a retry that
 * lists the same fields in another order (another client, or the same one re-serialising its
 * request) is the same request, and only a body that differs is another return.
 */
const requestHash = (request: ReturnRequest) => sha256(canonicalJson(request))

/**
 * How the hash was made before keys were sorted: of the body as parsed, keys in the order sent.
 * Returns stored back then keep that hash, and the portal always sends its keys in one fixed
 * order, so its retry of such a return still matches this way without rewriting stored rows.
 * Accepting either hash lets no other body through: a stored hash equals this one only for a body
 * written exactly as the first, and the sorted one only for the same fields and values.
 */
const requestHashAsSent = (request: ReturnRequest) => sha256(JSON.stringify(request))

const sameRequest = (storedHash: string | null, request: ReturnRequest, hash: string) =>
  storedHash === hash || storedHash === requestHashAsSent(request)

/** What the shopper's choices come to now, without making anything; a 422 with the problems otherwise. */
export async function quoteReturn(
  context: PortalContext,
  claims: TokenClaims,
  request: QuoteRequest,
): Promise<ReturnOrder> {
  const { preview_multiplier: previewMultiplier, ...choices } = request
  const priced = await price(
    await context.shops.find(claims.shopId),
    context.db,
    claims,
    choices,
    false,
    context.now(),
    previewMultiplier,
  )
  if ('shopMissing' in priced || 'orderMissing' in priced) throw orderGone()
  if ('problems' in priced)
    throw invalidReturn(
      priced.problems,
      await earlierReturns(context.db, context.secret, claims, choices, priced.problems),
    )
  return priced.order
}

/**
 * Makes the return the shopper confirmed, once per Idempotency-Key: the order is locked, an
 * earlier return with the key is answered again (`created` false), else one return is made with
 * its events in the same transaction.
 */
export async function submitReturn(
  context: PortalContext,
  claims: TokenClaims,
  request: ReturnRequest,
  submitted: { key: string; language: string },
): Promise<{ created: boolean; order: ReturnOrder }> {
  const hash = requestHash(request)
  const shop = await context.shops.find(claims.shopId)
  const outcome = await context.db.transaction(async (tx) => {
    const now = context.now()
    const priced = await price(shop, tx, claims, request, true, now)
    if ('shopMissing' in priced || 'orderMissing' in priced) throw orderGone(NO_STORE)
    // Checked under the order's lock: a doubled or retried submit finds the first one's return.
    const earlier = await findReturnByKey(tx, claims.orderId, submitted.key)
    if (earlier) {
      if (!sameRequest(earlier.request_hash, request, hash))
        throw new Refusal(
          409,
          { error: 'idempotency_key_reused', message: 'This key was used for another return.' },
          NO_STORE,
        )
      return { created: false, order: earlier.return_order! }
    }
    if ('problems' in priced)
      throw invalidReturn(
        priced.problems,
        await earlierReturns(tx, context.secret, claims, request, priced.problems),
        NO_STORE,
      )
    // The order as priced, read under its lock: its amounts read once for the whole submit.
    const order = priced.stored
    // Checked again here: a token verified before a block, or before the limit was reached, is
    // no way round them; and, where a rule counts the shopper's returns (the limit, the
    // frequent-returner review), with the shopper's other submits held off until this one ends.
    if (shop!.policy.limit || shop!.policy.review?.frequent) await lockShopperReturns(tx, shop!.id, order.email_key)
    if (await refused(tx, shop!, order, now)) throw new Refusal(403, NOT_AVAILABLE, NO_STORE)
    const returnId = randomUUID()
    const created = await insertReturn(
      tx,
      {
        id: returnId,
        orderId: claims.orderId,
        orderName: order.name,
        idempotencyKey: submitted.key,
        requestHash: hash,
        answer: (name, createdAt): ReturnOrder => ({
          ...priced.order,
          id: returnId,
          status: 'requested',
          name,
          created_at: createdAt.toISOString(),
        }),
        lines: priced.lines,
        // The shopper's language and portal word and link the e-mails of this return, now and later.
        language: submitted.language,
        portalOrigin: context.portalOrigin(shop!.id),
        review: await reviewOf(tx, shop!, order, request, priced.unitPaid, now),
      },
      now,
    )
    const photos = request.items.map((item) => ({ lineItemId: item.line_item_id, photoIds: item.photo_ids ?? [] }))
    await attachPhotos(tx, claims.orderId, returnId, photos)
    // Its lines, deductions and store credit are those just written: none taken yet, no event
    // of a line, nothing deducted or issued, so the status is made without reading them back.
    const lines = priced.lines.map((line) => ({
      line_item_id: line.lineItemId,
      quantity: line.quantity,
      exchange_variant_id: line.exchangeVariantId,
      events: [],
    }))
    const status = await returnStatus(context, created, order, shop!, lines, tx, { deductions: [], credit: null })
    await writeReturnEvents(tx, returnId, null, status, created.created_at)
    return { created: true, order: created.return_order! }
  })
  if (outcome.created) context.events.nudge()
  return outcome
}
