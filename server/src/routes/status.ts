import type { FastifyInstance } from 'fastify'
import { itemStates, RETURN_ITEM_STATES } from '../../../contract/constants'
import type { ReturnStatus, ReturnStatusItem } from '../../../contract/api'
import type { PortalContext } from '../context'
import { indexCatalogue } from '../domain/catalogue'
import { qrCodeValue, renderQrSvg } from '../domain/label'
import { issuedAtSubmission, keptLineIds, lineHistory, lineState, statusRefund } from '../domain/returnStatus'
import { signLabel, statusSignatureValid } from '../domain/token'
import { findOrderById, type OrderRecord } from '../storage/orders'
import { findReturn, type ReturnRecord } from '../storage/returns'
import { findReturnedLines } from '../storage/returnStates'
import type { ShopRecord } from '../storage/shops'
import { errorSchema } from './errors'

const params = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
} as const
const nullableString = { type: ['string', 'null'] } as const
const money = {
  type: 'object',
  required: ['amount', 'currency_code'],
  properties: { amount: { type: 'string' }, currency_code: { type: 'string' } },
} as const
const timing = {
  type: ['object', 'null'],
  required: ['from_days', 'to_days', 'business_days', 'after'],
  properties: {
    from_days: { type: 'integer' },
    to_days: { type: 'integer' },
    business_days: { type: 'boolean' },
    after: { type: 'string' },
  },
} as const

const statusSchema = {
  type: 'object',
  required: ['return_id', 'return_name', 'created_at', 'items', 'refund', 'label', 'address'],
  properties: {
    return_id: { type: 'string' },
    return_name: { type: 'string' },
    created_at: { type: 'string' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'line_item_id',
          'title',
          'variant_title',
          'quantity',
          'image_src',
          'exchange_variant_title',
          'keep',
          'states',
          'state',
          'history',
        ],
        properties: {
          line_item_id: { type: 'string' },
          title: { type: 'string' },
          variant_title: nullableString,
          quantity: { type: 'integer' },
          image_src: nullableString,
          exchange_variant_title: nullableString,
          keep: { type: 'boolean' },
          states: { type: 'array', items: { type: 'string', enum: [...RETURN_ITEM_STATES] } },
          state: { type: 'string', enum: [...RETURN_ITEM_STATES] },
          history: {
            type: 'array',
            items: {
              type: 'object',
              required: ['state', 'at'],
              properties: { state: { type: 'string' }, at: { type: 'string' } },
            },
          },
        },
      },
    },
    refund: {
      type: ['object', 'null'],
      required: ['method', 'amount', 'timing', 'expected'],
      properties: {
        method: { type: 'string' },
        amount: money,
        timing,
        expected: {
          type: ['object', 'null'],
          required: ['from', 'to'],
          properties: { from: { type: 'string' }, to: { type: 'string' } },
        },
        issued_at: { type: 'string' },
      },
    },
    label: {
      type: ['object', 'null'],
      required: ['label_url', 'qr_svg', 'qr_code_value'],
      properties: { label_url: { type: 'string' }, qr_svg: { type: 'string' }, qr_code_value: { type: 'string' } },
    },
    address: { type: 'object', additionalProperties: true, properties: {} },
  },
} as const

const NOT_VALID = { error: 'not_found', message: 'This status link is not valid.' }

/**
 * GET /portal-registration/returns/{id}/status?signature=…: a submitted return's progress for
 * the link its shopper keeps. The signature names this return only; it grants reading this
 * page and nothing else. Forged, foreign and unknown look alike (404); a genuine link past its
 * lifetime is a 410.
 */
export async function statusRoutes(app: FastifyInstance, context: PortalContext) {
  app.get<{ Params: { id: string }; Querystring: { signature: string } }>(
    '/portal-registration/returns/:id/status',
    {
      schema: {
        params,
        querystring: {
          type: 'object',
          required: ['signature'],
          properties: { signature: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
        },
        response: { 200: statusSchema, '4xx': errorSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const found = statusSignatureValid(context.secret, id, request.query.signature)
        ? await findReturn(context.db, id)
        : null
      const order = found ? await findOrderById(context.db, found.order_id) : null
      const shop = order ? await context.shops.find(order.shop_id) : null
      if (!found || !order || !shop) return reply.code(404).header('cache-control', 'no-store').send(NOT_VALID)
      const createdAt = new Date(found.created_at)
      if (createdAt.getTime() + context.limits.statusLinkTtlSeconds * 1000 <= context.now().getTime()) {
        return reply
          .code(410)
          .header('cache-control', 'no-store')
          .send({ error: 'link_expired', message: 'This status link has expired.' })
      }
      return reply.header('cache-control', 'no-store').send(await returnStatus(context, found, order, shop))
    },
  )
}

/** The status page's view of a return: its items as returned (kept or sent), their states, the refund, the label while a parcel is to be sent. */
export async function returnStatus(
  context: PortalContext,
  found: ReturnRecord,
  order: OrderRecord,
  shop: ShopRecord,
): Promise<ReturnStatus> {
  const createdAt = new Date(found.created_at)
  const returned = await findReturnedLines(context.db, found.id)
  const byLine = new Map(returned.map((line) => [line.line_item_id, line]))
  const answered = new Map((found.return_order?.items ?? []).map((item) => [item.line_item_id, item]))
  const kept = keptLineIds(found.return_order)
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const refund = statusRefund(found.return_order, returned, createdAt)
  // In the order's own line order, as the portal shows items everywhere.
  const items: ReturnStatusItem[] = order.line_items.flatMap((line) => {
    const entry = byLine.get(line.id)
    if (!entry) return []
    const variant = line.variant_id ? catalogue.variant(line.variant_id) : null
    const answer = answered.get(line.id)
    const item: ReturnStatusItem = {
      line_item_id: line.id,
      title: answer?.title ?? line.title ?? variant?.product_title ?? 'Item',
      variant_title: answer
        ? answer.variant_title
        : line.variant_title !== undefined
          ? line.variant_title
          : (variant?.title ?? null),
      quantity: entry.quantity,
      image_src: line.product_src ?? variant?.image_src ?? null,
      exchange_variant_title:
        answer?.exchange_variant_title ??
        (entry.exchange_variant_id ? (catalogue.variant(entry.exchange_variant_id)?.title ?? null) : null),
      keep: kept.has(line.id),
      states: [...itemStates(kept.has(line.id))],
      state: lineState(entry),
      history: lineHistory(entry, createdAt),
    }
    // A refund issued on submission is not a step still to come for the items it refunds.
    return [refund?.issued_at ? issuedAtSubmission(item, entry.exchange_variant_id !== null, refund.issued_at) : item]
  })
  // The label is for the parcel: items sent back and not there yet. Kept items never travel, so a
  // return that keeps everything has no label (as the label PDF: instructions.ts labelFor).
  const toSend = items.some((item) => !item.keep && (item.state === 'requested' || item.state === 'in_transit'))
  const expires = Math.floor(context.now().getTime() / 1000) + context.limits.labelTtlSeconds
  const code = qrCodeValue(found.id)
  return {
    return_id: found.id,
    return_name: found.name,
    created_at: createdAt.toISOString(),
    items,
    refund,
    label: toSend
      ? {
          label_url: `/portal-registration/returns/${encodeURIComponent(found.id)}/label.pdf?expires=${expires}&signature=${signLabel(context.secret, found.id, expires)}`,
          qr_svg: await renderQrSvg(code),
          qr_code_value: code,
        }
      : null,
    address: shop.return_address,
  }
}
