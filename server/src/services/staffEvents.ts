/**
 * The back office's events out (docs/events.md): the shoppers' e-mails in the outbox (kept ones
 * readable in full), the shop's webhook endpoints (added, removed, enabled), each endpoint's
 * deliveries with every attempt, and a redeliver; the actions in the shop's commerce engine
 * (docs/commerce.md), of a return or across returns, and a retry. Each change and its audit entry
 * are written in one transaction; the outbox's delivery is woken after one that gives it work.
 */
import type {
  CreatedWebhook,
  DeliveryList,
  EmailDetail,
  EmailList,
  EngineActionKind as ListedKind,
  EngineActionList,
  EngineActionsQuery,
  EngineActionView,
  NewWebhook,
  OutboxEmail,
  WebhookEndpointView,
  WebhookList,
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
import { audit, type Author } from './audit'
import { invalidRequest, notFound, Refusal } from './refusal'

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
    ...(row.opening_cancelled ? { return_cancelled: true as const } : {}),
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

/**
 * A redeliver or a retry: the outbox's entry is due again, written to the audit log with it when
 * it is done, and the delivery woken; refused when it is missing, done or under way.
 */
async function retry(
  context: PortalContext,
  shopId: string,
  id: string,
  author: Author,
  channel: 'webhook' | 'engine',
): Promise<void> {
  const outcome = await context.db.transaction(async (tx) => {
    const at = context.now()
    const outcome = await retryOutboxRow(tx, shopId, channel, id, at)
    const kind = channel === 'webhook' ? 'delivery.redelivered' : 'engine_action.retried'
    if (outcome === 'done') await audit(tx, { shopId, at, ...author, kind, subject: id })
    return outcome
  })
  if (outcome !== 'done') throw refusalOf(outcome, channel === 'webhook' ? 'message' : 'action')
  context.events.nudge()
}

/** The shop's shoppers' e-mails, newest first, of one return or of all; and whether they go out. */
export async function listShopEmails(context: PortalContext, shopId: string, returnId?: string): Promise<EmailList> {
  const rows = await listEmails(context.db, shopId, { ...(returnId ? { returnId } : {}), limit: 200 })
  return { emails: rows.map(emailOf), smtp: context.events.smtp }
}

/** One of a return's e-mails as it was written, or a 404. */
async function findEmail(context: PortalContext, shopId: string, id: string): Promise<OutboxRow> {
  const row = await findOutboxRow(context.db, shopId, id)
  if (!row || row.channel !== 'email' || row.return_id === null) throw notFound('No such message.')
  return row
}

/** One e-mail with its text, and where its HTML is read when it was written. */
export async function emailDetail(context: PortalContext, shopId: string, id: string): Promise<EmailDetail> {
  const row = await findEmail(context, shopId, id)
  return {
    ...emailOf(row),
    from: row.message?.from ?? null,
    reply_to: row.message?.reply_to ?? null,
    text: row.message?.text ?? null,
    html_url: row.message ? `/admin/api/emails/${row.id}/html` : null,
  }
}

/** An e-mail's HTML as a page of its own: its drop-off code, sent as an attachment, put in place. */
export async function emailPage(context: PortalContext, shopId: string, id: string): Promise<string> {
  const row = await findEmail(context, shopId, id)
  if (!row.message) throw notFound('No such message.')
  const code = (row.payload as EmailPayload).status.label?.qr_code_value
  if (!code) return row.message.html
  return row.message.html.replaceAll(`cid:${QR_CID}`, `data:image/png;base64,${(await qrPng(code)).toString('base64')}`)
}

/** The shop's webhook endpoints, never their secrets. */
export async function listWebhooks(context: PortalContext, shopId: string): Promise<WebhookList> {
  return { endpoints: (await listEndpoints(context.db, shopId)).map(endpointView) }
}

/** Adds an endpoint at a public address; its secret is answered this once. */
export async function addWebhook(
  context: PortalContext,
  shopId: string,
  body: NewWebhook,
  author: Author,
): Promise<CreatedWebhook> {
  const problem = await endpointUrlProblem(body.url, context.events.allowPrivateNetworks)
  if (problem) throw invalidRequest(`url: ${problem}`)
  const secret = newSecret()
  const at = context.now()
  const endpoint = await context.db.transaction(async (tx) => {
    const added = await addEndpoint(tx, shopId, { url: body.url, secret, events: body.events }, at)
    // Never its secret.
    const detail = { url: added.url, events: added.events }
    await audit(tx, { shopId, at, ...author, kind: 'webhook.added', subject: added.id, detail })
    return added
  })
  return { ...endpointView(endpoint), secret }
}

/** Removes one of the shop's endpoints, or a 404. */
export async function removeWebhook(context: PortalContext, shopId: string, id: string, author: Author): Promise<void> {
  const removed = await context.db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, id)
    if (!endpoint || !(await removeEndpoint(tx, shopId, id))) return false
    const detail = { url: endpoint.url, events: endpoint.events }
    const at = context.now()
    await audit(tx, { shopId, at, ...author, kind: 'webhook.removed', subject: id, detail })
    return true
  })
  if (!removed) throw notFound('No such webhook endpoint.')
}

/** Enables or disables one of the shop's endpoints (one enabled again is delivered to at once). */
export async function enableWebhook(
  context: PortalContext,
  shopId: string,
  id: string,
  enabled: boolean,
  author: Author,
): Promise<WebhookList> {
  const done = await context.db.transaction(async (tx) => {
    const at = context.now()
    const endpoint = await findEndpoint(tx, id)
    if (!endpoint || !(await setEndpointEnabled(tx, shopId, id, enabled, at))) return false
    await audit(tx, {
      shopId,
      at,
      ...author,
      kind: enabled ? 'webhook.enabled' : 'webhook.disabled',
      subject: id,
      detail: { url: endpoint.url },
    })
    return true
  })
  if (!done) throw notFound('No such webhook endpoint.')
  if (enabled) context.events.nudge()
  return listWebhooks(context, shopId)
}

/** An endpoint's latest deliveries, each with its attempts. */
export async function webhookDeliveries(context: PortalContext, shopId: string, id: string): Promise<DeliveryList> {
  const endpoint = await findEndpoint(context.db, id)
  if (!endpoint || endpoint.shop_id !== shopId) throw notFound('No such webhook endpoint.')
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
}

/** Sends a webhook delivery again. */
export const redeliver = (context: PortalContext, shopId: string, id: string, author: Author) =>
  retry(context, shopId, id, author, 'webhook')

/** The actions in the shop's commerce engine, filtered, and which engine it is. */
export async function listShopEngineActions(
  context: PortalContext,
  shopId: string,
  { return_id: returnId, kind, state }: EngineActionsQuery,
): Promise<EngineActionList> {
  const [rows, connection, found] = await Promise.all([
    listEngineActions(context.db, shopId, {
      ...(returnId ? { returnId } : {}),
      ...(kind ? { event: `engine.${domainKind(kind)}` } : {}),
      ...(state ? { states: STATES_OF[state] } : {}),
      limit: 200,
    }),
    findStoreConnection(context.db, shopId),
    context.shops.find(shopId),
  ])
  const currency = found?.currency_code ?? 'EUR'
  return { engine: connection?.engine ?? null, actions: rows.map((row) => engineActionOf(row, currency)) }
}

/** Carries out an engine action again. */
export const retryEngineAction = (context: PortalContext, shopId: string, id: string, author: Author) =>
  retry(context, shopId, id, author, 'engine')
