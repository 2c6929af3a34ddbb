/**
 * The back office's events out (docs/events.md): the shoppers' e-mails in the outbox (kept ones
 * readable in full), the shop's webhook endpoints (added, removed, enabled), each endpoint's
 * deliveries with every attempt, and a redeliver; the actions in the shop's commerce engine
 * (docs/commerce.md), of a return or across returns, and a retry. For the signed-in staff of this
 * shop only.
 */
import { Type } from '@sinclair/typebox'
import {
  CreatedWebhook,
  DeliveryList,
  EmailDetail,
  EmailList,
  EngineActionList,
  EngineActionsQuery,
  NewWebhook,
  WebhookEnabled,
  WebhookList,
  type EngineActionKind as ListedKind,
  type EngineActionView,
  type OutboxEmail,
  type WebhookEndpointView,
} from '../../../contract/events'
import { fromMinor } from '../../../contract/money'
import type { PortalContext } from '../context'
import { endpointUrlProblem } from '../delivery/endpointUrl'
import type { EngineActionKind } from '../domain/engineActions'
import { QR_CID } from '../email/renderEmail'
import { qrPng } from '../email/qrImage'
import {
  findOutboxRow,
  listDeliveries,
  listEmails,
  listEngineActions,
  retryOutboxRow,
  type EmailPayload,
  type EngineActionRow,
  type EnginePayload,
  type OutboxRow,
  type OutboxState,
  type RetryOutcome,
} from '../storage/outbox'
import { findStoreConnection } from '../storage/storeConnections'
import {
  addEndpoint,
  findEndpoint,
  listEndpoints,
  newSecret,
  removeEndpoint,
  setEndpointEnabled,
  type WebhookEndpoint,
} from '../storage/webhookEndpoints'
import { audit, staffAuthor } from '../services/audit'
import { invalidRequest, notFound, Refusal } from '../services/refusal'
import { Bytes, replies, type Api } from './typed'

const MessageParams = Type.Object({ id: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) })
const ActionParams = Type.Object({ id: Type.String({ pattern: '^act_[0-9a-f]{32}$' }) })
const EndpointParams = Type.Object({ id: Type.String({ pattern: '^ep_[0-9a-f]{20}$' }) })
const EmailsQuery = Type.Object(
  { return_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
)

/** The e-mail's HTML as a page of its own: no script, its inline styles, images from anywhere. */
const EMAIL_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; sandbox"

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null)

function emailOf(row: OutboxRow): OutboxEmail {
  const payload = row.payload as EmailPayload
  return {
    id: row.id,
    return_id: row.return_id,
    return_name: payload.status.return_name,
    kind: payload.kind,
    to: row.recipient ?? '',
    subject: row.message?.subject ?? null,
    language: payload.language,
    state: row.state,
    attempts: row.attempts,
    created_at: iso(row.created_at)!,
    delivered_at: iso(row.delivered_at),
    next_attempt_at: row.state === 'pending' ? iso(row.due_at) : null,
    last_error: row.last_error,
  }
}

// The contract's kinds are the domain's: each side fails to compile if the other gains one.
const listedKind = (kind: EngineActionKind): ListedKind => kind
const domainKind = (kind: ListedKind): EngineActionKind => kind

const STATES_OF: Record<NonNullable<EngineActionsQuery['state']>, OutboxState[]> = {
  unconfirmed: ['pending', 'failed'],
  pending: ['pending'],
  failed: ['failed'],
  delivered: ['delivered'],
}

/** An engine action as staff follow it; a refund's amount is in the shop's currency. */
function engineActionOf(row: EngineActionRow, currency: string): EngineActionView {
  const { action } = row.payload as EnginePayload
  const amount =
    action.kind === 'refund'
      ? { amount: fromMinor(action.amount_minor, currency), currency_code: currency }
      : action.kind === 'store_credit'
        ? { amount: fromMinor(action.amount_minor, action.currency), currency_code: action.currency }
        : null
  return {
    id: row.id,
    return_id: row.return_id,
    return_name: row.return_name,
    kind: listedKind(action.kind),
    amount,
    state: row.state,
    attempts: row.attempts,
    created_at: iso(row.created_at)!,
    done_at: row.state === 'delivered' ? iso(row.delivered_at) : null,
    next_attempt_at: row.state === 'pending' ? iso(row.due_at) : null,
    last_error: row.last_error,
    reference: row.reference,
  }
}

/** A redeliver's or a retry's refusal. */
function refusalOf(outcome: Exclude<RetryOutcome, 'done'>, what: 'message' | 'action'): Refusal {
  if (outcome === 'missing') return notFound(`No such ${what}.`)
  if (outcome === 'already_done')
    return new Refusal(409, { error: 'already_done', message: 'It is done already: it is never carried out twice.' })
  if (outcome === 'cancelled')
    return new Refusal(409, { error: 'return_cancelled', message: 'The return was cancelled: it is not opened now.' })
  const underWay = what === 'message' ? 'being sent' : 'being carried out'
  return new Refusal(409, { error: 'in_flight', message: `It is ${underWay} right now; try again shortly.` })
}

function endpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    secret_hint: `whsec_…${endpoint.secret.slice(-4)}`,
    created_at: iso(endpoint.created_at)!,
    failing_since: iso(endpoint.failing_since),
    disabled_at: iso(endpoint.disabled_at),
  }
}

export function staffEventRoutes(app: Api, context: PortalContext) {
  /** A redeliver or a retry, written to the audit log with it when it is done. */
  const retried = (
    request: Parameters<typeof staffAuthor>[0] & { params: { id: string } },
    channel: 'webhook' | 'engine',
    kind: string,
  ): Promise<RetryOutcome> =>
    context.db.transaction(async (tx) => {
      const { shop } = request.staff
      const at = context.now()
      const outcome = await retryOutboxRow(tx, shop, channel, request.params.id, at)
      if (outcome === 'done')
        await audit(tx, { shopId: shop, at, ...staffAuthor(request), kind, subject: request.params.id })
      return outcome
    })

  app.get(
    '/admin/api/emails',
    {
      config: { staffAction: 'emails.read' },
      schema: { querystring: EmailsQuery, response: replies({ 200: EmailList }) },
    },
    async (request) => {
      const rows = await listEmails(context.db, request.staff.shop, {
        ...(request.query.return_id ? { returnId: request.query.return_id } : {}),
        limit: 200,
      })
      return { emails: rows.map(emailOf), smtp: context.events.smtp }
    },
  )

  app.get(
    '/admin/api/emails/:id',
    {
      config: { staffAction: 'emails.read' },
      schema: { params: MessageParams, response: replies({ 200: EmailDetail }) },
    },
    async (request) => {
      const row = await findOutboxRow(context.db, request.staff.shop, request.params.id)
      if (!row || row.channel !== 'email' || row.return_id === null) throw notFound('No such message.')
      return {
        ...emailOf(row),
        from: row.message?.from ?? null,
        reply_to: row.message?.reply_to ?? null,
        text: row.message?.text ?? null,
        html_url: row.message ? `/admin/api/emails/${row.id}/html` : null,
      }
    },
  )

  app.get(
    '/admin/api/emails/:id/html',
    { config: { staffAction: 'emails.read' }, schema: { params: MessageParams, response: replies({ 200: Bytes }) } },
    async (request, reply) => {
      const row = await findOutboxRow(context.db, request.staff.shop, request.params.id)
      if (!row || row.channel !== 'email' || row.return_id === null || !row.message) throw notFound('No such message.')
      // The drop-off code travels as an attachment; here it is put in place.
      const code = (row.payload as EmailPayload).status.label?.qr_code_value
      const html = code
        ? row.message.html.replaceAll(
            `cid:${QR_CID}`,
            `data:image/png;base64,${(await qrPng(code)).toString('base64')}`,
          )
        : row.message.html
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', EMAIL_PAGE_POLICY)
        .send(Buffer.from(html, 'utf8'))
    },
  )

  app.get(
    '/admin/api/webhooks',
    { config: { staffAction: 'webhooks.manage' }, schema: { response: replies({ 200: WebhookList }) } },
    async (request) => ({
      endpoints: (await listEndpoints(context.db, request.staff.shop)).map(endpointView),
    }),
  )

  app.post(
    '/admin/api/webhooks',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { body: NewWebhook, response: replies({ 201: CreatedWebhook }) },
    },
    async (request, reply) => {
      const problem = await endpointUrlProblem(request.body.url, context.events.allowPrivateNetworks)
      if (problem) throw invalidRequest(`url: ${problem}`)
      const secret = newSecret()
      const { shop } = request.staff
      const at = context.now()
      const endpoint = await context.db.transaction(async (tx) => {
        const added = await addEndpoint(tx, shop, { url: request.body.url, secret, events: request.body.events }, at)
        // Never its secret.
        const detail = { url: added.url, events: added.events }
        await audit(tx, { shopId: shop, at, ...staffAuthor(request), kind: 'webhook.added', subject: added.id, detail })
        return added
      })
      return reply.code(201).send({ ...endpointView(endpoint), secret })
    },
  )

  app.delete(
    '/admin/api/webhooks/:id',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: EndpointParams, response: replies({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      const { shop } = request.staff
      const { id } = request.params
      const removed = await context.db.transaction(async (tx) => {
        const endpoint = await findEndpoint(tx, id)
        if (!endpoint || !(await removeEndpoint(tx, shop, id))) return false
        const detail = { url: endpoint.url, events: endpoint.events }
        const at = context.now()
        await audit(tx, { shopId: shop, at, ...staffAuthor(request), kind: 'webhook.removed', subject: id, detail })
        return true
      })
      if (!removed) throw notFound('No such webhook endpoint.')
      return reply.code(204).send(null)
    },
  )

  app.put(
    '/admin/api/webhooks/:id/enabled',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: EndpointParams, body: WebhookEnabled, response: replies({ 200: WebhookList }) },
    },
    async (request) => {
      const { shop } = request.staff
      const { id } = request.params
      const { enabled } = request.body
      const done = await context.db.transaction(async (tx) => {
        const at = context.now()
        const endpoint = await findEndpoint(tx, id)
        if (!endpoint || !(await setEndpointEnabled(tx, shop, id, enabled, at))) return false
        await audit(tx, {
          shopId: shop,
          at,
          ...staffAuthor(request),
          kind: enabled ? 'webhook.enabled' : 'webhook.disabled',
          subject: id,
          detail: { url: endpoint.url },
        })
        return true
      })
      if (!done) throw notFound('No such webhook endpoint.')
      if (request.body.enabled) context.events.nudge()
      return { endpoints: (await listEndpoints(context.db, shop)).map(endpointView) }
    },
  )

  app.get(
    '/admin/api/webhooks/:id/deliveries',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: EndpointParams, response: replies({ 200: DeliveryList }) },
    },
    async (request) => {
      const endpoint = await findEndpoint(context.db, request.params.id)
      if (!endpoint || endpoint.shop_id !== request.staff.shop) throw notFound('No such webhook endpoint.')
      const deliveries = await listDeliveries(context.db, endpoint.id, 100)
      return {
        deliveries: deliveries.map(({ row, attempts }) => ({
          id: row.id,
          event: row.event as WebhookEndpoint['events'][number],
          return_id: row.return_id,
          state: row.state,
          created_at: iso(row.created_at)!,
          next_attempt_at: row.state === 'pending' ? iso(row.due_at) : null,
          attempts: attempts.map((attempt) => ({ ...attempt, at: iso(attempt.at)! })),
        })),
      }
    },
  )

  app.post(
    '/admin/api/deliveries/:id/redeliver',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: MessageParams, response: replies({ 202: Type.Null() }) },
    },
    async (request, reply) => {
      const outcome = await retried(request, 'webhook', 'delivery.redelivered')
      if (outcome !== 'done') throw refusalOf(outcome, 'message')
      context.events.nudge()
      return reply.code(202).send(null)
    },
  )

  app.get(
    '/admin/api/engine-actions',
    {
      config: { staffAction: 'engine.manage' },
      schema: { querystring: EngineActionsQuery, response: replies({ 200: EngineActionList }) },
    },
    async (request) => {
      const { shop } = request.staff
      const { return_id: returnId, kind, state } = request.query
      const [rows, connection, found] = await Promise.all([
        listEngineActions(context.db, shop, {
          ...(returnId ? { returnId } : {}),
          ...(kind ? { event: `engine.${domainKind(kind)}` } : {}),
          ...(state ? { states: STATES_OF[state] } : {}),
          limit: 200,
        }),
        findStoreConnection(context.db, shop),
        context.shops.find(shop),
      ])
      const currency = found?.currency_code ?? 'EUR'
      return { engine: connection?.engine ?? null, actions: rows.map((row) => engineActionOf(row, currency)) }
    },
  )

  app.post(
    '/admin/api/engine-actions/:id/retry',
    {
      config: { staffAction: 'engine.manage' },
      schema: { params: ActionParams, response: replies({ 202: Type.Null() }) },
    },
    async (request, reply) => {
      const outcome = await retried(request, 'engine', 'engine_action.retried')
      if (outcome !== 'done') throw refusalOf(outcome, 'action')
      context.events.nudge()
      return reply.code(202).send(null)
    },
  )
}
