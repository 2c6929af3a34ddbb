/**
 * The back office's events out (docs/events.md): the shoppers' e-mails, the shop's webhook
 * endpoints and their deliveries, the actions in its commerce engine (docs/commerce.md). For the
 * signed-in staff of this shop only; the work is services/staffEvents.ts's.
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
} from '../../../contract/events'
import { staffAuthor } from '../services/audit'
import {
  addWebhook,
  emailDetail,
  emailPage,
  enableWebhook,
  listShopEmails,
  listShopEngineActions,
  listWebhooks,
  redeliver,
  removeWebhook,
  retryEngineAction,
  webhookDeliveries,
} from '../services/staffEvents'
import { Bytes, replies, routes } from './typed'

const MessageParams = Type.Object({ id: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) })
const ActionParams = Type.Object({ id: Type.String({ pattern: '^act_[0-9a-f]{32}$' }) })
const EndpointParams = Type.Object({ id: Type.String({ pattern: '^ep_[0-9a-f]{20}$' }) })
const EmailsQuery = Type.Object(
  { return_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
)

/** The e-mail's HTML as a page of its own: no script, its inline styles, images from anywhere. */
const EMAIL_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; sandbox"

export const staffEventRoutes = routes((app, context) => {
  app.get(
    '/emails',
    {
      config: { staffAction: 'emails.read' },
      schema: { querystring: EmailsQuery, response: replies({ 200: EmailList }) },
    },
    async (request) => listShopEmails(context, request.staff.shop, request.query.return_id),
  )

  app.get(
    '/emails/:id',
    {
      config: { staffAction: 'emails.read' },
      schema: { params: MessageParams, response: replies({ 200: EmailDetail }) },
    },
    async (request) => emailDetail(context, request.staff.shop, request.params.id),
  )

  app.get(
    '/emails/:id/html',
    { config: { staffAction: 'emails.read' }, schema: { params: MessageParams, response: replies({ 200: Bytes }) } },
    async (request, reply) => {
      const html = await emailPage(context, request.staff.shop, request.params.id)
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', EMAIL_PAGE_POLICY)
        .send(Buffer.from(html, 'utf8'))
    },
  )

  app.get(
    '/webhooks',
    { config: { staffAction: 'webhooks.manage' }, schema: { response: replies({ 200: WebhookList }) } },
    async (request) => listWebhooks(context, request.staff.shop),
  )

  app.post(
    '/webhooks',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { body: NewWebhook, response: replies({ 201: CreatedWebhook }) },
    },
    async (request, reply) =>
      reply.code(201).send(await addWebhook(context, request.staff.shop, request.body, staffAuthor(request))),
  )

  app.delete(
    '/webhooks/:id',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: EndpointParams, response: replies({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await removeWebhook(context, request.staff.shop, request.params.id, staffAuthor(request))
      return reply.code(204).send(null)
    },
  )

  app.put(
    '/webhooks/:id/enabled',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: EndpointParams, body: WebhookEnabled, response: replies({ 200: WebhookList }) },
    },
    async (request) =>
      enableWebhook(context, request.staff.shop, request.params.id, request.body.enabled, staffAuthor(request)),
  )

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: EndpointParams, response: replies({ 200: DeliveryList }) },
    },
    async (request) => webhookDeliveries(context, request.staff.shop, request.params.id),
  )

  app.post(
    '/deliveries/:id/redeliver',
    {
      config: { staffAction: 'webhooks.manage' },
      schema: { params: MessageParams, response: replies({ 202: Type.Null() }) },
    },
    async (request, reply) => {
      await redeliver(context, request.staff.shop, request.params.id, staffAuthor(request))
      return reply.code(202).send(null)
    },
  )

  app.get(
    '/engine-actions',
    {
      config: { staffAction: 'engine.manage' },
      schema: { querystring: EngineActionsQuery, response: replies({ 200: EngineActionList }) },
    },
    async (request) => listShopEngineActions(context, request.staff.shop, request.query),
  )

  app.post(
    '/engine-actions/:id/retry',
    {
      config: { staffAction: 'engine.manage' },
      schema: { params: ActionParams, response: replies({ 202: Type.Null() }) },
    },
    async (request, reply) => {
      await retryEngineAction(context, request.staff.shop, request.params.id, staffAuthor(request))
      return reply.code(202).send(null)
    },
  )
})
