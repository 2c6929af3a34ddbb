import type { FastifyInstance } from 'fastify'
import type { ReturnInstructions } from '../../../src/api/contract'
import type { PortalContext } from '../context'
import { qrCodeValue, renderLabelPdf, renderQrSvg } from '../domain/label'
import { labelSignatureValid, signLabel, signStatus } from '../domain/token'
import { findOrderById } from '../storage/orders'
import { findReturn, type ReturnRecord } from '../storage/returns'
import { requireToken } from './auth'
import { errorSchema } from './errors'
import { requestLanguage } from './language'

// A return's id is a UUID: anything else (a "%00" in the path would fail the query) is a 400.
const params = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } } } as const

/** What to do, in the portal's languages (Accept-Language); English for any other. */
const STEPS: Record<string, string[]> = {
  en: [
    'Pack the items in a parcel, in their original packaging if you still have it.',
    'Print the label and stick it on the parcel, or show the QR code at a drop-off point.',
    'Drop the parcel off within 14 days. We will e-mail you when it arrives.',
  ],
  de: [
    'Verpacken Sie die Artikel in einem Paket, wenn möglich in der Originalverpackung.',
    'Drucken Sie das Etikett aus und kleben Sie es auf das Paket, oder zeigen Sie den QR-Code bei einer Annahmestelle.',
    'Geben Sie das Paket innerhalb von 14 Tagen ab. Wir schicken Ihnen eine E-Mail, sobald es angekommen ist.',
  ],
  fr: [
    'Emballez les articles dans un colis, dans leur emballage d’origine si vous l’avez encore.',
    'Imprimez l’étiquette et collez-la sur le colis, ou présentez le code QR dans un point de dépôt.',
    'Déposez le colis sous 14 jours. Nous vous enverrons un e-mail à son arrivée.',
  ],
  es: [
    'Empaquete los artículos en un paquete, en su embalaje original si aún lo tiene.',
    'Imprima la etiqueta y péguela en el paquete, o muestre el código QR en un punto de entrega.',
    'Entregue el paquete en un plazo de 14 días. Le enviaremos un correo electrónico cuando llegue.',
  ],
}
const stepsIn = (lang: string | null) => (lang !== null && Object.hasOwn(STEPS, lang) ? STEPS[lang]! : STEPS.en!)

/** Return instructions (token's order only), and the label PDF behind a signed link. */
export async function instructionRoutes(app: FastifyInstance, context: PortalContext) {
  const authorised = requireToken(context)

  app.get<{ Params: { id: string } }>(
    '/portal-registration/returns/:id/instructions',
    {
      onRequest: authorised,
      schema: {
        params,
        response: {
          200: {
            type: 'object',
            required: ['return_id', 'return_name', 'steps', 'address', 'label_url', 'qr_svg', 'qr_code_value', 'status_token'],
            properties: {
              return_id: { type: 'string' },
              return_name: { type: 'string' },
              steps: { type: 'array', items: { type: 'string' } },
              address: { type: 'object', additionalProperties: true, properties: {} },
              label_url: { type: 'string' },
              qr_svg: { type: 'string' },
              qr_code_value: { type: 'string' },
              status_token: { type: 'string' },
            },
          },
          '4xx': errorSchema,
        },
      },
    },
    async (request, reply) => {
      const claims = request.claims!
      const found = await findReturn(context.db, request.params.id)
      // Another order's return is as absent as a return that does not exist.
      if (!found || found.order_id !== claims.orderId) return reply.code(404).send({ error: 'not_found', message: 'No such return for this order.' })
      const shop = await context.shops.find(claims.shopId)
      if (!shop) return reply.code(404).send({ error: 'not_found', message: 'No such return for this order.' })
      const expires = Math.floor(context.now().getTime() / 1000) + context.limits.labelTtlSeconds
      const code = qrCodeValue(found.id)
      const body: ReturnInstructions = {
        return_id: found.id,
        return_name: found.name,
        steps: stepsIn(requestLanguage(request)),
        address: shop.return_address,
        label_url: `/portal-registration/returns/${encodeURIComponent(found.id)}/label.pdf?expires=${expires}&signature=${signLabel(context.secret, found.id, expires)}`,
        qr_svg: await renderQrSvg(code),
        qr_code_value: code,
        status_token: signStatus(context.secret, found.id),
      }
      return reply.header('cache-control', 'private, max-age=300').header('vary', 'accept-language').send(body)
    },
  )

  app.get<{ Params: { id: string }; Querystring: { expires: string; signature: string } }>(
    '/portal-registration/returns/:id/label.pdf',
    {
      schema: {
        params,
        querystring: {
          type: 'object',
          required: ['expires', 'signature'],
          properties: { expires: { type: 'string', pattern: '^[0-9]{1,12}$' }, signature: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
        },
        response: { '4xx': errorSchema },
      },
    },
    async (request, reply) => {
      const { expires, signature } = request.query
      const valid = labelSignatureValid(context.secret, request.params.id, Number(expires), signature, context.now())
      const found = valid ? await findReturn(context.db, request.params.id) : null
      if (!found) return reply.code(404).send({ error: 'not_found', message: 'This label link is not valid or has expired.' })
      const pdf = await labelFor(context, found)
      if (!pdf) return reply.code(404).send({ error: 'not_found', message: 'This label link is not valid or has expired.' })
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="return-label-${found.name.replace(/[^A-Za-z0-9-]/g, '')}.pdf"`)
        .header('cache-control', 'private, max-age=3600')
        .send(Buffer.from(pdf))
    },
  )
}

async function labelFor(context: PortalContext, found: ReturnRecord): Promise<Uint8Array | null> {
  const order = await findOrderById(context.db, found.order_id)
  const shop = order ? await context.shops.find(order.shop_id) : null
  if (!order || !shop) return null
  return renderLabelPdf({
    returnName: found.name,
    qrValue: qrCodeValue(found.id),
    from: { name: order.name, email: order.email_key },
    to: shop.return_address,
    shopName: shop.config.document_title_text ?? shop.id,
    items: (found.return_order?.items ?? []).map((item) => ({ title: item.title, variantTitle: item.variant_title, quantity: item.quantity })),
    createdAt: new Date(found.created_at),
  })
}
