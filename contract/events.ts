/**
 * The back office's view of events out (docs/events.md): the shoppers' e-mails in the outbox,
 * the shop's webhook endpoints and their deliveries, and the actions in the shop's commerce engine
 * (docs/commerce.md). Only the console imports it.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Money, Nullable, oneOf } from './api'
import { EMAIL_KINDS, ENGINE_ACTION_FILTERS, ENGINE_ACTION_KINDS, WEBHOOK_EVENTS } from './constants'

export type { EngineActionKind } from './constants'
import { COMMERCE_ENGINES } from './staff'

export const OUTBOX_STATES = ['pending', 'delivered', 'kept', 'failed'] as const

/** An e-mail to a shopper, as the list shows it. */
export const OutboxEmail = Type.Object({
  id: Type.String(),
  return_id: Nullable(Type.String()),
  return_name: Nullable(Type.String()),
  kind: oneOf(EMAIL_KINDS),
  to: Type.String(),
  /** null until it is rendered (at its first attempt) */
  subject: Nullable(Type.String()),
  language: Type.String(),
  /** pending: to be sent (or retried); delivered: the mail server took it; kept: no SMTP_URL, kept here; failed: given up */
  state: oneOf(OUTBOX_STATES),
  attempts: Type.Integer(),
  created_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  /** when the next attempt is due, while pending */
  next_attempt_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
})
export type OutboxEmail = Static<typeof OutboxEmail>

/** GET /admin/api/emails?return_id= */
export const EmailList = Type.Object({
  emails: Type.Array(OutboxEmail),
  /** whether e-mails go out (SMTP_URL is set) or are kept in the outbox */
  smtp: Type.Boolean(),
})
export type EmailList = Static<typeof EmailList>

/** GET /admin/api/emails/{id}: the message as rendered; its HTML at html_url, to show in a sandbox. */
export const EmailDetail = Type.Object({
  ...OutboxEmail.properties,
  from: Nullable(Type.String()),
  reply_to: Nullable(Type.String()),
  text: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
})
export type EmailDetail = Static<typeof EmailDetail>

export const WebhookEvent = oneOf(WEBHOOK_EVENTS)

/** A webhook endpoint; its secret only as its last characters (shown whole once, when made). */
export const WebhookEndpointView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(WebhookEvent),
  secret_hint: Type.String(),
  created_at: Type.String(),
  /** every delivery since has failed */
  failing_since: Nullable(Type.String()),
  /** disabled: by staff, or after failing for 5 days */
  disabled_at: Nullable(Type.String()),
})
export type WebhookEndpointView = Static<typeof WebhookEndpointView>

/** GET /admin/api/webhooks */
export const WebhookList = Type.Object({ endpoints: Type.Array(WebhookEndpointView) })
export type WebhookList = Static<typeof WebhookList>

/** POST /admin/api/webhooks */
export const NewWebhook = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    events: Type.Array(WebhookEvent, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
  },
  { additionalProperties: false },
)
export type NewWebhook = Static<typeof NewWebhook>

/** The endpoint made, with its signing secret: the only time it is shown whole. */
export const CreatedWebhook = Type.Object({ ...WebhookEndpointView.properties, secret: Type.String() })
export type CreatedWebhook = Static<typeof CreatedWebhook>

/** POST /admin/api/webhooks/{id}/enabled */
export const WebhookEnabled = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String(),
  duration_ms: Type.Integer(),
  ok: Type.Boolean(),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
})

/** GET /admin/api/webhooks/{id}/deliveries: newest first, each with its attempts. */
export const DeliveryList = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      id: Type.String(),
      event: WebhookEvent,
      return_id: Nullable(Type.String()),
      state: oneOf(OUTBOX_STATES),
      created_at: Type.String(),
      next_attempt_at: Nullable(Type.String()),
      attempts: Type.Array(DeliveryAttempt),
    }),
  ),
})
export type DeliveryList = Static<typeof DeliveryList>

/** An action in the shop's commerce engine, as staff follow it. */
export const EngineActionView = Type.Object({
  /** the outbox row's id, which is also the action's key in the engine */
  id: Type.String(),
  return_id: Nullable(Type.String()),
  return_name: Nullable(Type.String()),
  kind: oneOf(ENGINE_ACTION_KINDS),
  /** a refund's or a store credit's amount, in the shop's currency; null for the other actions */
  amount: Nullable(Money),
  /** pending: to be carried out (or retried); delivered: done in the engine; failed: given up */
  state: oneOf(OUTBOX_STATES),
  attempts: Type.Integer(),
  created_at: Type.String(),
  /** when the engine confirmed it */
  done_at: Nullable(Type.String()),
  /** when the next attempt is due, while pending */
  next_attempt_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  /** the id of what the action made in the engine (its return, refund, promotion, exchange), once done */
  reference: Nullable(Type.String()),
  /**
   * true on a return's opening once its cancel is written: never tried again, a retry is refused
   * (409 `return_cancelled`, decision 0088); absent otherwise
   */
  return_cancelled: Type.Optional(Type.Literal(true)),
})
export type EngineActionView = Static<typeof EngineActionView>

/** GET /admin/api/engine-actions?return_id=&kind=&state=: newest first. */
export const EngineActionsQuery = Type.Object(
  {
    return_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    kind: Type.Optional(oneOf(ENGINE_ACTION_KINDS)),
    state: Type.Optional(oneOf(ENGINE_ACTION_FILTERS)),
  },
  { additionalProperties: false },
)
export type EngineActionsQuery = Static<typeof EngineActionsQuery>

export const EngineActionList = Type.Object({
  /** the engine the shop is connected to now; null when none is */
  engine: Nullable(oneOf(COMMERCE_ENGINES)),
  actions: Type.Array(EngineActionView),
})
export type EngineActionList = Static<typeof EngineActionList>
